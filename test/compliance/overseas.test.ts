// PLATFORM=overseas checks nothing: the content mainland refuses is stored, and the
// moderation service is never called, even when configured.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeClient } from "../helpers/factories.ts";
import { dataUri } from "../documents/fixtures.ts";
import { png, uploadForm } from "../images/fixtures.ts";
import { clip, videoForm } from "../videos/fixtures.ts";
import { moderationStub, on, platformApp, sha256 } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const stub = moderationStub();
afterAll(() => stub.stop());
stub.answer = "deny";

const pic = await png(19, 7);
const video = await clip({ seconds: 1 });
const api = on(
  await platformApp({
    PLATFORM: "overseas",
    COMPLIANCE_BLOCKED_HASHES: `${sha256(pic)},${sha256(video)}`,
    COMPLIANCE_KEYWORDS: "forbidden phrase",
    COMPLIANCE_WEBHOOK_URL: stub.url,
  }),
);

describe("overseas", () => {
  test("the image, document and video mainland refuses are stored, and the moderation service is never called", async () => {
    const { key } = await makeClient({ plan: "pro" });
    expect((await api("POST", "/v1/images", { token: key, body: uploadForm(pic) })).status).toBe(201);
    const doc = await api("POST", "/v1/docs", {
      token: key,
      json: { filename: "d.md", content: `# Forbidden phrase\n\n![x](${dataUri("image/png", pic)})\n`, rewriteImages: true },
    });
    expect(doc.status).toBe(201);
    expect(doc.body.data.rewrittenCount).toBe(1);
    expect((await api("POST", "/v1/videos", { token: key, body: videoForm(video) })).status).toBe(201);
    expect(stub.received).toEqual([]);
  });
});
