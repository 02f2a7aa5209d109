// The dashboard's admin screen (#/admin and its tabs) in Chromium, driven by the names of its
// controls: a user's plan changed by picking the account, the plans shown, the app approval
// queue decided, the jobs listed and one run. Each
// journey asserts what the admin sees and what the API then holds; the page logs no error
// and fetches nothing off its origin. Screenshots (phone and desktop) go to a temporary folder.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { PASSWORD, type TestUser } from "../helpers/factories.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness, PHONE } from "./dashboard.ts";
import { deleteAccount } from "../../src/modules/admin/public.ts";
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

  /** Signs in and opens the admin screen from the header, as an admin does; `part` is a tab of it. */
  async function adminScreen(page: Page, part?: "App approval" | "Jobs", who = boss) {
    await d.signIn(page, who.email);
    await d.go(page, "Admin");
    if (part) await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: part }).click();
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

  /** The account's card in the list, found by its e-mail. */
  async function accountCard(page: Page, email: string) {
    const accounts = page.getByRole("region", { name: "Accounts" });
    await accounts.getByLabel("Find by e-mail").fill(email.toUpperCase());
    await accounts.getByRole("button", { name: "Find" }).click();
    const list = accounts.getByRole("list", { name: "Accounts" });
    const card = list.getByRole("listitem").filter({ has: page.getByRole("heading", { name: email }) });
    await card.waitFor();
    await expect(list.getByRole("listitem").count()).resolves.toBe(1);
    return card;
  }

  test(
    "starts from the account list: a plan is changed by picking the account, in a dialog, and the card and the API then hold it",
    async () => {
      const person = await d.rig.o.makeUser({ plan: "trial" });
      const page = await open(PHONE);
      await adminScreen(page);
      // The first thing under the title is the list of accounts; no box asks for an id.
      const accounts = page.getByRole("region", { name: "Accounts" });
      await accounts.getByRole("list", { name: "Accounts" }).getByRole("listitem").first().waitFor();
      await expect(page.getByLabel(/User ID/).count()).resolves.toBe(0);
      await expect(page.getByRole("region", { name: "Jobs" }).count()).resolves.toBe(0);
      const card = await accountCard(page, person.email);
      await expect(card.textContent()).resolves.toContain("Trial (no end)");

      const change = card.getByRole("button", { name: `Change plan of ${person.email}` });
      await change.click();
      const dialog = page.getByRole("dialog", { name: `Plan of ${person.email}` });
      await dialog.waitFor();
      await expect(dialog.getByLabel("Plan", { exact: true }).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      await dialog.getByLabel("Plan", { exact: true }).selectOption({ label: "Pro" });
      await dialog.getByLabel("Plan ends").fill("2099-06-30");
      await shoot(page, "admin-plan-dialog-phone");
      await dialog.getByRole("button", { name: "Save plan" }).click();
      await accounts.getByRole("status").getByText(`${person.email} is now on Pro until`).waitFor();
      await expect(dialog.count()).resolves.toBe(0);
      const changed = accounts.getByRole("listitem").filter({ has: page.getByRole("heading", { name: person.email }) });
      await expect(changed.textContent()).resolves.toMatch(/Pro \(until [^)]+\)/);
      // The focus is back on the account's button.
      await expect(changed.getByRole("button", { name: `Change plan of ${person.email}` }).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      const me = await api("GET", "/v1/user/me", person.jwt);
      expect(me.data).toMatchObject({ plan: "pro", planActive: true, planExpiresAt: "2099-06-30T23:59:59.000Z" });
      expect(await d.rig.noHorizontalScroll(page)).toBe(true);
      await shoot(page, "admin-accounts-phone");

      // Cancel leaves the plan as it is.
      await changed.getByRole("button", { name: `Change plan of ${person.email}` }).click();
      await dialog.getByLabel("Plan", { exact: true }).selectOption({ label: "Trial" });
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(dialog.count()).resolves.toBe(0);
      expect((await api("GET", "/v1/user/me", person.jwt)).data.plan).toBe("pro");
      await clean(page);
    },
    SLOW,
  );

  test(
    "an account gone since the list was read is refused in the dialog in the API's words; the plans tab shows this server's limits",
    async () => {
      const person = await d.rig.o.makeUser({ plan: "trial" });
      const page = await open(DESKTOP);
      await adminScreen(page);
      const card = await accountCard(page, person.email);
      await shoot(page, "admin-accounts-desktop");
      await card.getByRole("button", { name: `Change plan of ${person.email}` }).click();
      const dialog = page.getByRole("dialog", { name: `Plan of ${person.email}` });
      await dialog.getByLabel("Plan", { exact: true }).selectOption({ label: "Pro+" });
      await deleteAccount(d.rig.o.deps, person.id);
      await dialog.getByRole("button", { name: "Save plan" }).click();
      await dialog
        .getByRole("alert")
        .getByText(/not found/i)
        .waitFor();
      await page.keyboard.press("Escape");
      await expect(dialog.count()).resolves.toBe(0);

      await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Plans" }).click();
      const plans = page.getByRole("region", { name: "Plans" });
      const table = plans.getByRole("table", { name: "Plans and their limits" });
      await table.waitFor();
      await expect(page.evaluate(() => location.hash)).resolves.toBe("#/admin/plans");
      const kbRow = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "Knowledge bases" }) });
      const limits = d.rig.o.deps.plans;
      const shown = (n: number) => (n === -1 ? "no cap" : n.toLocaleString("en-US"));
      await expect(kbRow.getByRole("cell").allTextContents()).resolves.toEqual([
        shown(limits.trial.kbCount),
        shown(limits.pro.kbCount),
        shown(limits.pro_plus.kbCount),
      ]);
      await shoot(page, "admin-plans-desktop");
      await clean(page, [/status of 404/]);
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
      await adminScreen(page, "App approval");
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
      await adminScreen(page, "Jobs");
      await expect(page.evaluate(() => location.hash)).resolves.toBe("#/admin/jobs");
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
      // The last run in one line: when, how it went, how long it took.
      await expect(ran.textContent()).resolves.toMatch(/Last run.+ · ok · \d+(\.\d)? (ms|s)/);
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
      await adminScreen(page, "App approval");
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
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("heading", { name: "Library" }).waitFor();
      // Not in the nav, shown or behind the menu.
      const nav = page.getByRole("navigation", { name: "Main", includeHidden: true });
      await expect(nav.getByRole("link", { name: "Library", includeHidden: true }).count()).resolves.toBe(1);
      await expect(nav.getByRole("link", { name: "Admin", includeHidden: true }).count()).resolves.toBe(0);
      for (const fragment of ["#/admin", "#/admin/jobs"]) {
        await page.goto(`${d.origin}/${fragment}`);
        await page.getByRole("heading", { name: "Admins only" }).waitFor();
        await expect(page.getByRole("button", { name: /Change plan|Run now/ }).count()).resolves.toBe(0);
      }
      await page.getByRole("link", { name: "Back to your library" }).waitFor();
      await shoot(page, "admins-only-phone");
      expect((await api("GET", "/v1/admin/jobs", person.jwt)).code).toBe("FORBIDDEN");
      await clean(page);
    },
    SLOW,
  );
});
