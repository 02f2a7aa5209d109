// The dashboard's admin screen (#/admin) in Chromium, driven by the names of its controls:
// a user's plan changed, the app approval queue decided, the jobs listed and one run. Each
// journey asserts what the admin sees and what the API then holds; the page logs no error
// and fetches nothing off its origin. Screenshots (phone and desktop) go to a temporary folder.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { PASSWORD, type TestUser } from "../helpers/factories.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness, PHONE } from "./dashboard.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

describe.skipIf(!executable)("the dashboard's admin screen in Chromium", () => {
  let boss: TestUser;
  const d = dashboardHarness(executable, "center-admin", async (rig) => {
    boss = await rig.o.makeUser({ isAdmin: true });
  });
  const { open, shoot, clean } = d;

  /** Signs in and opens the admin screen from the nav, as an admin does. */
  async function adminScreen(page: Page, who = boss) {
    await d.signIn(page, who.email);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).click();
    await page.getByRole("heading", { name: "Admin", level: 1 }).waitFor();
  }

  const api = (method: string, path: string, token: string, json?: unknown) =>
    d.rig.o.call(method, path, { app: d.rig.o.app, token, json }).then((r) => r.json());

  /** POST /oauth/register, as any app may: a pending client with the device grant. */
  async function registerApp(name: string): Promise<string> {
    const reg = await d.rig.o.call("POST", "/oauth/register", {
      app: d.rig.o.app,
      json: { client_name: name, grant_types: [DEVICE_GRANT, "refresh_token"], scope: "media.read" },
      headers: { "x-forwarded-for": d.rig.o.ip() },
    });
    expect(reg.status).toBe(201);
    return ((await reg.json()) as { client_id: string }).client_id;
  }

  test(
    "changes a user's plan by the account's id; an unknown id is refused in the API's words",
    async () => {
      const person = await d.rig.o.makeUser({ plan: "trial" });
      const page = await open(PHONE);
      await adminScreen(page);
      const users = page.getByRole("region", { name: "Users" });
      await users.getByLabel("User ID").fill("A".repeat(21));
      await users.getByRole("button", { name: "Change plan" }).click();
      await users
        .getByRole("alert")
        .getByText(/not found/i)
        .waitFor();

      await users.getByLabel("User ID").fill(person.id);
      await users.getByLabel("Plan", { exact: true }).selectOption({ label: "Pro" });
      await users.getByLabel("Plan ends").fill("2099-06-30");
      await users.getByRole("button", { name: "Change plan" }).click();
      await users.getByRole("status").getByText(`${person.email} is now on Pro until`).waitFor();
      // The earlier refusal is gone (an empty alert is not shown).
      await expect(users.getByRole("alert").count()).resolves.toBe(0);
      await shoot(page, "admin-plan-phone");
      const me = await api("GET", "/v1/user/me", person.jwt);
      expect(me.data).toMatchObject({ plan: "pro", planActive: true, planExpiresAt: "2099-06-30T23:59:59.000Z" });
      expect(await d.rig.noHorizontalScroll(page)).toBe(true);
      await clean(page, [/status of 404/]);
    },
    SLOW,
  );

  test(
    "finds an account by e-mail in the list, edits its plan from there; the plans table shows this server's limits",
    async () => {
      const person = await d.rig.o.makeUser({ plan: "trial" });
      const page = await open(DESKTOP);
      await adminScreen(page);
      const accounts = page.getByRole("region", { name: "Accounts" });
      await accounts.getByLabel("Find by e-mail").fill(person.email.toUpperCase());
      await accounts.getByRole("button", { name: "Find" }).click();
      const list = accounts.getByRole("list", { name: "Accounts" });
      const item = list.getByRole("listitem").filter({ has: page.getByRole("heading", { name: person.email }) });
      await item.waitFor();
      await expect(list.getByRole("listitem").count()).resolves.toBe(1);
      await expect(item.textContent()).resolves.toContain("Trial (no end)");
      await item.getByRole("button", { name: `Edit plan of ${person.email}` }).click();

      const users = page.getByRole("region", { name: "Users" });
      await expect(users.getByLabel("User ID").inputValue()).resolves.toBe(person.id);
      // The plan select has the focus, ready for the change.
      await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe("admin-plan");
      await users.getByLabel("Plan", { exact: true }).selectOption({ label: "Pro+" });
      await users.getByRole("button", { name: "Change plan" }).click();
      await users.getByRole("status").getByText(`${person.email} is now on Pro+.`).waitFor();
      expect((await api("GET", "/v1/user/me", person.jwt)).data).toMatchObject({ plan: "pro_plus", planActive: true, planExpiresAt: null });

      const plans = page.getByRole("region", { name: "Plans" });
      const table = plans.getByRole("table", { name: "Plans and their limits" });
      await table.waitFor();
      const kbRow = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "Knowledge bases" }) });
      const limits = d.rig.o.deps.plans;
      const shown = (n: number) => (n === -1 ? "no cap" : n.toLocaleString("en-US"));
      await expect(kbRow.getByRole("cell").allTextContents()).resolves.toEqual([
        shown(limits.trial.kbCount),
        shown(limits.pro.kbCount),
        shown(limits.pro_plus.kbCount),
      ]);
      // An admin's header (nine links, notifications, the name, Sign out) is one line at 1280 px.
      const header = page.getByRole("banner");
      const top = async (name: string, role: "link" | "button") => (await header.getByRole(role, { name, exact: true }).boundingBox())!.y;
      expect(Math.abs((await top("shelf", "link")) - (await top("Sign out", "button")))).toBeLessThan(12);
      await shoot(page, "admin-accounts-desktop");
      await clean(page);
    },
    SLOW,
  );

  test(
    "the approval queue: an app approved leaves the queue and is verified when it authorizes; one rejected is refused from then on",
    async () => {
      const tag = crypto.randomUUID().slice(0, 8);
      const good = await registerApp(`Reader ${tag}`);
      const bad = await registerApp(`Scraper ${tag}`);
      const page = await open(DESKTOP);
      await adminScreen(page);
      const part = page.getByRole("region", { name: "App approval" });
      const queue = part.getByRole("list", { name: "Registered apps" });
      const reader = queue.getByRole("listitem").filter({ has: page.getByRole("heading", { name: `Reader ${tag}` }) });
      await reader.waitFor();
      await expect(reader.textContent()).resolves.toContain("media.read");
      await shoot(page, "admin-queue-desktop");

      await reader.getByRole("button", { name: `Approve Reader ${tag}` }).click();
      await part.getByRole("status").getByText(`Reader ${tag} is approved.`).waitFor();
      await expect(reader.count()).resolves.toBe(0);
      const approved = await api("GET", "/v1/admin/oauth-clients?status=approved&limit=50", boss.jwt);
      expect(approved.data.items.find((c: { id: string }) => c.id === good)).toMatchObject({ status: "approved", decidedAt: expect.any(String) });
      // Approved, it authorizes as a verified app.
      const person = await d.rig.o.makeUser();
      const started = (await d.rig.o.start(good)).body;
      expect((await d.rig.o.verify(person, started.user_code)).body.data).toMatchObject({ clientId: good, unverified: false });

      // Rejecting asks first, then the app is refused everywhere.
      page.once("dialog", (d) => d.accept());
      await queue.getByRole("button", { name: `Reject Scraper ${tag}` }).click();
      await part.getByRole("status").getByText(`Scraper ${tag} is rejected.`).waitFor();
      expect((await d.rig.o.start(bad)).body.error).toBe("invalid_client");

      // The approved list shows the approved app, which may still be withdrawn (no Approve).
      await part.getByLabel("Show").selectOption({ label: "Approved" });
      const listed = queue.getByRole("listitem").filter({ has: page.getByRole("heading", { name: `Reader ${tag}` }) });
      await listed.getByRole("button", { name: `Reject Reader ${tag}` }).waitFor();
      await expect(listed.getByRole("button", { name: /^Approve/ }).count()).resolves.toBe(0);
      await clean(page);
    },
    SLOW,
  );

  test(
    "the jobs listed are GET /v1/admin/jobs's, each with its schedule and last run; Run now runs one and shows its outcome",
    async () => {
      const page = await open(DESKTOP);
      await adminScreen(page);
      const jobs = page.getByRole("region", { name: "Jobs" }).getByRole("list", { name: "Jobs" });
      await jobs.getByRole("listitem").first().waitFor();
      const expected = (await api("GET", "/v1/admin/jobs", boss.jwt)).data.items as { name: string; schedule: string }[];
      await expect(jobs.getByRole("heading", { level: 3 }).allTextContents()).resolves.toEqual(expected.map((j) => j.name));
      const job = jobs.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "prune-job-runs", exact: true }) });
      await expect(job.textContent()).resolves.toContain(expected.find((j) => j.name === "prune-job-runs")!.schedule);

      await job.getByRole("button", { name: "Run now prune-job-runs" }).click();
      await page.getByRole("region", { name: "Jobs" }).getByRole("status").getByText("prune-job-runs ran: ok.").waitFor();
      const ran = jobs.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "prune-job-runs", exact: true }) });
      await ran.getByText("ok", { exact: true }).waitFor();
      await expect(ran.textContent()).resolves.toMatch(/Duration\d+(\.\d)? (ms|s)/);
      const after = (await api("GET", "/v1/admin/jobs", boss.jwt)).data.items.find((j: { name: string }) => j.name === "prune-job-runs");
      expect(after.lastRun).toMatchObject({ outcome: "ok", trigger: "manual" });
      await shoot(page, "admin-jobs-desktop");
      await page.setViewportSize(PHONE);
      expect(await d.rig.noHorizontalScroll(page)).toBe(true);
      await shoot(page, "admin-phone");
      await clean(page);
    },
    SLOW,
  );

  test(
    "usable by keyboard alone: Tab reaches an app's Approve, Enter approves it, and focus stays on the list",
    async () => {
      const tag = crypto.randomUUID().slice(0, 8);
      const id = await registerApp(`Keyed ${tag}`);
      const page = await open(DESKTOP);
      await adminScreen(page);
      const approve = page.getByRole("button", { name: `Approve Keyed ${tag}` });
      await approve.waitFor();
      let reached = false;
      for (let i = 0; i < 40 && !reached; i++) {
        await page.keyboard.press("Tab");
        reached = await approve.evaluate((el) => el === document.activeElement);
      }
      expect(reached).toBe(true);
      await page.keyboard.press("Enter");
      await page.getByRole("region", { name: "App approval" }).getByRole("status").getByText(`Keyed ${tag} is approved.`).waitFor();
      // Focus moved to the next app's button or the list's filter, not lost to the page.
      const focused = await page.evaluate(() => document.activeElement?.closest("section")?.getAttribute("aria-labelledby"));
      expect(focused).toBe("admin-clients");
      const approved = await api("GET", "/v1/admin/oauth-clients?status=approved&limit=50", boss.jwt);
      expect(approved.data.items.map((c: { id: string }) => c.id)).toContain(id);
      await clean(page);
    },
    SLOW,
  );

  test(
    "a person who is not an admin has no Admin link, and typing #/admin says politely it is for admins (the API refuses too)",
    async () => {
      const person = await d.rig.o.makeUser();
      const page = await open(PHONE);
      await page.goto(`${d.origin}/`);
      await page.getByLabel("Email").fill(person.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Library" }).waitFor();
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).count()).resolves.toBe(0);
      await page.goto(`${d.origin}/#/admin`);
      await page.getByRole("heading", { name: "Admins only" }).waitFor();
      await expect(page.getByRole("button", { name: "Change plan" }).count()).resolves.toBe(0);
      await page.getByRole("link", { name: "Back to your library" }).waitFor();
      await shoot(page, "admins-only-phone");
      expect((await api("GET", "/v1/admin/jobs", person.jwt)).code).toBe("FORBIDDEN");
      await clean(page);
    },
    SLOW,
  );
});
