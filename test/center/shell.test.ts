// The dashboard's page over HTTP: at CENTER_URL's path (the root by default), under a policy
// that allows no inline script and nothing from elsewhere, its files (the entry script, the
// chunks it imports, the stylesheet) embedded and cacheable for good; API paths keep their JSON answers. The browser's view:
// test/browser/center.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { centerAssets } from "../../src/modules/center/assets.ts";
import { centerModule } from "../../src/modules/center/index.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const directives = (csp: string) => new Map(csp.split(/;\s*/).map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)] as const));

/** The script and stylesheet the page names. */
const assetsOf = (html: string) => ({
  script: /<script type="module" src="([^"]+)"><\/script>/.exec(html)?.[1],
  style: /<link rel="stylesheet" href="([^"]+)">/.exec(html)?.[1],
});

describe("the dashboard's page", () => {
  test("the root is the dashboard: HTML under a strict policy, no inline script, the API's address as data", async () => {
    const res = await call("GET", "/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const csp = directives(res.headers.get("content-security-policy")!);
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.get("script-src")).toEqual(["'self'"]);
    expect(csp.get("style-src")).toEqual(["'self'"]);
    expect(csp.get("connect-src")).toEqual(["'self'", "http://shelf.test", "http://shelf.test"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    const html = await res.text();
    expect(html).not.toMatch(/<script>|<style>|\son\w+=/);
    expect(html).toContain('data-api="http://shelf.test"');
    // Nothing is loaded from an address (a link to the API reference is not a load).
    expect(html).not.toMatch(/src="https?:|<link[^>]+href="https?:/);
  });

  test("its script and stylesheet are embedded, typed, and cacheable for a year (the path holds their hash)", async () => {
    const { script, style } = assetsOf(await (await call("GET", "/")).text());
    expect(script).toMatch(/^\/_center\/center\.[0-9a-f]{12}\.js$/);
    expect(style).toMatch(/^\/_center\/center\.[0-9a-f]{12}\.css$/);
    for (const [path, type] of [
      [script!, "text/javascript; charset=utf-8"],
      [style!, "text/css; charset=utf-8"],
    ] as const) {
      const res = await call("GET", path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect((await res.text()).length).toBeGreaterThan(100);
    }
  });

  test("the client is split: the page loads only the entry script (under 150 KB compressed); hls.js is a chunk it imports on demand, served the same way", async () => {
    const html = await (await call("GET", "/")).text();
    const { script } = assetsOf(html);
    // The shell names the entry and the stylesheet only: chunks are fetched when a screen imports them.
    expect(html.match(/\/_center\//g)).toHaveLength(2);
    const entry = await (await call("GET", script!)).text();
    expect(Bun.gzipSync(entry).byteLength).toBeLessThan(150 * 1024);
    // Imported by names relative to the entry's URL: `import("./chunk.<hash>.js")` (on demand) or `from"./chunk.<hash>.js"` (shared code).
    const chunks = [...new Set([...entry.matchAll(/"\.\/(chunk\.[\w-]+\.js)"/g)].map((m) => m[1]!))];
    expect(chunks.length).toBeGreaterThan(0);
    const bodies = await Promise.all(
      chunks.map(async (name) => {
        const res = await call("GET", `/_center/${name}`);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
        expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        return res.text();
      }),
    );
    // hls.js (the player's library) is in a chunk, not in the entry.
    expect(entry).not.toContain("hlsjs");
    expect(bodies.some((b) => b.includes("hlsjs") || b.includes("MANIFEST_PARSED"))).toBe(true);
  });

  test("API paths are untouched: an unknown one is still 404 NOT_FOUND in the envelope", async () => {
    const res = await callJson("GET", "/v1/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: "NOT_FOUND" });
    const asset = await callJson("GET", "/_center/center.000000000000.js");
    expect(asset.status).toBe(404);
  });

  test("under a CENTER_URL with a path, the page and its files move there and the root is not taken", async () => {
    const { deps } = await testContext();
    const center = centerModule({ config: { ...deps.config, CENTER_URL: "http://shelf.test/center" } });
    const chunk = centerAssets.chunks[0]!.name;
    const page = await center.handle(new Request("http://shelf.test/center"));
    expect(page.status).toBe(200);
    const { script, style } = assetsOf(await page.text());
    expect(script).toStartWith("/center/_center/");
    expect(style).toStartWith("/center/_center/");
    expect((await center.handle(new Request(`http://shelf.test${script}`))).status).toBe(200);
    expect((await center.handle(new Request(`http://shelf.test/center/_center/${chunk}`))).status).toBe(200);
    expect((await center.handle(new Request("http://shelf.test/"))).status).toBe(404);
  });
});
