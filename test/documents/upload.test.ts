// POST /v1/docs: format by extension, what Markdown says about itself (title, tags,
// excerpt, words), Typst kept byte for byte, idempotency, inline or object storage, limits.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ledger } from "../../src/modules/usage/ledger.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { makeKb, postDoc, uploadedDoc, usageOf } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const rawOf = async (token: string, id: string) => {
  const res = await call("GET", `/v1/docs/${id}/raw`, { token });
  return { res, text: await res.text() };
};

describe("POST /v1/docs: format and title", () => {
  test("title priority: explicit parameter, then frontmatter title, then first H1, then the filename without extension", async () => {
    const { key } = await makeClient();
    const content = "---\ntitle: From Frontmatter\n---\n\nIntro\n\n# From Heading\n\nText\n";
    expect((await postDoc(key, { filename: "a.md", content, title: "Explicit" })).body.data.title).toBe("Explicit");
    expect((await postDoc(key, { filename: "b.md", content: `${content}\n` })).body.data.title).toBe("From Frontmatter");
    expect((await postDoc(key, { filename: "c.md", content: "Intro\n\n# From *Heading*\n\n## Second\n" })).body.data.title).toBe("From Heading");
    expect((await postDoc(key, { filename: "my notes.markdown", content: "## Not an H1\n\nplain\n" })).body.data.title).toBe("my notes");
    // A title taken from the text follows the rule of names: no control or bidi characters.
    expect((await postDoc(key, { filename: "d.md", content: "# Evil\u202e gnp.exe\u0007\n" })).body.data.title).toBe("Evil gnp.exe");
  });

  test("the extension decides the format (.md, .markdown, .typ, any case); anything else is 422 INVALID_FILE_TYPE and nothing is stored", async () => {
    const { user, key } = await makeClient();
    expect((await postDoc(key, { filename: "A.MD", content: "x" })).body.data.format).toBe("markdown");
    expect((await postDoc(key, { filename: "b.markdown", content: "y" })).body.data.format).toBe("markdown");
    expect((await postDoc(key, { filename: "c.typ", content: "z" })).body.data.format).toBe("typst");
    for (const filename of ["d.txt", "e", "f.md.exe", ".md"]) {
      const res = await postDoc(key, { filename, content: "w" });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("INVALID_FILE_TYPE");
    }
    expect((await usageOf((await makeKey(user, ["usage.read"])).key)).doc.count.used).toBe(3);
  });

  test("Typst is stored and returned byte for byte, as text/plain, with no Markdown processing", async () => {
    const { key } = await makeClient();
    const content = '#set page(width: 10cm)\r\n= Heading\n![not an image](data:image/png;base64,AAAA)\n\t#let x = "ü\u00a0😀"\n---\ntitle: no\n';
    const res = await postDoc(key, { filename: "paper.typ", content, rewriteImages: true });
    expect(res.status).toBe(201);
    // The title is its level-1 heading (test/documents/typst.test.ts); it compiles, so no warnings.
    expect(res.body.data).toMatchObject({ title: "Heading", format: "typst", imageCount: 0, rewrittenCount: 0, failedCount: 0, warnings: [] });
    const { res: raw, text } = await rawOf(key, res.body.data.id);
    expect(raw.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(raw.headers.get("x-content-type-options")).toBe("nosniff");
    expect(text).toBe(content);
  });

  test("frontmatter tags apply when no tags are given; given tags win; excerpt and word count (Latin words, CJK characters)", async () => {
    const { key } = await makeClient();
    const content = "---\ntags: [alpha, beta]\n---\n# Title here\n\nHello brave new world, 你好世界 and `code`.\n\n![pic](https://example.org/a.png)\n";
    const a = await postDoc(key, { filename: "a.md", content });
    const item = (await callJson("GET", `/v1/docs/${a.body.data.id}`, { token: key })).body.data;
    expect(item.tags).toEqual(["alpha", "beta"]);
    expect(item.excerpt).toBe("Hello brave new world, 你好世界 and code.");
    // Title here (2) + Hello brave new world (4) + 你好世界 (4) + and (1) + code (1)
    expect(item.wordCount).toBe(12);
    expect(item.coverUrl).toBe("https://example.org/a.png");
    expect(item.sizeBytes).toBe(Buffer.byteLength(content));
    const b = await postDoc(key, { filename: "b.md", content: `${content}more\n`, tags: ["given"] });
    expect((await callJson("GET", `/v1/docs/${b.body.data.id}`, { token: key })).body.data.tags).toEqual(["given"]);
  });

  test("body rules: missing or bad fields are 422 VALIDATION_ERROR at their path", async () => {
    const { key } = await makeClient();
    for (const [json, path] of [
      [{ content: "x" }, "body.filename"],
      [{ filename: "a.md" }, "body.content"],
      [{ filename: "a/b.md", content: "x" }, "body.filename"],
      [{ filename: "a.md", content: "x", tags: ["a".repeat(33)] }, "body.tags.0"],
      [{ filename: "a.md", content: "x", tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, "body.tags"],
      [{ filename: "a.md", content: "x", title: "" }, "body.title"],
      [{ filename: "a.md", content: "a\u0000b" }, "body.content"],
      [{ filename: "big.md", content: `${"x".repeat(300 * 1024)}\u0000` }, "body.content"],
    ] as const) {
      const res = await postDoc(key, json);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.meta.path).toBe(path);
    }
  });
});

describe("POST /v1/docs: idempotency and storage", () => {
  test("the same content again is 200 duplicate:true with the existing id, and the document count does not move", async () => {
    const { user, key } = await makeClient();
    const { key: usageKey } = await makeKey(user, ["usage.read"]);
    const first = await postDoc(key, { filename: "a.md", content: "# Same\n\nbody\n" });
    expect(first.status).toBe(201);
    expect(first.body.data.duplicate).toBe(false);
    const again = await postDoc(key, { filename: "other-name.md", content: "# Same\n\nbody\n", title: "Other" });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: first.body.data.id, duplicate: true, title: "Same" });
    const usage = await usageOf(usageKey);
    expect(usage.doc.count.used).toBe(1);
    expect(usage.image.storage.used).toBe(first.body.data.sizeBytes);
    // Another user's identical content is that user's own document.
    const other = await makeClient();
    expect((await postDoc(other.key, { filename: "a.md", content: "# Same\n\nbody\n" })).status).toBe(201);
  });

  test("two identical uploads at once make one document", async () => {
    const { user, key } = await makeClient();
    const results = await Promise.all([1, 2, 3].map(() => postDoc(key, { filename: "a.md", content: "racing\n" })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect((await usageOf((await makeKey(user, ["usage.read"])).key)).doc.count.used).toBe(1);
  });

  test("300 KB is stored outside the database and read back identically; 256 KB stays inline", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const big = `# Big\n\n${"lorem ipsum dolor sit amet ü 你 ".repeat(9000)}`.slice(0, 300 * 1024);
    const res = await postDoc(key, { filename: "big.md", content: big });
    expect(res.status).toBe(201);
    expect(res.body.data.hasInlineContent).toBe(false);
    expect(res.body.data.sizeBytes).toBe(Buffer.byteLength(big));
    const keys: string[] = [];
    for await (const o of deps.storage.list(`docs/${user.id}/`)) keys.push(o.key);
    expect(keys.length).toBe(1);
    expect((await rawOf(key, res.body.data.id)).text).toBe(big);
    const batch = await callJson("POST", "/v1/docs/raw:batch", { token: key, json: { ids: [res.body.data.id] } });
    expect(batch.body.data.docs[0].content).toBe(big);

    const edge = "a".repeat(256 * 1024);
    const inline = await postDoc(key, { filename: "edge.md", content: edge });
    expect(inline.body.data.hasInlineContent).toBe(true);
  }, 60_000);
});

describe("POST /v1/docs: limits (nothing is stored when refused)", () => {
  test("over doc_max_file_bytes is 422 DOC_FILE_TOO_LARGE with meta.limit", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const limit = deps.plans.trial.docMaxFileBytes;
    const res = await postDoc(key, { filename: "a.md", content: "x".repeat(limit + 1) });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("DOC_FILE_TOO_LARGE");
    expect(res.body.meta.limit).toBe(limit);
    expect((await postDoc(key, { filename: "a.md", content: "x".repeat(limit) })).status).toBe(201);
    expect((await usageOf((await makeKey(user, ["usage.read"])).key)).doc.count.used).toBe(1);
  }, 60_000);

  test("more image references than doc_max_images_per_doc is 422 DOC_IMAGE_LIMIT_EXCEEDED", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const limit = deps.plans.trial.docMaxImagesPerDoc;
    const content = Array.from({ length: limit + 1 }, (_, i) => `![i${i}](https://example.org/${i}.png)`).join("\n\n");
    const res = await postDoc(key, { filename: "a.md", content });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("DOC_IMAGE_LIMIT_EXCEEDED");
    expect(res.body.meta.limit).toBe(limit);
    expect((await usageOf((await makeKey(user, ["usage.read"])).key)).doc.count.used).toBe(0);
  });

  test("trial doc_count: the 101st document is 403 QUOTA_EXCEEDED type doc_count; pro has no cap; purging a deleted one frees its place", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const doc = await uploadedDoc(key);
    await ledger.add(deps.db, [{ userId: user.id, dimension: "doc_count", period: "total", amount: 99 }]);
    const res = await postDoc(key, { filename: "x.md", content: "one too many" });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "QUOTA_EXCEEDED", meta: { type: "doc_count", used: 100, limit: 100 } });
    expect((await call("DELETE", `/v1/docs/${doc.id}`, { token: key })).status).toBe(204);
    // In the trash it still counts: purged, it frees its place.
    expect((await postDoc(key, { filename: "x.md", content: "one too many" })).status).toBe(403);
    expect((await call("DELETE", `/v1/trash/${doc.id}`, { token: user.jwt })).status).toBe(204);
    expect((await postDoc(key, { filename: "x.md", content: "one too many" })).status).toBe(201);

    const pro = await makeClient({ plan: "pro" });
    await ledger.add(deps.db, [{ userId: pro.user.id, dimension: "doc_count", period: "total", amount: 5000 }]);
    expect((await postDoc(pro.key, { filename: "x.md", content: "no cap" })).status).toBe(201);
  });

  test("at the doc_count limit a new content for a KB path still replaces it (it is no new document)", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const kbId = await makeKb(user);
    expect((await postDoc(key, { filename: "a.md", content: "v1", kbId, relativePath: "a.md" })).status).toBe(201);
    await ledger.add(deps.db, [{ userId: user.id, dimension: "doc_count", period: "total", amount: 99 }]);
    expect((await postDoc(key, { filename: "b.md", content: "new", kbId, relativePath: "b.md" })).body.meta).toMatchObject({ type: "doc_count" });
    const res = await postDoc(key, { filename: "a.md", content: "v2", kbId, relativePath: "a.md" });
    expect(res.status).toBe(200);
    expect(res.body.data.duplicate).toBe(false);
  });

  test("documents count in img_storage: over it is 403 QUOTA_EXCEEDED type img_storage", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const limit = deps.plans.trial.imageStorageBytes;
    await ledger.add(deps.db, [{ userId: user.id, dimension: "img_storage", period: "total", amount: limit - 5 }]);
    const res = await postDoc(key, { filename: "a.md", content: "more than five bytes" });
    expect(res.status).toBe(403);
    expect(res.body.meta).toMatchObject({ type: "img_storage", limit });
    expect((await postDoc(key, { filename: "a.md", content: "tiny" })).status).toBe(201);
  });
});

describe("POST /v1/docs: tenancy", () => {
  test("401 without credentials, 403 without kb.write", async () => {
    await expectTenantIsolation({ method: "POST", path: () => "/v1/docs", scope: "kb.write", request: () => ({ json: { filename: "a.md", content: "x" } }) });
  });

  test("an unknown or another user's kbId is 404", async () => {
    const { key } = await makeClient();
    const other = await makeUser();
    const kbId = await makeKb(other);
    const res = await postDoc(key, { filename: "a.md", content: "x", kbId, relativePath: "a.md" });
    expect(res.status).toBe(404);
    expect(res.body.meta.entity).toBe("kb");
  });
});
