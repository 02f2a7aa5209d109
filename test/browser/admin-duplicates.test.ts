// The approval queue's copies in Chromium: an app registered three times over, exactly the
// same, shows once as itself and twice as "Same as ... registered ...", and "Reject the
// copies shown" refuses the copies (after asking) and leaves the first and another app
// waiting for a decision.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { TestUser } from "../helpers/factories.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness } from "./dashboard.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("copies in the dashboard's approval queue", () => {
  let boss: TestUser;
  const d = dashboardHarness(executable, "admin-duplicates", async (rig) => {
    boss = await rig.o.makeUser({ isAdmin: true });
  });

  async function registerApp(metadata: Record<string, unknown>): Promise<string> {
    d.rig.o.clock.advance(1000);
    const reg = await d.rig.o.call("POST", "/oauth/register", { app: d.rig.o.app, json: metadata, headers: { "x-forwarded-for": d.rig.o.ip() } });
    expect(reg.status).toBe(201);
    return ((await reg.json()) as { client_id: string }).client_id;
  }

  test(
    "the copies say whose copies they are, and are rejected together; the first and a different app stay",
    async () => {
      const tag = crypto.randomUUID().slice(0, 8);
      const same = { client_name: `Test Runner ${tag}`, redirect_uris: ["http://127.0.0.1:7/cb"], scope: "kb.read" };
      const first = await registerApp(same);
      const copies = [await registerApp(same), await registerApp(same)];
      const other = await registerApp({ ...same, client_name: `Other ${tag}` });

      const page = await d.open(DESKTOP);
      await d.signIn(page, boss.email);
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).click();
      await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "App approval" }).click();
      const part = page.getByRole("region", { name: "App approval" });
      const queue = part.getByRole("list", { name: "Registered apps" });
      const item = (id: string) => queue.locator(`[data-client="${id}"]`);
      await item(first).waitFor();
      await expect(item(first).textContent()).resolves.not.toContain("Same as");
      for (const id of copies) await expect(item(id).textContent()).resolves.toContain(`Same as Test Runner ${tag} registered`);
      await expect(item(copies[0]!).textContent()).resolves.toContain(first);
      await d.shoot(page, "queue-with-copies");

      page.once("dialog", (dialog) => dialog.accept());
      await part.getByRole("button", { name: /^Reject the \d+ cop(y|ies) shown$/ }).click();
      await part
        .getByRole("status")
        .getByText(/^\d+ cop(y|ies) rejected\.$/)
        .waitFor();
      for (const id of copies) await expect(item(id).count()).resolves.toBe(0);
      await item(first).waitFor();
      await item(other).waitFor();

      const rejected = await d.rig.o
        .call("GET", "/v1/admin/oauth-clients?status=rejected&limit=50", { app: d.rig.o.app, token: boss.jwt })
        .then((r) => r.json());
      const ids = rejected.data.items.map((c: { id: string }) => c.id);
      expect(ids).toEqual(expect.arrayContaining(copies));
      expect(ids).not.toContain(first);
      expect(ids).not.toContain(other);
      await d.clean(page);
    },
    SLOW,
  );
});
