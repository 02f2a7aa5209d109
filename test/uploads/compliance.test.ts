// Resumable uploads on the mainland platform: the finished file passes the same compliance
// check as its kind's upload route. A blocklisted video fails the upload with 451 at its
// last PATCH, leaves nothing stored and gives back what it held; another is taken.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { on, platformApp, sha256 } from "../compliance/fixtures.ts";
import { usageOf } from "../audio/fixtures.ts";
import { clip, videoObjects } from "../videos/fixtures.ts";
import { metaHeader, uploader } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const blocked = await clip({ seconds: 1, size: "160x90" });
const app = await platformApp({ PLATFORM: "mainland", COMPLIANCE_BLOCKED_HASHES: sha256(blocked) });
const api = on(app);

describe("mainland: resumable uploads", () => {
  test("a blocklisted video: 451 COMPLIANCE_BLOCKED at the last PATCH, the upload failed, nothing stored or held", async () => {
    const { user, key } = await uploader("pro");
    const headers = { authorization: `Bearer ${key}`, "tus-resumable": "1.0.0" };
    const created = await app.handle(
      new Request("http://shelf.test/v1/uploads", {
        method: "POST",
        headers: { ...headers, "upload-length": String(blocked.length), "upload-metadata": metaHeader({ kind: "video", filename: "v.mp4" }) },
      }),
    );
    expect(created.status).toBe(201);
    const path = created.headers.get("location")!;
    const res = await api("PATCH", path, {
      token: key,
      headers: { "tus-resumable": "1.0.0", "content-type": "application/offset+octet-stream", "upload-offset": "0" },
      body: blocked,
    });
    expect(res.status).toBe(451);
    expect(res.body.meta.reasons[0]).toMatchObject({ checker: "blocklist", reason: "BLOCKED_HASH", kind: "video", sha256: sha256(blocked) });
    expect((await api("GET", path, { token: key })).body.data).toMatchObject({ status: "failed", failure: { code: "COMPLIANCE_BLOCKED" } });
    expect(await videoObjects(user.id)).toEqual([]);
    const u = await usageOf(user);
    expect([u.video.storage.used, u.uploads.day.used]).toEqual([0, 0]);
  });
});
