// The API reference page over HTTP: everything it loads is on this server (Swagger UI's
// script and stylesheet, embedded), named by its Content-Security-Policy, and nothing else
// is allowed; the files are cacheable for good. The browser's view: test/browser/api-reference.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import uiPackage from "swagger-ui-dist/package.json" with { type: "json" };
import { apiReference } from "../../src/http/api-reference.ts";
import { call, callJson } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
const directives = (csp: string) => new Map(csp.split(/;\s*/).map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)] as const));

/** The page's parts: what it loads and what it runs or styles inline. */
function parts(html: string) {
  return {
    scripts: [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1]!),
    styles: [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]!),
    inlineScripts: [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!),
    inlineStyles: [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!),
  };
}

describe("the API reference", () => {
  test("/swagger is a page whose policy allows this origin and its own two inline blocks, nothing else", async () => {
    const res = await call("GET", "/swagger");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const csp = directives(res.headers.get("content-security-policy")!);
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    // The document and "Try it out" go to this origin and the API's public one, PUBLIC_URL.
    expect(csp.get("connect-src")).toEqual(["'self'", "http://shelf.test"]);

    const html = await res.text();
    const page = parts(html);
    expect(page.inlineScripts).toHaveLength(1);
    expect(page.inlineStyles).toHaveLength(1);
    // Each inline block runs by its hash; every other source is this origin.
    expect(csp.get("script-src")).toEqual(["'self'", sha256(page.inlineScripts[0]!)]);
    expect(csp.get("style-src")).toEqual(["'self'", sha256(page.inlineStyles[0]!)]);
    expect(page.inlineScripts[0]).toContain('"url":"/swagger/json"');
    // No public validator badge: Swagger UI's default sends the document to one.
    expect(page.inlineScripts[0]).toContain('"validatorUrl":null');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toContain("unpkg");
    expect(page.scripts).toEqual([`/swagger/assets/${uiPackage.version}/swagger-ui-bundle.js`]);
    expect(page.styles).toEqual([`/swagger/assets/${uiPackage.version}/swagger-ui.css`]);
  });

  test("its script and stylesheet answer with their types, cacheable for a year under the UI's version", async () => {
    const page = parts(await (await call("GET", "/swagger")).text());
    for (const [path, type, marker] of [
      [page.scripts[0]!, "text/javascript; charset=utf-8", "SwaggerUIBundle"],
      [page.styles[0]!, "text/css; charset=utf-8", ".swagger-ui"],
    ] as const) {
      const res = await call("GET", path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const body = await res.text();
      expect(body).toContain(marker);
      expect(body).toBe(await Bun.file(Bun.resolveSync(`swagger-ui-dist/${path.split("/").pop()}`, import.meta.dir)).text());
    }
  });

  test("another version's file, or a file the page does not load, is the 404 envelope", async () => {
    for (const path of ["/swagger/assets/0.0.1/swagger-ui-bundle.js", `/swagger/assets/${uiPackage.version}/swagger-ui.js`]) {
      const res = await callJson("GET", path);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: "NOT_FOUND" });
    }
  });

  test("behind a proxy serving the API under a path (PUBLIC_URL with a path), the page names its files and document there", async () => {
    const reference = apiReference("https://example.test/shelf/", "/swagger/json");
    const res = await reference.handle(new Request("http://internal:8080/swagger"));
    const page = parts(await res.text());
    expect(page.scripts).toEqual([`/shelf/swagger/assets/${uiPackage.version}/swagger-ui-bundle.js`]);
    expect(page.inlineScripts[0]).toContain('"url":"/shelf/swagger/json"');
    expect(res.headers.get("content-security-policy")).toContain("connect-src 'self' https://example.test;");
    // The proxy strips the prefix: the file is served at the path without it.
    const asset = await reference.handle(new Request(`http://internal:8080/swagger/assets/${uiPackage.version}/swagger-ui-bundle.js`));
    expect(asset.status).toBe(200);
  });

  test("/swagger/json is still the document, without the pages' own paths", async () => {
    const res = await callJson("GET", "/swagger/json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths).filter((p) => p.startsWith("/swagger"))).toEqual([]);
  });
});
