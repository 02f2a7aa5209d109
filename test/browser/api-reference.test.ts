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
        .locator(".opblock-summary-path", { hasText: /^\/health$/ })
        .first()
        .waitFor();
      // Past 150 rows (tags and operations) Swagger UI renders only the rows in view (a
      // virtualized list): the operations are read by scrolling the page to its end.
      const seen = new Set<string>();
      const summaries = new Set<string>();
      for (let step = 0; step < 200; step++) {
        for (const block of await page.locator(".opblock-summary").all()) {
          const method = await block.locator(".opblock-summary-method").textContent();
          seen.add(`${method} ${await block.locator(".opblock-summary-path").textContent()}`);
          summaries.add((await block.locator(".opblock-summary-description").textContent()) ?? "");
        }
        const atEnd = await page.evaluate(() => {
          window.scrollBy(0, window.innerHeight / 2);
          return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
        });
        if (atEnd && step > 0) break;
        // The rows of the new position, rendered by the next frame.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      }
      expect(seen).toContain("POST /v1/images");
      expect(seen).toContain("POST /v1/auth/signup");
      expect(seen).toContain("GET /v1/trash");
      expect(seen.size).toBeGreaterThan(50);
      expect(summaries).toContain(upload);
      await page.evaluate(() => window.scrollTo(0, 0));

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
