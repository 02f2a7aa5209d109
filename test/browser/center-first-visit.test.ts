// The first visit to a new instance in Chromium: with no account yet (GET /v1/auth/setup)
// the dashboard opens on "Create the owner account", which says the account becomes the
// administrator; after it, the API's notice is shown once, at the top of the library. The
// next visitor finds an ordinary sign-in. Both new screens are scanned by axe-core too. On an instance of its own (an empty database),
// served on a port of its own at the address it announces.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { callJson } from "../helpers/context.ts";
import { closeEmptyInstances, emptyInstance } from "../helpers/empty-instance.ts";
import { axeViolations } from "./axe.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, PHONE, showScreen } from "./dashboard.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("the first visit to an instance with no account, in Chromium", () => {
  let instance: Awaited<ReturnType<typeof emptyInstance>>;
  let server: { stop(force?: boolean): unknown };
  let browser: Browser;
  let origin = "";
  const complaints: string[] = [];
  const shots = mkdtempSync(join(tmpdir(), "shelf-center-first-visit-"));

  beforeAll(async () => {
    instance = await emptyInstance({ FIRST_USER_PLAN: "pro_plus", DEFAULT_PLAN: "trial" });
    const listening = instance.app.listen({ port: 0, hostname: "127.0.0.1" });
    server = listening;
    const { PUBLIC_URL, CENTER_URL } = instance.deps.config;
    origin = new URL(CENTER_URL).origin;
    browser = await chromium.launch({
      executablePath: executable!,
      args: [
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        `--host-resolver-rules=MAP ${new URL(PUBLIC_URL).hostname}:80 127.0.0.1:${listening.server!.port}`,
      ],
    });
  }, SLOW);

  afterAll(async () => {
    await browser?.close();
    void server?.stop(true);
    await closeEmptyInstances();
    console.log(`center-first-visit screenshots: ${shots}`);
  }, SLOW);

  async function open(viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser.newContext({ viewport });
    context.setDefaultTimeout(SLOW / 2);
    const page = await context.newPage();
    page.on("console", (m) => m.type() === "error" && !m.text().includes("Cross-Origin-Opener-Policy") && complaints.push(m.text()));
    return page;
  }

  /** Leaves the page once its requests have ended, then closes its profile. */
  async function leave(page: Page) {
    await page.goto("about:blank");
    await page.context().close();
  }

  const shoot = (page: Page, label: string) => page.screenshot({ path: join(shots, `${label}.png`), fullPage: true });

  test(
    "opens on Create the owner account; after it the API's notice is shown once; the next visitor is asked to sign in",
    async () => {
      const page = await open(PHONE);
      await page.goto(`${origin}/`);
      const heading = page.getByRole("heading", { name: "Create the owner account", level: 1 });
      await heading.waitFor();
      await expect(page.evaluate(() => location.hash)).resolves.toBe("#/signup");
      await expect(page.title()).resolves.toBe("Create the owner account · shelf");
      await page.getByText("it is its administrator").waitFor();
      await page.getByText("It is on plan Pro+; everyone who signs up later gets plan Trial.").waitFor();
      await shoot(page, "owner-signup-phone");
      await expect(axeViolations(page)).resolves.toEqual([]);
      await page.setViewportSize(DESKTOP);
      await shoot(page, "owner-signup-desktop");
      await page.setViewportSize(PHONE);
      // The sign-in screen says where to start instead.
      await page.goto(`${origin}/#/signin`);
      await page.getByRole("heading", { name: "Sign in", level: 1 }).waitFor();
      await page.getByRole("link", { name: "Create the owner account" }).click();
      await heading.waitFor();

      await page.getByLabel("Nickname").fill("Owner");
      await page.getByLabel("Email").fill("owner@example.com");
      await page.getByLabel("Password").fill("a long passphrase");
      await page.getByRole("button", { name: "Create the owner account" }).click();
      await page.getByRole("heading", { name: "Library", level: 1 }).waitFor();
      const notice = page.getByRole("region", { name: "Your account is ready" });
      await notice.getByText("This is the first account on this instance: it is an administrator on plan pro_plus.").waitFor();
      // It is read first: its heading has the focus.
      await expect(notice.getByRole("heading", { name: "Your account is ready" }).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      // It is the administrator: the nav has Admin.
      await page
        .getByRole("navigation", { name: "Main", includeHidden: true })
        .getByRole("link", { name: "Admin", includeHidden: true })
        .waitFor({ state: "attached" });
      await shoot(page, "owner-notice-phone");
      await expect(axeViolations(page)).resolves.toEqual([]);
      const setup = await callJson("GET", "/v1/auth/setup", { app: instance.app });
      expect(setup.body.data).toEqual({ hasAccounts: true, firstAccount: null, oidc: null });

      // Once: the next screen, the library again and a reload do not show it.
      await showScreen(page, "#/upload");
      await page.getByRole("heading", { name: "Upload", level: 1 }).waitFor();
      await showScreen(page, "#/library");
      await page.getByRole("heading", { name: "Library", level: 1 }).waitFor();
      await expect(notice.count()).resolves.toBe(0);
      await page.reload();
      await page.getByRole("heading", { name: "Library", level: 1 }).waitFor();
      await expect(notice.count()).resolves.toBe(0);
      await leave(page);

      // The next visitor, in a browser of their own: an ordinary sign-in.
      const next = await open(PHONE);
      await next.goto(`${origin}/`);
      await next.getByRole("heading", { name: "Sign in", level: 1 }).waitFor();
      await next.getByRole("link", { name: "Create an account" }).click();
      await next.getByRole("heading", { name: "Create your account", level: 1 }).waitFor();
      await expect(next.getByText("administrator").count()).resolves.toBe(0);
      await leave(next);
      expect(complaints).toEqual([]);
    },
    SLOW,
  );
});
