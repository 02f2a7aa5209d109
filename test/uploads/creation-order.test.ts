// The order of an upload's refusals, resumable or direct: the plan, then the file's size
// for the kind and the plan (413), then the counts and the room (429, 403). A file larger
// than the plan takes is too large whatever the storage holds, and its refusal tells
// nobody their storage is full.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { outbox, quotaMarks } from "../../src/modules/notifications/table.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { closeWorlds, setCounter, stoppedWorld } from "../jobs/world.ts";
import { metaHeader, tusCall, uploader } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

afterAll(closeWorlds);

const MB = 1024 * 1024;
const IMAGE = { kind: "image", filename: "big.png" };

describe("size before room", () => {
  test("an image declaring 2 GB on the trial plan (50 MB a file, 1 GB of storage) is 413 FILE_TOO_LARGE, holds nothing and notifies nothing", async () => {
    const { user, key } = await uploader("trial");
    const res = await tusCall("POST", "/v1/uploads", key, { "upload-length": "2000000000", "upload-metadata": metaHeader(IMAGE) });
    expect(res.status).toBe(413);
    const body = await res.json();
    expect(body).toMatchObject({ code: "FILE_TOO_LARGE", meta: { limit: 50 * MB } });
    const usage = await callJson("GET", "/v1/user/me/usage", { token: key });
    expect(usage.body.data.image.storage.used).toBe(0);
    // No "storage full" notice: no mark recorded, nothing queued.
    const { deps } = await testContext();
    expect(await deps.db.select().from(quotaMarks).where(eq(quotaMarks.userId, user.id))).toEqual([]);
    expect(await deps.db.select().from(outbox).where(eq(outbox.userId, user.id))).toEqual([]);
  });

  test("with the storage full, a file over the plan's size is still 413 on every upload route, resumable and direct; one within it is 403", async () => {
    const world = await stoppedWorld(undefined, { trial: { imageStorageBytes: 10_000 }, pro: { mediaStorageBytes: 10_000, imageStorageBytes: 10_000 } });
    const { user, key } = await uploader("pro");
    await setCounter(user.id, "total", "img_storage", 10_000);
    await setCounter(user.id, "total", "media_storage", 10_000);
    const tus = (kind: string, length: number) =>
      call("POST", "/v1/uploads", {
        app: world.app,
        token: key,
        headers: { "tus-resumable": "1.0.0", "upload-length": String(length), "upload-metadata": metaHeader({ kind, filename: `f.${kind}` }) },
      });
    // A multipart body that says it is this long: refused before a byte of it is read.
    const direct = (path: string, length: number) =>
      call("POST", path, {
        app: world.app,
        token: key,
        headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(length) },
        body: "--x--\r\n",
      });
    const over: [string, Response][] = [
      ["tus image", await tus("image", 60 * MB)],
      ["tus video", await tus("video", 600 * MB)],
      ["tus audio", await tus("audio", 200 * MB)],
      ["POST /v1/images", await direct("/v1/images", 60 * MB)],
      ["POST /v1/videos", await direct("/v1/videos", 600 * MB)],
      ["POST /v1/audio", await direct("/v1/audio", 200 * MB)],
    ];
    for (const [what, res] of over) {
      expect(res.status, what).toBe(413);
      expect((await res.json()).code, what).toBe("FILE_TOO_LARGE");
    }
    for (const res of [await tus("image", 10 * MB), await tus("video", 10 * MB), await direct("/v1/videos", 10 * MB)]) {
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe("QUOTA_EXCEEDED");
    }
  });
});
