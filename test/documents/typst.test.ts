// Typst documents beyond bytes: the title from the first level-1 heading, the compile
// check reported as warnings (the text stored byte for byte whatever it says), and
// GET /v1/docs/:id/render as PDF or SVG: cached by sourceHash, with no file or network
// access for the document, stopped at the time bound.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createTypstCompiler } from "../../src/infra/typst/index.ts";
import { newId } from "../../src/infra/ids.ts";
import { createApp } from "../../src/wiring/app.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { postDoc, uploadedDoc } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** A fresh id of letters and digits only: `_` in Typst markup starts emphasis, so an odd number of them is a syntax error. */
const plainId = () => newId().replace(/[^A-Za-z0-9]/g, "x");

const render = (id: string, format: string, token?: string, app?: ReturnType<typeof createApp>) =>
  call("GET", `/v1/docs/${id}/render?format=${format}`, { token, app });
const errorOf = async (res: Response) => JSON.parse(await res.text());

/** Nested loops of ten thousand each: no array is large, the compile runs for tens of seconds. */
const LOOPING = "#let s = 0\n#for i in range(10000) { for j in range(10000) { s = s + j } }\n#s\n";

describe("Typst title", () => {
  test("the first level-1 heading is the title, past comments, raw blocks and code; an explicit title wins; none: the filename", async () => {
    const { key } = await makeClient();
    const text = [
      "#set page(width: 12cm)",
      "// = Not in a comment",
      "/* = Nor in",
      "= a block comment */",
      "```",
      "= Nor in raw",
      "```",
      "#let f() = {",
      "  [= Nor in code]",
      "}",
      "== A level-2 heading",
      "= The *Real* Title <intro>",
      "= A later one",
      "",
    ].join("\n");
    expect((await postDoc(key, { filename: "paper.typ", content: text })).body.data.title).toBe("The Real Title");
    expect((await postDoc(key, { filename: "b.typ", content: `${text}\n`, title: "Explicit" })).body.data.title).toBe("Explicit");
    expect((await postDoc(key, { filename: "plain notes.typ", content: "No heading here.\n== Only level 2\n" })).body.data.title).toBe("plain notes");
  }, 30_000);
});

describe("Typst compile check on upload", () => {
  test("broken source is stored byte for byte (201) and its errors come back as warnings with line and column", async () => {
    const { key } = await makeClient();
    const content = "= Broken\r\n\r\nSome text #unknown-thing and\n#let x = (1, 2\n";
    const res = await postDoc(key, { filename: "broken.typ", content });
    expect(res.status).toBe(201);
    const { warnings } = res.body.data;
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) {
      expect(w).toMatchObject({ reason: "TYPST_DIAGNOSTIC", severity: "error" });
      expect(typeof w.message).toBe("string");
    }
    expect(warnings.some((w: { line?: number; column?: number }) => typeof w.line === "number" && w.line >= 3 && typeof w.column === "number")).toBe(true);
    const raw = await call("GET", `/v1/docs/${res.body.data.id}/raw`, { token: key });
    expect(await raw.text()).toBe(content);
    // And what the document says of itself: still a Typst document, with its heading's title.
    expect(res.body.data).toMatchObject({ format: "typst", title: "Broken", sizeBytes: Buffer.byteLength(content) });
  }, 30_000);

  test("source that compiles has no warnings; a Markdown upload is never compiled", async () => {
    const { key } = await makeClient();
    const { deps } = await testContext();
    expect((await postDoc(key, { filename: "fine.typ", content: `= Fine ${plainId()}\n\nText.\n` })).body.data.warnings).toEqual([]);
    const before = deps.typst.runs;
    expect((await postDoc(key, { filename: "a.md", content: `# Note ${plainId()}\n` })).body.data.warnings).toEqual([]);
    expect(deps.typst.runs).toBe(before);
  }, 30_000);

  test("a v2 sync upsert of a .typ reports the check on its result; the text is applied", async () => {
    const { user, key } = await makeClient();
    const { makeKb } = await import("./fixtures.ts");
    const kbId = await makeKb(user);
    const content = "= Synced\n#let y = \n";
    const sourceHash = new Bun.CryptoHasher("sha256").update(content).digest("hex");
    const res = await callJson("POST", `/v1/kbs/${kbId}/sync`, {
      token: key,
      headers: { "service-sync-version": "2" },
      json: { ops: [{ op: "upsert", relativePath: "notes/synced.typ", content, sourceHash }] },
    });
    expect(res.status).toBe(200);
    const [r] = res.body.data.results;
    expect(r.status).toBe("applied");
    expect(r.warnings.length).toBeGreaterThan(0);
    expect(r.warnings[0]).toMatchObject({ reason: "TYPST_DIAGNOSTIC", severity: "error" });
    const doc = await callJson("GET", `/v1/docs/${r.docId}`, { token: key });
    expect(doc.body.data.title).toBe("Synced");
  }, 30_000);
});

describe("GET /v1/docs/:id/render", () => {
  test("PDF and SVG of a Typst document, with their content types; a second render of the same text is not compiled again", async () => {
    const { key } = await makeClient();
    const { deps } = await testContext();
    const doc = await uploadedDoc(key, { filename: "r.typ", content: `= Render ${plainId()}\n\nHello.\n` });
    const before = deps.typst.runs;
    const pdf = await render(doc.id, "pdf", key);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("etag")).toBe(`"${doc.sourceHash}.pdf"`);
    expect(pdf.headers.get("x-content-type-options")).toBe("nosniff");
    expect(pdf.headers.get("cache-control")).toBe("no-store");
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
    expect(deps.typst.runs).toBe(before + 1);

    const again = await render(doc.id, "pdf", key);
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(bytes);
    expect(deps.typst.runs).toBe(before + 1);

    const svg = await render(doc.id, "svg", key);
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(svg.headers.get("content-security-policy")).toContain("default-src 'none'");
    const text = await svg.text();
    expect(text.startsWith("<svg")).toBe(true);
    expect(text).not.toContain("<script");
    expect(deps.typst.runs).toBe(before + 2);

    // If-None-Match with the ETag: 304, nothing compiled.
    const cached = await call("GET", `/v1/docs/${doc.id}/render?format=svg`, { token: key, headers: { "if-none-match": `"${doc.sourceHash}.svg"` } });
    expect(cached.status).toBe(304);
    expect(deps.typst.runs).toBe(before + 2);
  }, 30_000);

  test("the default format is PDF; an unknown format is 422", async () => {
    const { key } = await makeClient();
    const doc = await uploadedDoc(key, { filename: "d.typ", content: `= D ${plainId()}\n` });
    const res = await call("GET", `/v1/docs/${doc.id}/render`, { token: key });
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const bad = await render(doc.id, "png", key);
    expect(bad.status).toBe(422);
    expect((await errorOf(bad)).code).toBe("VALIDATION_ERROR");
  }, 30_000);

  test("a Markdown document does not render: 415", async () => {
    const { key } = await makeClient();
    const doc = await uploadedDoc(key);
    const res = await render(doc.id, "pdf", key);
    expect(res.status).toBe(415);
    expect(await errorOf(res)).toMatchObject({ success: false, code: "UNSUPPORTED_MEDIA_TYPE" });
  }, 30_000);

  test("who may render: anyone a public document, the owner a private one (401 anonymous, 404 another user)", async () => {
    const owner = await makeClient();
    const other = await makeClient();
    const priv = await uploadedDoc(owner.key, { filename: "p.typ", content: `= Private ${plainId()}\n` });
    const pub = await uploadedDoc(owner.key, { filename: "q.typ", content: `= Public ${plainId()}\n`, isPublic: true });
    expect((await render(priv.id, "pdf")).status).toBe(401);
    expect((await render(priv.id, "pdf", other.key)).status).toBe(404);
    const anon = await render(pub.id, "pdf");
    expect(anon.status).toBe(200);
    expect(anon.headers.get("cache-control")).toBe("public, max-age=300");
  }, 30_000);

  test("source that does not compile is 422 with the diagnostics", async () => {
    const { key } = await makeClient();
    const doc = await uploadedDoc(key, { filename: "bad.typ", content: `= Bad ${plainId()}\n#nope(\n` });
    const res = await render(doc.id, "pdf", key);
    expect(res.status).toBe(422);
    const body = await errorOf(res);
    expect(body).toMatchObject({ success: false, code: "VALIDATION_ERROR", meta: { reason: "TYPST_COMPILE_FAILED" } });
    expect(body.meta.diagnostics[0]).toMatchObject({ severity: "error", line: 2 });
  }, 30_000);

  test("a document cannot read files or import packages: reading /etc/passwd or a package import fails to compile, and nothing of the file comes back", async () => {
    const { key } = await makeClient();
    const passwd = await Bun.file("/etc/passwd")
      .text()
      .catch(() => "root:x:0:0:");
    const sources = [
      `= Leak ${plainId()}\n#read("/etc/passwd")\n`,
      `= Leak ${plainId()}\n#include "/etc/passwd"\n`,
      `= Leak ${plainId()}\n#import "../../../../../../etc/passwd": *\n`,
      `= Leak ${plainId()}\n#raw(read("/proc/self/environ"))\n`,
      `= Pkg ${plainId()}\n#import "@preview/cetz:0.3.4": canvas\n`,
    ];
    for (const content of sources) {
      const upload = await postDoc(key, { filename: "leak.typ", content });
      expect(upload.status).toBe(201);
      expect(upload.body.data.warnings.some((w: { severity: string }) => w.severity === "error")).toBe(true);
      for (const format of ["pdf", "svg"]) {
        const res = await render(upload.body.data.id, format, key);
        expect(res.status).toBe(422);
        const text = await res.text();
        expect(text).not.toContain(passwd.split("\n")[0]!);
        expect(text).not.toContain("shelf-typst-");
      }
    }
  }, 30_000);

  test("a document that loops is stopped at the time bound: 422 TYPST_TIMEOUT, and its upload's check says it was stopped", async () => {
    const { deps, services } = await testContext();
    const typst = createTypstCompiler({ timeoutMs: 1000, memoryBytes: 512 * 1024 * 1024, concurrency: 1, maxWaitMs: 60_000, log: deps.log });
    const app = createApp({ ...services, deps: { ...deps, typst } });
    const { key } = await makeClient();
    const upload = await callJson("POST", "/v1/docs", { token: key, json: { filename: "loop.typ", content: LOOPING }, app });
    expect(upload.status).toBe(201);
    expect(upload.body.data.warnings).toEqual([expect.objectContaining({ reason: "TYPST_CHECK_STOPPED", severity: "warning" })]);
    const started = performance.now();
    const res = await render(upload.body.data.id, "pdf", key, app);
    const took = performance.now() - started;
    expect(res.status).toBe(422);
    expect(await errorOf(res)).toMatchObject({ code: "VALIDATION_ERROR", meta: { reason: "TYPST_TIMEOUT", limitMs: 1000 } });
    // Killed at the bound, not run to its end (tens of seconds); slack for a busy machine.
    expect(took).toBeGreaterThanOrEqual(1000);
    expect(took).toBeLessThan(10_000);
  }, 30_000);
});

describe("the compiler process", () => {
  test("a render past the output bound is stopped: 422 TYPST_OUTPUT_TOO_LARGE, nothing cached", async () => {
    const { deps, services } = await testContext();
    const typst = createTypstCompiler({
      timeoutMs: 60_000,
      memoryBytes: 512 * 1024 * 1024,
      outputBytes: 20_000,
      concurrency: 1,
      maxWaitMs: 60_000,
      log: deps.log,
    });
    const app = createApp({ ...services, deps: { ...deps, typst } });
    const { key } = await makeClient();
    // Forty pages of text: far more than 20 KB of PDF.
    const source = `= Long ${newId().replace(/[^A-Za-z0-9]/g, "x")}\n#for i in range(40) [#lorem(400) #pagebreak()]\n`;
    const upload = await callJson("POST", "/v1/docs", { token: key, json: { filename: "long.typ", content: source }, app });
    expect(upload.status).toBe(201);
    const res = await render(upload.body.data.id, "pdf", key, app);
    expect(res.status).toBe(422);
    expect(await errorOf(res)).toMatchObject({ code: "VALIDATION_ERROR", meta: { reason: "TYPST_OUTPUT_TOO_LARGE", limitBytes: 20_000 } });
    // The shared app's compiler (the default bound) renders it: the refusal was not cached.
    expect((await render(upload.body.data.id, "pdf", key)).status).toBe(200);
  }, 60_000);

  test("a compile that grows past the memory bound is killed", async () => {
    const { deps } = await testContext();
    const typst = createTypstCompiler({ timeoutMs: 60_000, memoryBytes: 200 * 1024 * 1024, concurrency: 1, maxWaitMs: 60_000, log: deps.log });
    const out = await typst.compile("check", "#let a = range(100000000)\n#a.len()\n");
    expect(out).toEqual({ status: "memory", limit: 200 * 1024 * 1024 });
  }, 60_000);
});
