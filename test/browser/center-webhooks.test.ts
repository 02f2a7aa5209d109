// The dashboard's Webhooks screen in Chromium, driven by the names of its controls: an
// endpoint is added with its events, its secret shown once with Copy; a test event shows in
// its recent deliveries; it is disabled and enabled, then deleted after a confirmation.
// What the API then holds is checked each step.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { callJson } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness } from "./dashboard.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("the dashboard's Webhooks screen in Chromium", () => {
  const d = dashboardHarness(executable, "center-webhooks");
  const { open, shootBoth, clean, signIn, go } = d;
  const api = <T = any>(method: string, path: string, token: string, json?: unknown) => callJson<T>(method, path, { app: d.rig.o.app, token, json });

  test(
    "an endpoint is added with its events and its secret shown once; a test shows in its deliveries; disabled, enabled, deleted",
    async () => {
      const user = await d.rig.o.makeUser();
      const page = await open(DESKTOP);
      await signIn(page, user.email);
      await go(page, "Webhooks");
      await page.getByText("No webhook endpoints yet.").waitFor();

      // No event chosen: said so, and nothing is made.
      await page.getByLabel("Endpoint URL").fill("https://hooks.example.com/shelf");
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await page.getByRole("alert").getByText("Choose at least one event.").waitFor();
      await page.getByRole("checkbox", { name: "video.ready" }).check();
      await page.getByRole("checkbox", { name: "document.changed" }).check();
      await page.getByRole("button", { name: "Add endpoint" }).click();

      const panel = page.getByRole("region", { name: "Your endpoint's signing secret" });
      await panel.waitFor();
      const secret = await panel.getByLabel("Signing secret").inputValue();
      expect(secret).toMatch(/^whsec_/);
      await panel.getByRole("button", { name: "Copy secret" }).click();
      await panel
        .getByRole("status")
        .getByText(/Secret copied|Select the secret/)
        .waitFor();
      const listed = (await api("GET", "/v1/webhooks/endpoints", user.jwt)).body.data.items;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ url: "https://hooks.example.com/shelf", events: ["video.ready", "document.changed"], enabled: true });
      await panel.getByRole("button", { name: "Done" }).click();

      const item = page
        .getByRole("list", { name: "Webhook endpoints" })
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: "https://hooks.example.com/shelf" }) });
      await item.getByRole("button", { name: "Send a test event to https://hooks.example.com/shelf" }).click();
      await item.getByRole("list", { name: "Recent deliveries to https://hooks.example.com/shelf" }).getByText("webhook.test").waitFor();
      await shootBoth(page, "webhooks-endpoint");

      await item.getByRole("button", { name: "Disable https://hooks.example.com/shelf" }).click();
      await item.getByText("Disabled: disabled by its owner").waitFor();
      expect((await api("GET", `/v1/webhooks/endpoints/${listed[0].id}`, user.jwt)).body.data.enabled).toBe(false);
      await item.getByRole("button", { name: "Enable https://hooks.example.com/shelf" }).click();
      await item.getByText("Enabled", { exact: true }).waitFor();
      expect((await api("GET", `/v1/webhooks/endpoints/${listed[0].id}`, user.jwt)).body.data.enabled).toBe(true);

      // The secret is not on the page once its panel is closed.
      await page.reload();
      await item.waitFor();
      expect(await page.content()).not.toContain(secret);

      page.once("dialog", (dialog) => dialog.accept());
      await item.getByRole("button", { name: "Delete the endpoint https://hooks.example.com/shelf" }).click();
      await page.getByText("No webhook endpoints yet.").waitFor();
      expect((await api("GET", "/v1/webhooks/endpoints", user.jwt)).body.data.items).toEqual([]);
      await clean(page);
    },
    SLOW,
  );
});
