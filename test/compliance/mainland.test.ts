// PLATFORM=mainland with the built-in blocklist: a blocked hash or keyword answers 451
// COMPLIANCE_BLOCKED with meta.reasons, and the refused upload leaves nothing: no row, no
// object, no counted byte or upload.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { png } from "../images/fixtures.ts";
import { uploadForm } from "../images/fixtures.ts";
import { dataUri } from "../documents/fixtures.ts";
import { clip, videoForm } from "../videos/fixtures.ts";
import { makeClient } from "../helpers/factories.ts";
import { newKb, upsert } from "../kbs/fixtures.ts";
import { upsert2, V2 } from "../kbs/v2-fixtures.ts";
import { expectNothingStored, objects, on, platformApp, sha256 } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const blockedPng = await png(21, 13);
const finePng = await png(22, 13);
const blockedClip = await clip({ seconds: 1, format: "webm" });

const app = await platformApp({
  PLATFORM: "mainland",
  COMPLIANCE_BLOCKED_HASHES: `${sha256(blockedPng)}, ${sha256(blockedClip).toUpperCase()}`,
  COMPLIANCE_KEYWORDS: "forbidden phrase,禁止词",
});
const api = on(app);

describe("mainland: images", () => {
  test("an image whose bytes are blocklisted: 451 COMPLIANCE_BLOCKED with the reason, and nothing stored", async () => {
    const { user, key } = await makeClient();
    const res = await api("POST", "/v1/images", { token: key, body: uploadForm(blockedPng, { filename: "a.png" }) });
    expect(res.status).toBe(451);
    expect(res.body).toMatchObject({ success: false, code: "COMPLIANCE_BLOCKED" });
    expect(res.body.meta.reasons).toEqual([{ checker: "blocklist", reason: "BLOCKED_HASH", kind: "image", sha256: sha256(blockedPng) }]);
    await expectNothingStored(user, key);
  });

  test("an image not on the list is stored as usual", async () => {
    const { key } = await makeClient();
    const res = await api("POST", "/v1/images", { token: key, body: uploadForm(finePng, { filename: "b.png" }) });
    expect(res.status).toBe(201);
  });

  test("a blocklisted picture as a video's custom thumbnail: 451 and the thumbnail unchanged", async () => {
    const { user, key } = await makeClient({ plan: "pro" });
    const up = await api("POST", "/v1/videos", { token: key, body: videoForm(await clip()) });
    expect(up.status).toBe(201);
    const res = await api("POST", `/v1/videos/${up.body.data.id}/thumbnail`, { token: key, body: uploadForm(blockedPng, { filename: "t.png" }) });
    expect(res.status).toBe(451);
    expect(res.body.meta.reasons[0]).toMatchObject({ checker: "blocklist", reason: "BLOCKED_HASH", kind: "image" });
    expect(await objects(`videos/${user.id}/${up.body.data.id}/`)).toEqual([`videos/${user.id}/${up.body.data.id}/original`]);
  });
});

describe("mainland: documents", () => {
  test("a keyword anywhere in the text, in another case and in full-width letters: 451 and nothing stored", async () => {
    const { user, key } = await makeClient();
    for (const content of ["# Notes\n\nThis has a FORBIDDEN\n  Phrase inside.\n", "# Ｆｏｒｂｉｄｄｅｎ ｐｈｒａｓｅ\n", "前文禁止词后文"]) {
      const res = await api("POST", "/v1/docs", { token: key, json: { filename: "n.md", content } });
      expect(res.status).toBe(451);
      expect(res.body.code).toBe("COMPLIANCE_BLOCKED");
      expect(res.body.meta.reasons).toEqual([{ checker: "blocklist", reason: "BLOCKED_KEYWORD", kind: "document", sha256: sha256(content) }]);
    }
    const typst = await api("POST", "/v1/docs", { token: key, json: { filename: "n.typ", content: "= Forbidden phrase" } });
    expect(typst.status).toBe(451);
    await expectNothingStored(user, key);
  });

  test("a document without keywords is stored as usual", async () => {
    const { key } = await makeClient();
    const res = await api("POST", "/v1/docs", { token: key, json: { filename: "ok.md", content: "# Forbidden\n\nfruit, and a phrase elsewhere.\n" } });
    expect(res.status).toBe(201);
  });

  test("an inline image that is blocklisted refuses the whole document: 451 naming the image, no image and no document stored", async () => {
    const { user, key } = await makeClient();
    const content = `# Pics\n\n![fine](${dataUri("image/png", finePng)})\n\n![bad](${dataUri("image/png", blockedPng)})\n`;
    const res = await api("POST", "/v1/docs", { token: key, json: { filename: "p.md", content, rewriteImages: true } });
    expect(res.status).toBe(451);
    expect(res.body.meta.reasons).toEqual([{ checker: "blocklist", reason: "BLOCKED_HASH", kind: "image", sha256: sha256(blockedPng), index: 1 }]);
    await expectNothingStored(user, key);
  });

  test("an inline image left in the text (rewriteImages off) is checked all the same", async () => {
    const { user, key } = await makeClient();
    const content = `![bad](${dataUri("image/png", blockedPng)})\n`;
    const res = await api("POST", "/v1/docs", { token: key, json: { filename: "p.md", content } });
    expect(res.status).toBe(451);
    expect(res.body.meta.reasons).toEqual([{ checker: "blocklist", reason: "BLOCKED_HASH", kind: "image", sha256: sha256(blockedPng), index: 0 }]);
    await expectNothingStored(user, key);
  });
});

describe("mainland: KB sync", () => {
  test("a pushed text with a keyword is skipped as COMPLIANCE_BLOCKED (v1 and v2), the batch's other ops applied, nothing of it stored", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const v1 = await api("POST", `/v1/kbs/${kb.id}/sync`, {
      token: key,
      json: { ops: [upsert("ok.md", "# fine\n"), upsert("bad.md", "a Forbidden Phrase here\n")] },
    });
    expect(v1.status).toBe(200);
    expect(v1.body.data.applied.map((a: { relativePath: string }) => a.relativePath)).toEqual(["ok.md"]);
    expect(v1.body.data.skipped).toEqual([
      {
        opIndex: 1,
        op: "upsert",
        relativePath: "bad.md",
        reason: "COMPLIANCE_BLOCKED",
        message: expect.any(String),
        meta: { reasons: [{ checker: "blocklist", reason: "BLOCKED_KEYWORD", kind: "document", sha256: sha256("a Forbidden Phrase here\n") }] },
      },
    ]);
    const v2 = await api("POST", `/v1/kbs/${kb.id}/sync`, { token: key, headers: V2, json: { ops: [upsert2("bad2.md", "禁止词")] } });
    expect(v2.status).toBe(200);
    expect(v2.body.data.results[0]).toMatchObject({ status: "skipped", reason: "COMPLIANCE_BLOCKED" });
    const docs = await api("GET", `/v1/docs?kbId=${kb.id}`, { token: key });
    expect(docs.body.data.items.map((d: { title: string }) => d.title)).toEqual(["fine"]);
  });
});

describe("mainland: videos", () => {
  test("a blocklisted video (hashed while it streams): 451, the object written while streaming removed, nothing counted", async () => {
    const { user, key } = await makeClient({ plan: "pro" });
    const res = await api("POST", "/v1/videos", { token: key, body: videoForm(blockedClip, {}, "c.webm") });
    expect(res.status).toBe(451);
    expect(res.body.meta.reasons).toEqual([{ checker: "blocklist", reason: "BLOCKED_HASH", kind: "video", sha256: sha256(blockedClip) }]);
    await expectNothingStored(user, key);
  });
});
