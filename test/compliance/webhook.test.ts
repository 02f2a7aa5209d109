// PLATFORM=mainland with a moderation service: what it is sent, its refusals as 451 with
// its reasons, and every way it can fail to decide (no answer in time, 5xx, a body of
// another shape, nobody listening) as 502 DEPENDENCY_UNAVAILABLE with nothing stored.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { makeClient } from "../helpers/factories.ts";
import { dataUri } from "../documents/fixtures.ts";
import { png, uploadForm } from "../images/fixtures.ts";
import { clip, videoForm } from "../videos/fixtures.ts";
import { expectNothingStored, moderationStub, on, platformApp, sha256 } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const SECRET = "moderation-secret-0123456789";
const stub = moderationStub();
afterAll(() => stub.stop());

const pic = await png(17, 11);
const video = await clip();
const blockedPic = await png(18, 11);
const app = await platformApp({
  PLATFORM: "mainland",
  COMPLIANCE_WEBHOOK_URL: stub.url,
  COMPLIANCE_WEBHOOK_SECRET: SECRET,
  // Longer than a busy machine takes to answer a local request.
  COMPLIANCE_WEBHOOK_TIMEOUT_MS: "20000",
  COMPLIANCE_BLOCKED_HASHES: sha256(blockedPic),
});
const api = on(app);
// The same with a timeout short enough that the test of a service that never answers is
// over at once: it waits on the 502, which this timeout brings.
const impatient = on(await platformApp({ PLATFORM: "mainland", COMPLIANCE_WEBHOOK_URL: stub.url, COMPLIANCE_WEBHOOK_TIMEOUT_MS: "50" }));

/** The requests the stand-in received while `run` ran. */
async function sent<T>(answer: typeof stub.answer, run: () => Promise<T>) {
  stub.answer = answer;
  const from = stub.received.length;
  const result = await run();
  return { result, requests: stub.received.slice(from) };
}

describe("moderation webhook", () => {
  test("allowed: the image is stored; the service got kind, hash, size, owner, name, type and the bytes, signed", async () => {
    const { user, key } = await makeClient();
    const { result, requests } = await sent("allow", () => api("POST", "/v1/images", { token: key, body: uploadForm(pic, { filename: "p.png" }) }));
    expect(result.status).toBe(201);
    expect(requests).toHaveLength(1);
    const { body, signature } = requests[0]!;
    expect(body).toEqual({
      kind: "image",
      sha256: sha256(pic),
      size: pic.length,
      ownerId: user.id,
      filename: "p.png",
      mimeType: "image/png",
      contentBase64: Buffer.from(pic).toString("base64"),
    });
    expect(signature).toBe(`sha256=${createHmac("sha256", SECRET).update(JSON.stringify(body)).digest("hex")}`);
  });

  test("a document is sent with its text; a video with its hash and size only", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const content = "# Hello\n\nplain words\n";
    const doc = await sent("allow", () => api("POST", "/v1/docs", { token: key, json: { filename: "h.md", content } }));
    expect(doc.result.status).toBe(201);
    expect(doc.requests.map((r) => r.body)).toEqual([
      expect.objectContaining({ kind: "document", sha256: sha256(content), size: content.length, text: content, mimeType: "text/markdown" }),
    ]);
    const v = await sent("allow", () => api("POST", "/v1/videos", { token: key, body: videoForm(video, {}, "v.mp4") }));
    expect(v.result.status).toBe(201);
    expect(v.requests).toHaveLength(1);
    const body = v.requests[0]!.body;
    expect(body).toMatchObject({ kind: "video", sha256: sha256(video), size: video.length, filename: "v.mp4", mimeType: "video/mp4" });
    expect(body).not.toHaveProperty("contentBase64");
  });

  test("refused: 451 with the service's reasons, nothing stored", async () => {
    const { user, key } = await makeClient({ plan: "pro" });
    const image = await sent("deny", () => api("POST", "/v1/images", { token: key, body: uploadForm(pic) }));
    expect(image.result.status).toBe(451);
    expect(image.result.body.code).toBe("COMPLIANCE_BLOCKED");
    expect(image.result.body.meta.reasons).toEqual([
      { checker: "webhook", reason: "POLITICAL", kind: "image", sha256: sha256(pic) },
      { checker: "webhook", reason: "VIOLENCE", kind: "image", sha256: sha256(pic) },
    ]);
    const doc = await sent("deny", () =>
      api("POST", "/v1/docs", { token: key, json: { filename: "d.md", content: `![x](${dataUri("image/png", pic)})\n`, rewriteImages: true } }),
    );
    expect(doc.result.status).toBe(451);
    expect(doc.result.body.meta.reasons[0]).toMatchObject({ checker: "webhook", kind: "image", index: 0 });
    const v = await sent("deny", () => api("POST", "/v1/videos", { token: key, body: videoForm(video) }));
    expect(v.result.status).toBe(451);
    await expectNothingStored(user, key);
  });

  test("the blocklist decides first: a blocked hash is refused without asking the service", async () => {
    const { key } = await makeClient();
    const { result, requests } = await sent("allow", () => api("POST", "/v1/images", { token: key, body: uploadForm(blockedPic) }));
    expect(result.status).toBe(451);
    expect(result.body.meta.reasons[0].checker).toBe("blocklist");
    expect(requests).toEqual([]);
  });

  for (const [answer, problem] of [
    ["hang", "timeout"],
    ["error", "status"],
    ["malformed", "malformed"],
  ] as const) {
    test(`a service that ${answer === "hang" ? "never answers" : answer === "error" ? "answers 500" : "answers another shape"}: 502 DEPENDENCY_UNAVAILABLE (${problem}), nothing stored`, async () => {
      const { user, key } = await makeClient({ plan: "pro" });
      stub.answer = answer;
      const api = answer === "hang" ? impatient : on(app);
      const image = await api("POST", "/v1/images", { token: key, body: uploadForm(pic) });
      expect(image.status).toBe(502);
      expect(image.body).toMatchObject({ success: false, code: "DEPENDENCY_UNAVAILABLE", meta: { dependency: "moderation", problem } });
      const doc = await api("POST", "/v1/docs", { token: key, json: { filename: "d.md", content: "# words\n" } });
      expect(doc.status).toBe(502);
      const streamed = await api("POST", "/v1/videos", { token: key, body: videoForm(video) });
      expect(streamed.status).toBe(502);
      await expectNothingStored(user, key);
    });
  }

  test("nobody listening at the address: 502, nothing stored", async () => {
    const closed = moderationStub();
    closed.stop();
    const down = on(await platformApp({ PLATFORM: "mainland", COMPLIANCE_WEBHOOK_URL: closed.url }));
    const { user, key } = await makeClient();
    const res = await down("POST", "/v1/images", { token: key, body: uploadForm(pic) });
    expect(res.status).toBe(502);
    expect(res.body.meta).toMatchObject({ dependency: "moderation", problem: "unreachable" });
    await expectNothingStored(user, key);
  });
});
