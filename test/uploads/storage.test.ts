// Where the bytes go: PATCHes of any size (S3 parts of 5 MiB and more, shorter tails kept
// in the store between PATCHes, a file on the folder store) make the file byte for byte;
// a body cut short keeps what arrived; one PATCH at a time per upload; nothing of the
// upload stays stored once it completed.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { callJson, testContext } from "../helpers/context.ts";
import { clip, videoRow } from "../videos/fixtures.ts";
import { create, noise, patch, tusCall, uploader } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const MiB = 1024 * 1024;
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

/** A video file of about `size` bytes: a real clip, then filler its container ignores. */
async function bigVideo(size: number): Promise<Uint8Array> {
  const head = await clip({ seconds: 1 });
  const out = new Uint8Array(size);
  out.set(head);
  out.set(noise(size - head.length), head.length);
  return out;
}

/** A body that sends `bytes` and then breaks, as a connection that drops mid-PATCH. */
function breaking(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(c) {
      if (!sent) {
        sent = true;
        c.enqueue(bytes);
      } else c.error(new Error("connection reset"));
    },
  });
}

async function storedOwnerObjects(prefix: string) {
  const { deps } = await testContext();
  const keys: string[] = [];
  for await (const o of deps.storage.list(prefix)) keys.push(o.key);
  return keys;
}

describe("resumable upload storage", () => {
  test("PATCHes of 3 MiB, 6 MiB, 1 byte and the rest make the file byte for byte, and nothing of the upload stays stored", async () => {
    const { user, key } = await uploader("pro");
    const file = await bigVideo(13 * MiB + 12345);
    const path = await create(key, file.length, { kind: "video", filename: "big.mp4" });
    let offset = 0;
    for (const size of [3 * MiB, 6 * MiB, 1, file.length]) {
      const end = Math.min(file.length, offset + size);
      const res = await patch(key, path, offset, file.subarray(offset, end));
      expect(res.status).toBe(204);
      expect(res.headers.get("upload-offset")).toBe(String(end));
      offset = end;
    }
    const state = await callJson("GET", path, { token: key });
    expect(state.body.data.status).toBe("complete");
    const video = (await videoRow(state.body.data.resource.id))!;
    expect(video.sizeBytes).toBe(file.length);
    const { deps } = await testContext();
    expect(sha((await deps.storage.read(video.originalKey!))!)).toBe(sha(file));
    expect(await storedOwnerObjects(`uploads/${user.id}/`)).toEqual([]);
  }, 60_000);

  test("a PATCH whose body breaks off keeps what arrived; the client goes on from there", async () => {
    const { key } = await uploader("pro");
    const file = await bigVideo(7 * MiB);
    const path = await create(key, file.length, { kind: "video", filename: "cut.mp4" });
    const { app } = await testContext();
    const cut = 1 * MiB + 7;
    await app
      .handle(
        new Request(`http://shelf.test${path}`, {
          method: "PATCH",
          headers: { authorization: `Bearer ${key}`, "tus-resumable": "1.0.0", "content-type": "application/offset+octet-stream", "upload-offset": "0" },
          body: breaking(file.subarray(0, cut)),
        }),
      )
      .catch(() => {});
    const head = await tusCall("HEAD", path, key);
    expect(head.headers.get("upload-offset")).toBe(String(cut));
    expect((await patch(key, path, cut, file.subarray(cut))).status).toBe(204);
    const state = await callJson("GET", path, { token: key });
    const video = (await videoRow(state.body.data.resource.id))!;
    const { deps } = await testContext();
    expect(sha((await deps.storage.read(video.originalKey!))!)).toBe(sha(file));
  }, 60_000);

  test("a PATCH while another to the same upload is still arriving is 409; the first goes on", async () => {
    const { key } = await uploader("pro");
    const path = await create(key, 1000, { kind: "image", filename: "a.png" });
    const { app } = await testContext();
    let reading!: () => void;
    const started = new Promise<void>((r) => (reading = r));
    let finish!: () => void;
    const held = new Promise<void>((r) => (finish = r));
    let step = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (step++ === 0) {
          c.enqueue(noise(100));
          return;
        }
        // The server is reading the body, so it holds the upload's lease.
        reading();
        await held;
        c.enqueue(noise(100));
        c.close();
      },
    });
    const first = app.handle(
      new Request(`http://shelf.test${path}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${key}`, "tus-resumable": "1.0.0", "content-type": "application/offset+octet-stream", "upload-offset": "0" },
        body,
      }),
    );
    await started;
    const second = await patch(key, path, 0, noise(10));
    expect(second.status).toBe(409);
    expect((await second.json()).meta.busy).toBe(true);
    finish();
    const res = await first;
    expect(res.status).toBe(204);
    expect(res.headers.get("upload-offset")).toBe("200");
  });
});
