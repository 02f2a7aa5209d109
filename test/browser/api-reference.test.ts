// The API reference in a real browser with no internet: every request to another origin
// is refused, and the page still lists the operations, since the UI and the document
// both come from this server. Waits on the page's own elements, never on time.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { browserRig, findChromium, SLOW } from "./chromium.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("the API reference in Chromium, offline", () => {
  let rig: Awaited<ReturnType<typeof browserRig>>;

  beforeAll(async () => {
    rig = await browserRig(executable!);
  }, SLOW);

  afterAll(() => rig?.close(), SLOW);

  test(
    "/swagger lists the operations and tries one, from this origin alone, with nothing refused by its policy",
    async () => {
      const origin = new URL(rig.o.deps.config.PUBLIC_URL).origin;
      const doc = (await (await rig.o.app.handle(new Request(`${origin}/swagger/json`))).json()) as {
        paths: Record<string, Record<string, { summary: string }>>;
      };
      const upload = doc.paths["/v1/images"]!.post!.summary;

      const page = await rig.open({ width: 1280, height: 900 }, { javaScript: true });
      const requested: string[] = [];
      const outside: string[] = [];
      page.on("request", (r) => requested.push(r.url()));
      // No network but this server: what goes elsewhere is refused, as offline, and noted.
      await page.context().route("**/*", (route) => {
        const url = new URL(route.request().url());
        if (url.origin === origin || url.protocol === "data:") return route.continue();
        outside.push(url.href);
        return route.abort("internetdisconnected");
      });
      const violations: string[] = [];
      await page.exposeFunction("reportViolation", (v: string) => violations.push(v));
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (e) => {
          (window as unknown as { reportViolation(v: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`);
        });
      });

      const res = await page.goto(`${origin}/swagger`);
      expect(res!.status()).toBe(200);
      await page
        .locator(".opblock-summary-path", { hasText: /^\/v1\/images$/ })
        .first()
        .waitFor();
      await page.locator(".opblock-summary-description", { hasText: upload }).first().waitFor();
      const paths = await page.locator(".opblock-summary-path").allTextContents();
      expect(paths).toContain("/v1/images");
      expect(paths).toContain("/v1/auth/signup");
      expect(await page.locator(".opblock").count()).toBeGreaterThan(50);

      // "Try it out" reaches the API at its public address (connect-src), and shows the answer.
      const health = page.locator(".opblock", { has: page.locator(".opblock-summary-path", { hasText: /^\/health$/ }) });
      await health.locator(".opblock-summary").click();
      await health.locator(".try-out__btn").click();
      await health.locator("button.execute").click();
      const status = health.locator(".live-responses-table tbody .response-col_status");
      await status.waitFor();
      expect((await status.textContent())?.trim()).toBe("200");
      expect(requested).toContain(`${origin}/health`);
      // Expanding an operation resolves its $refs (the shared error answers): none fails.
      expect(await page.locator(".errors-wrapper").count()).toBe(0);

      // The UI itself loaded from here: its script and stylesheet, and the document.
      expect(requested.some((u) => u.startsWith(`${origin}/swagger/assets/`) && u.endsWith(".js"))).toBe(true);
      expect(requested.some((u) => u.startsWith(`${origin}/swagger/assets/`) && u.endsWith(".css"))).toBe(true);
      expect(requested).toContain(`${origin}/swagger/json`);
      expect(outside).toEqual([]);
      expect(requested.filter((u) => /^(https?|wss?):/.test(u) && new URL(u).origin !== origin)).toEqual([]);
      expect(violations).toEqual([]);
      // No error on the console, but the browser's note that COOP needs HTTPS (the test serves http).
      expect(rig.complaints.filter((e) => !/Cross-Origin-Opener-Policy header has been ignored/.test(e))).toEqual([]);
      if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT });
      await page.context().close();
    },
    SLOW,
  );
});
