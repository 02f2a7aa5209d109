// The dashboard's browser tests share this harness: a rig (chromium.ts) per file, pages opened
// with JavaScript, every request the page makes off the dashboard's origin recorded (there
// must be none), screenshots into a folder of the file's own, the check that a page logged
// no error, and a sign-in as a person does. Registered inside the file's describe, so a
// machine without Chromium skips it with the tests.
import { afterAll, beforeAll, expect } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { PASSWORD } from "../helpers/factories.ts";
import { browserRig, SLOW, whenEventDropped } from "./chromium.ts";

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/**
 * Moves an open dashboard to another screen as a link in it would: by its fragment, in the same
 * document. `page.goto` to a URL that differs only in its fragment races Playwright's own
 * bookkeeping of the navigation's response (a "not bound in the connection" error between tests).
 */
export async function showScreen(page: Page, fragment: string) {
  await page.evaluate((h) => {
    location.hash = h;
  }, fragment);
}

type Rig = Awaited<ReturnType<typeof browserRig>>;

/** Chromium's note that COOP needs HTTPS: the test server is plain HTTP, so every page earns it. */
const COOP_NOTE = "Cross-Origin-Opener-Policy header has been ignored";

/**
 * `name` names the screenshots' folder; `prepare` runs once the rig is up (the file's own
 * fixtures); `change` as browserRig's (other settings); `opts.args`, Chromium's own.
 */
export function dashboardHarness(
  executable: string | undefined,
  name: string,
  prepare?: (rig: Rig) => Promise<void>,
  change?: Parameters<typeof browserRig>[1],
  opts: { args?: string[] } = {},
) {
  let rig: Rig;
  let origin = "";
  const shots = mkdtempSync(join(tmpdir(), `shelf-${name}-`));
  /** Requests the current page made to any other origin. */
  const offOrigin: string[] = [];
  /** Every URL the current page requested. */
  const requested: string[] = [];
  /** The page of the test before, left if that test failed before it could. */
  let last: Page | undefined;

  beforeAll(async () => {
    rig = await browserRig(executable!, change, opts);
    origin = new URL(rig.o.deps.config.CENTER_URL).origin;
    await prepare?.(rig);
  }, SLOW);

  afterAll(async () => {
    await rig?.close();
    console.log(`${name} screenshots: ${shots}`);
  }, SLOW);

  /** Each open page's requests that have neither finished nor failed yet. */
  const inFlight = new WeakMap<Page, Set<unknown>>();
  /** Pages open when the driver dropped an event: whether their requests ended can no longer be told. */
  const untrusted = new WeakSet<Page>();
  /**
   * Resolves once none of the page's requests is in flight (every one has finished or failed),
   * or once the driver dropped an event (chromium.ts): the request it was about would otherwise
   * be waited for forever.
   */
  function settled(page: Page): Promise<void> {
    const open = inFlight.get(page);
    if (!open?.size || untrusted.has(page)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        page.off("requestfinished", check);
        page.off("requestfailed", check);
        stopListening();
        resolve();
      };
      const check = () => {
        if (!open.size) done();
      };
      const stopListening = whenEventDropped(done);
      page.on("requestfinished", check);
      page.on("requestfailed", check);
    });
  }

  /**
   * Leaves a page before its context closes, once every request it made has ended: a
   * response that reaches the driver after its context went (a player still fetching
   * segments, the browser's own favicon request) names a request the driver already
   * dropped, and playwright-core's connection then fails every later call of the file.
   * Going to about:blank stops what the page was doing; its requests then end, as
   * finished or failed, and only then does the context close.
   */
  async function leave(page: Page) {
    await page.goto("about:blank").catch(() => {});
    await settled(page);
    await page.context().close();
  }

  /** A fresh browser profile at `viewport`, with JavaScript; each test judges only its own page's complaints. */
  async function open(viewport = PHONE) {
    if (last && !last.isClosed()) await leave(last);
    rig.complaints.length = 0;
    offOrigin.length = 0;
    requested.length = 0;
    const page = await rig.open(viewport, { javaScript: true });
    last = page;
    const open = new Set<unknown>();
    inFlight.set(page, open);
    // A dropped event may have been the end of one of this page's requests (or have come before
    // the request's own start, which is then added and never removed): after a drop the page's
    // requests are no longer waited for. A drop before settled() was called left it waiting
    // forever on CI's busy run.
    page.once(
      "close",
      whenEventDropped(() => untrusted.add(page)),
    );
    page.on("request", (r) => open.add(r));
    page.on("requestfinished", (r) => open.delete(r));
    page.on("requestfailed", (r) => open.delete(r));
    page.on("request", (r) => {
      const u = new URL(r.url());
      requested.push(r.url());
      if (u.protocol !== "blob:" && u.protocol !== "data:" && u.origin !== origin) offOrigin.push(r.url());
    });
    return page;
  }

  /** A full-page screenshot, named. */
  async function shoot(page: Page, label: string) {
    const path = join(shots, `${label}.png`);
    await page.screenshot({ path, fullPage: true });
    console.log(`screenshot: ${path}`);
  }

  /** The page at phone and at desktop width, back at its own after: a screenshot of each, and no horizontal scroll at either. */
  async function shootBoth(page: Page, label: string) {
    const own = page.viewportSize()!;
    for (const [size, viewport] of [
      ["phone", PHONE],
      ["desktop", DESKTOP],
    ] as const) {
      await page.setViewportSize(viewport);
      expect(await rig.noHorizontalScroll(page)).toBe(true);
      await shoot(page, `${label}-${size}`);
    }
    await page.setViewportSize(own);
  }

  /** No console error but `expected` (a refusal the test provoked, which Chromium logs as a failed load); nothing off the origin; the page left. */
  async function clean(page: Page, expected: RegExp[] = []) {
    const errors = rig.complaints.splice(0).filter((m) => !m.includes(COOP_NOTE));
    expect(errors.filter((m) => !expected.some((e) => e.test(m)))).toEqual([]);
    expect(offOrigin).toEqual([]);
    await leave(page);
  }

  /** Signs in from the dashboard's root, as a person does, and waits for the library. */
  async function signIn(page: Page, email: string, password = PASSWORD) {
    await page.goto(`${origin}/`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Library" }).waitFor();
  }

  /**
   * Reaches `control` of the header (a link or a button, by its name) as a person does: on a
   * narrow screen through "Menu"; the account's own screens and Sign out through the menu
   * under the account's name on a wide one.
   */
  async function headerControl(page: Page, role: "link" | "button", name: string) {
    const banner = page.getByRole("banner");
    const control = banner.getByRole(role, { name, exact: true });
    if (await control.isVisible()) return control;
    const menu = banner.getByRole("button", { name: "Menu", exact: true });
    if (await menu.isVisible()) await menu.click();
    if (!(await control.isVisible())) await banner.getByRole("button", { name: /^Account menu/ }).click();
    return control;
  }

  /** Opens a screen from the header's link `name` and waits for its heading (`heading`, the link's words unless told). */
  async function go(page: Page, name: string, heading = name) {
    await (await headerControl(page, "link", name)).click();
    await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
  }

  /**
   * Another screen of the open dashboard by its fragment (showScreen), once none of the
   * page's requests is in flight: a request the screen change cancels after its answer
   * began can reach the driver as an event naming a response it no longer holds.
   */
  async function show(page: Page, fragment: string) {
    await settled(page);
    await showScreen(page, fragment);
  }

  /** Signs out from the header, as a person does, and waits for the sign-in screen. */
  async function signOut(page: Page) {
    await (await headerControl(page, "button", "Sign out")).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
  }

  return {
    get rig() {
      return rig;
    },
    get origin() {
      return origin;
    },
    offOrigin,
    requested,
    open,
    shoot,
    shootBoth,
    clean,
    signIn,
    signOut,
    go,
    show,
    settled,
    headerControl,
    leave,
    /** Console errors of the current page so far, but the plain-HTTP note. */
    complaints: () => rig.complaints.filter((m) => !m.includes(COOP_NOTE)),
  };
}
