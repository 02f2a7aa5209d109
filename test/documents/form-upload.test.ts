// POST /v1/docs as multipart/form-data, as images are uploaded: the document as a `file`
// part (its name the filename unless a `filename` field is sent), the JSON body's other
// fields as form fields, judged by the same rules and limits as the JSON body.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import { DOCUMENT_BODY_MAX_BYTES } from "../../src/http/body-limit.ts";
import { createBudget } from "../../src/infra/budget.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser } from "../helpers/factories.ts";
import { doc } from "../helpers/openapi-doc.ts";
import { makeKb, postDoc, usageOf } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

type Part = [name: string, value: string | File];
const form = (...parts: Part[]) => {
  const f = new FormData();
  for (const [name, value] of parts) f.append(name, value);
  return f;
};
const file = (content: string | Uint8Array, name: string) => new File([content as BlobPart], name, { type: "application/octet-stream" });
const postForm = (token: string, body: FormData) => callJson("POST", "/v1/docs", { token, body });
const docCount = async (user: Parameters<typeof makeKey>[0]) => (await usageOf((await makeKey(user, ["usage.read"])).key)).doc.count.used;

describe("POST /v1/docs with a file part", () => {
  test("the file is the content, its name the filename; tags, isPublic and title come as form fields; the text is stored byte for byte", async () => {
    const { key } = await makeClient();
    const content = "---\ntags: [ignored]\n---\n# Meeting notes\n\nÜber 😀 text\r\n";
    const res = await postForm(key, form(["file", file(content, "drafts/notes.md")], ["tags", '["work","2026"]'], ["isPublic", "true"]));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ title: "Meeting notes", format: "markdown", sizeBytes: Buffer.byteLength(content), duplicate: false });
    const id = res.body.data.id;
    const item = (await callJson("GET", `/v1/docs/${id}`, { token: key })).body.data;
    expect(item).toMatchObject({ filename: "notes.md", isPublic: true, tags: ["work", "2026"] });
    // Public, so anyone reads it; the bytes are the file's.
    const raw = await call("GET", `/v1/docs/${id}/raw`);
    expect(raw.status).toBe(200);
    expect(await raw.text()).toBe(content);

    const typst = await postForm(key, form(["file", file("= Paper\n", "draft.md")], ["filename", "paper.typ"], ["title", "My paper"], ["isPublic", "0"]));
    expect(typst.status).toBe(201);
    expect(typst.body.data).toMatchObject({ title: "My paper", format: "typst" });
    expect((await callJson("GET", `/v1/docs/${typst.body.data.id}`, { token: key })).body.data).toMatchObject({
      filename: "paper.typ",
      isPublic: false,
      tags: [],
    });
  });

  test("the same content again answers 200 duplicate, as JSON does; kbId and relativePath place it in a KB", async () => {
    const user = await makeUser();
    const { key } = await makeKey(user);
    const content = "# Same\n\ntext\n";
    const first = await postForm(key, form(["file", file(content, "same.md")]));
    expect(first.status).toBe(201);
    const again = await postForm(key, form(["file", file(content, "same.md")]));
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: first.body.data.id, duplicate: true });
    // JSON with the same text is the same document.
    expect((await postDoc(key, { filename: "same.md", content })).body.data).toMatchObject({ id: first.body.data.id, duplicate: true });

    const kbId = await makeKb(user);
    const placed = await postForm(key, form(["file", file("# In a KB\n", "x.md")], ["kbId", kbId], ["relativePath", "dir/page.md"]));
    expect(placed.status).toBe(201);
    expect((await callJson("GET", `/v1/docs/${placed.body.data.id}`, { token: key })).body.data).toMatchObject({ kbId, relativePath: "dir/page.md" });
    expect(await docCount(user)).toBe(2);
  });

  test("a missing filename is 422 at body.filename in words, from a form or JSON; a form without a file, a file that is not UTF-8 or a bad field is 422 naming it; nothing stored", async () => {
    const user = await makeUser();
    const { key } = await makeKey(user);
    const missing = { path: "body.filename", issues: [{ path: "body.filename", message: "filename is required (the document's name, such as notes.md)" }] };
    const nameless = await postForm(key, form(["file", file("# x\n", "")]));
    expect(nameless.status).toBe(422);
    expect(nameless.body).toEqual({ success: false, code: "VALIDATION_ERROR", error: missing.issues[0]!.message, meta: missing });
    const json = await postDoc(key, { content: "# x\n" });
    expect(json.status).toBe(422);
    expect(json.body).toEqual({ success: false, code: "VALIDATION_ERROR", error: missing.issues[0]!.message, meta: missing });

    const refusals: [FormData, string, string][] = [
      [form(["filename", "a.md"], ["title", "no file"]), "body.file", "a `file` part is required: the document's text (Markdown or Typst)"],
      [form(["file", file(new Uint8Array([0x23, 0x20, 0xc3, 0x28]), "a.md")]), "body.file", "the file is not UTF-8 text; a document is Markdown or Typst text"],
      [form(["file", file("x", "a.md")], ["content", "y"]), "body.content", "send the document's text as the `file` part, not a `content` field"],
      [form(["file", file("x", "a.md")], ["isPublic", "yes"]), "body.isPublic", "isPublic must be true or false"],
      [form(["file", file("x", "a.md")], ["tags", "a,b"]), "body.tags", 'tags must be a JSON array of strings, such as ["notes", "work"]'],
      [form(["file", file("x", "a.md")], ["tags", '["a","a"]']), "body.tags", "tags must not hold the same value twice"],
      [form(["file", file("x", "a.md")], ["title", " "]), "body.title", "title must not be blank"],
    ];
    for (const [body, path, error] of refusals) {
      const res = await postForm(key, body);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", error, meta: { path } });
    }
    // The extension still decides the format.
    expect((await postForm(key, form(["file", file("x", "notes.txt")]))).body.code).toBe("INVALID_FILE_TYPE");
    expect(await docCount(user)).toBe(0);
  });

  test("the credential is checked before the form is judged: 401 without one, 403 without kb.write", async () => {
    const bad = form(["filename", "a.md"]);
    expect((await callJson("POST", "/v1/docs", { body: bad })).status).toBe(401);
    const user = await makeUser();
    const { key } = await makeKey(user, ["kb.read"]);
    const res = await postForm(key, form(["file", file("# ok\n", "a.md")]));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
    expect(await docCount(user)).toBe(0);
  });

  test("the 64 MiB limit holds for a form (413 before the body is read); another body type is 415 naming both", async () => {
    const { key } = await makeClient();
    const huge = await call("POST", "/v1/docs", {
      token: key,
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(DOCUMENT_BODY_MAX_BYTES + 1024 * 1024) },
      body: "--x--\r\n",
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ code: "FILE_TOO_LARGE", meta: { limit: DOCUMENT_BODY_MAX_BYTES } });
    const text = await callJson("POST", "/v1/docs", { token: key, headers: { "content-type": "text/plain" }, body: "# hello" });
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({
      code: "UNSUPPORTED_MEDIA_TYPE",
      meta: { accepted: ["application/json", "multipart/form-data"], received: "text/plain" },
    });
  });

  test("a form is read within the node's upload memory: 503 with Retry-After when it stays spent, and the memory comes back", async () => {
    const { deps, services } = await testContext();
    const uploadMemory = createBudget({ name: "upload memory", capacity: 1024 * 1024 * 1024, maxWaitMs: 0 });
    const app = createApp({ ...services, deps: { ...deps, budgets: { ...deps.budgets, uploadMemory } } });
    const { key } = await makeClient();
    const held = await uploadMemory.acquire(1024 * 1024 * 1024);
    const refused = await callJson("POST", "/v1/docs", { app, token: key, body: form(["file", file("# busy\n", "a.md")]) });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.body).toMatchObject({ code: "SERVICE_UNAVAILABLE", meta: { budget: "upload memory" } });
    held();
    expect((await callJson("POST", "/v1/docs", { app, token: key, body: form(["file", file("# busy\n", "a.md")]) })).status).toBe(201);
    expect(uploadMemory.usage()).toEqual({ used: 0, holders: 0, queued: 0 });
  });

  test("the OpenAPI document offers both bodies: JSON, and a form whose file is binary", () => {
    const body = doc.paths["/v1/docs"].post.requestBody;
    expect(Object.keys(body.content).sort()).toEqual(["application/json", "multipart/form-data"]);
    const multipart = body.content["multipart/form-data"].schema;
    expect(multipart.required).toEqual(["file"]);
    expect(multipart.properties.file).toMatchObject({ type: "string", format: "binary" });
    expect(Object.keys(multipart.properties).sort()).toEqual(["file", "filename", "isPublic", "kbId", "relativePath", "rewriteImages", "tags", "title"]);
    expect(body.content["application/json"].schema.required).toEqual(["filename", "content"]);
  });
});
