// tus-js-client in a page on another origin (a second port) uploads an image to the API:
// the browser's preflights of the POST and of the PATCHes pass, the page reads the tus
// headers (Location, Upload-Offset) and the X-Resource-Id of the last PATCH, and the image
// exists. What a dashboard on its own origin will do.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { type Browser, chromium } from "playwright-core";
import { callJson, testContext } from "../helpers/context.ts";
import { png } from "../images/fixtures.ts";
import { uploader } from "../uploads/helpers.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

/** tus-js-client's browser build as published (a pinned devDependency), served by the page's own server. */
const TUS_JS = Bun.file(Bun.fileURLToPath(import.meta.resolve("tus-js-client/dist/tus.min.js")));

/** Uploads the bytes it is handed in small chunks; every outcome lands in `window.done`. */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>uploader</title><script src="/tus.js"></script></head>
<body><script>
  window.upload = (endpoint, key, bytes) => new Promise((resolve) => {
    const file = new Blob([new Uint8Array(bytes)], { type: "image/png" });
    let resourceId = null;
    const up = new tus.Upload(file, {
      endpoint,
      headers: { Authorization: "Bearer " + key },
      metadata: { kind: "image", filename: "page.png" },
      chunkSize: 200,
      retryDelays: [],
      onAfterResponse: (req, res) => { resourceId = res.getHeader("X-Resource-Id") || resourceId; },
      onError: (e) => resolve({ error: String(e) }),
      onSuccess: () => resolve({ url: up.url, resourceId }),
    });
    up.start();
  });
</script></body></html>`;

describe.skipIf(!executable)("tus-js-client on another origin", () => {
  let browser: Browser;
  let page: ReturnType<typeof Bun.serve>;
  let api: ReturnType<typeof Bun.serve>;

  beforeAll(async () => {
    const { app } = await testContext();
    api = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch });
    page = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      routes: {
        "/": new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
        "/tus.js": new Response(await TUS_JS.arrayBuffer(), { headers: { "content-type": "text/javascript" } }),
      },
    });
    browser = await chromium.launch({ executablePath: executable!, args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"] });
  }, SLOW);

  afterAll(async () => {
    await browser?.close();
    page?.stop(true);
    api?.stop(true);
  }, SLOW);

  test(
    "uploads an image in several PATCHes through the preflights, and reads what it made",
    async () => {
      const { key } = await uploader("pro");
      const bytes = await png(30, 20);
      const context = await browser.newContext();
      context.setDefaultTimeout(SLOW / 2);
      try {
        const tab = await context.newPage();
        await tab.goto(page.url.href);
        const origin = api.url.origin;
        expect(origin).not.toBe(page.url.origin);
        const result = (await tab.evaluate(([endpoint, k, b]) => (window as any).upload(endpoint, k, b), [
          `${origin}/v1/uploads`,
          key,
          Array.from(bytes),
        ] as const)) as {
          url?: string;
          resourceId?: string;
          error?: string;
        };
        expect(result.error).toBeUndefined();
        expect(result.url).toStartWith(`${origin}/v1/uploads/`);
        const image = await callJson("GET", `/v1/images/${result.resourceId}`, { token: key });
        expect(image.body.data).toMatchObject({ id: result.resourceId, filename: "page.png", width: 30, height: 20 });
      } finally {
        await context.close();
      }
    },
    SLOW,
  );
});
