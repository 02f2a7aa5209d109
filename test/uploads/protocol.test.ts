// The tus 1.0.0 rules of /v1/uploads, request by request: headers, status codes, the
// credential and ownership, checksums, termination, and what the plan allows at creation.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { call, callJson } from "../helpers/context.ts";
import { makeKey } from "../helpers/factories.ts";
import { usageOf } from "../audio/fixtures.ts";
import { png } from "../images/fixtures.ts";
import { closeWorlds, stoppedWorld } from "../jobs/world.ts";
import { create, metaHeader, noise, patch, tusCall, uploader } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

afterAll(closeWorlds);

const IMAGE = { kind: "image", filename: "a.png" };
const VIDEO = { kind: "video", filename: "v.mp4" };

describe("discovery and version", () => {
  test("OPTIONS advertises the version, extensions, largest size and checksums, with no credential", async () => {
    const res = await call("OPTIONS", "/v1/uploads");
    expect(res.status).toBe(204);
    expect(res.headers.get("tus-resumable")).toBe("1.0.0");
    expect(res.headers.get("tus-version")).toBe("1.0.0");
    expect(res.headers.get("tus-extension")!.split(",")).toEqual(
      expect.arrayContaining(["creation", "creation-with-upload", "termination", "expiration", "checksum"]),
    );
    expect(Number(res.headers.get("tus-max-size"))).toBeGreaterThan(0);
    expect(res.headers.get("tus-checksum-algorithm")).toContain("sha1");
    // A browser's preflight gets what it needs to send and read the tus headers.
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toContain("Upload-Offset");
    expect(res.headers.get("access-control-allow-methods")).toContain("PATCH");
    // The preflight of a PATCH goes to the upload's own URL.
    const preflight = await call("OPTIONS", "/v1/uploads/aaaaaaaaaaaaaaaaaaaaa", {
      headers: { origin: "https://app.example", "access-control-request-method": "PATCH" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Upload-Checksum");
  });

  test("a request without Tus-Resumable 1.0.0 is 412 naming the version, in the envelope", async () => {
    const { key } = await uploader();
    for (const version of [undefined, "0.2.2"]) {
      const res = await call("POST", "/v1/uploads", {
        token: key,
        headers: { "upload-length": "10", "upload-metadata": metaHeader(IMAGE), ...(version && { "tus-resumable": version }) },
      });
      expect(res.status).toBe(412);
      expect(res.headers.get("tus-version")).toBe("1.0.0");
      expect(res.headers.get("tus-resumable")).toBe("1.0.0");
      expect((await res.json()).code).toBe("PRECONDITION_FAILED");
    }
  });
});

describe("credential and ownership", () => {
  test("no credential is 401 and a key without media.write is 403, both with Tus-Resumable and the CORS exposure", async () => {
    const anon = await tusCall("POST", "/v1/uploads", undefined, { "upload-length": "10", "upload-metadata": metaHeader(IMAGE) });
    expect(anon.status).toBe(401);
    expect(anon.headers.get("tus-resumable")).toBe("1.0.0");
    expect(anon.headers.get("access-control-expose-headers")).toContain("Upload-Offset");
    const { user } = await uploader();
    const { key } = await makeKey(user, ["media.read"]);
    const res = await tusCall("POST", "/v1/uploads", key, { "upload-length": "10", "upload-metadata": metaHeader(IMAGE) });
    expect(res.status).toBe(403);
    expect((await res.json()).meta.required).toBe("media.write");
  });

  test("another user's upload is 404 to HEAD, PATCH, DELETE and GET, and is left as it was", async () => {
    const owner = await uploader();
    const stranger = await uploader();
    const path = await create(owner.key, 100, IMAGE);
    expect((await tusCall("HEAD", path, stranger.key)).status).toBe(404);
    const p = await patch(stranger.key, path, 0, noise(10));
    expect(p.status).toBe(404);
    expect((await p.json()).code).toBe("NOT_FOUND");
    expect((await tusCall("DELETE", path, stranger.key)).status).toBe(404);
    expect((await callJson("GET", path, { token: stranger.key })).status).toBe(404);
    const head = await tusCall("HEAD", path, owner.key);
    expect(head.status).toBe(200);
    expect(head.headers.get("upload-offset")).toBe("0");
  });
});

describe("creation", () => {
  test("POST answers 201 with Location, Upload-Offset 0 and Upload-Expires; HEAD answers length, offset and metadata", async () => {
    const { key } = await uploader();
    const res = await tusCall("POST", "/v1/uploads", key, { "upload-length": "1234", "upload-metadata": metaHeader({ ...IMAGE, tags: '["x"]' }) });
    expect(res.status).toBe(201);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/v1\/uploads\/[A-Za-z0-9_-]{21}$/);
    expect(res.headers.get("upload-offset")).toBe("0");
    expect(Date.parse(res.headers.get("upload-expires")!)).toBeGreaterThan(Date.now());
    const head = await tusCall("HEAD", location, key);
    expect(head.status).toBe(200);
    expect(head.headers.get("upload-length")).toBe("1234");
    expect(head.headers.get("upload-offset")).toBe("0");
    expect(head.headers.get("cache-control")).toBe("no-store");
    expect(head.headers.get("upload-metadata")).toContain(`filename ${btoa("a.png")}`);
  });

  test("creation-with-upload stores the first bytes and answers their offset", async () => {
    const { key } = await uploader();
    const res = await tusCall(
      "POST",
      "/v1/uploads",
      key,
      { "upload-length": "100", "upload-metadata": metaHeader(IMAGE), "content-type": "application/offset+octet-stream" },
      noise(40) as Uint8Array<ArrayBuffer>,
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("upload-offset")).toBe("40");
  });

  test("creation-with-upload whose bytes fail their checksum still creates the upload: 201 at offset 0", async () => {
    const { key } = await uploader();
    const res = await tusCall(
      "POST",
      "/v1/uploads",
      key,
      {
        "upload-length": "100",
        "upload-metadata": metaHeader(IMAGE),
        "content-type": "application/offset+octet-stream",
        "upload-checksum": `sha1 ${createHash("sha1").update("other").digest("base64")}`,
      },
      noise(40) as Uint8Array<ArrayBuffer>,
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("upload-offset")).toBe("0");
    expect((await tusCall("HEAD", res.headers.get("location")!, key)).headers.get("upload-offset")).toBe("0");
  });

  test("metadata must name the kind and the file: 422 before anything is held", async () => {
    const { key } = await uploader();
    for (const [meta, path] of [
      [{ filename: "a.png" }, "metadata.kind"],
      [{ kind: "document", filename: "a.md" }, "metadata.kind"],
      [{ kind: "image" }, "metadata.filename"],
    ] as const) {
      const res = await tusCall("POST", "/v1/uploads", key, { "upload-length": "10", "upload-metadata": metaHeader(meta) });
      expect(res.status).toBe(422);
      expect((await res.json()).meta.path).toBe(path);
    }
  });

  test("a trial plan's video is 403 PLAN_REQUIRED, as at POST /v1/videos", async () => {
    const { key } = await uploader("trial");
    const res = await tusCall("POST", "/v1/uploads", key, { "upload-length": "1000", "upload-metadata": metaHeader(VIDEO) });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe("PLAN_REQUIRED");
  });

  test("an Upload-Length over the plan's size for the kind is 413 FILE_TOO_LARGE naming the limit", async () => {
    const { key } = await uploader("pro");
    const res = await tusCall("POST", "/v1/uploads", key, { "upload-length": String(51 * 1024 * 1024), "upload-metadata": metaHeader(IMAGE) });
    expect(res.status).toBe(413);
    const body = await res.json();
    expect(body.code).toBe("FILE_TOO_LARGE");
    expect(body.meta.limit).toBe(50 * 1024 * 1024);
  });

  test("Upload-Length is held in storage from creation and given back by termination", async () => {
    const { user, key } = await uploader("pro");
    const before = await usageOf(user);
    const path = await create(key, 300_000, VIDEO);
    expect((await usageOf(user)).video.storage.used).toBe(before.video.storage.used + 300_000);
    expect((await patch(key, path, 0, noise(1000))).status).toBe(204);

    const del = await tusCall("DELETE", path, key);
    expect(del.status).toBe(204);
    expect(del.headers.get("tus-resumable")).toBe("1.0.0");
    expect((await usageOf(user)).video.storage.used).toBe(before.video.storage.used);
    expect((await tusCall("HEAD", path, key)).status).toBe(404);
    expect((await patch(key, path, 1000, noise(10))).status).toBe(404);
  });

  test("an upload that does not fit the storage left is 403 QUOTA_EXCEEDED at creation", async () => {
    const world = await stoppedWorld(undefined, { pro: { mediaStorageBytes: 10_000 } });
    const { key } = await uploader("pro");
    const post = (length: number) =>
      call("POST", "/v1/uploads", {
        app: world.app,
        token: key,
        headers: { "tus-resumable": "1.0.0", "upload-length": String(length), "upload-metadata": metaHeader(VIDEO) },
      });
    expect((await post(9_990)).status).toBe(201);
    const res = await post(11);
    expect(res.status).toBe(403);
    expect((await res.json()).meta).toMatchObject({ type: "media_storage", used: 9_990, limit: 10_000 });
  });
});

describe("daily counts", () => {
  test("no upload left today is 429 at creation; a finished upload counts one, as a direct upload does", async () => {
    const world = await stoppedWorld(undefined, { pro: { uploadsPerDay: 2 } });
    const { key } = await uploader("pro");
    const post = (length: number) =>
      call("POST", "/v1/uploads", {
        app: world.app,
        token: key,
        headers: { "tus-resumable": "1.0.0", "upload-length": String(length), "upload-metadata": metaHeader(IMAGE) },
      });
    const bytes = await png(12, 12);
    // Two uploads created: neither counts until it finishes.
    const first = await post(bytes.length);
    expect(first.status).toBe(201);
    expect((await post(10)).status).toBe(201);
    const done = await call("PATCH", first.headers.get("location")!, {
      app: world.app,
      token: key,
      headers: { "tus-resumable": "1.0.0", "content-type": "application/offset+octet-stream", "upload-offset": "0" },
      body: bytes as Uint8Array<ArrayBuffer>,
    });
    expect(done.status).toBe(204);
    // One finished upload and one direct one: the day's two are used.
    const form = new FormData();
    form.append("file", new Blob([bytes as BlobPart]), "b.png");
    expect((await call("POST", "/v1/images", { app: world.app, token: key, body: form })).status).toBe(201);
    const refused = await post(10);
    expect(refused.status).toBe(429);
    expect((await refused.json()).meta.type).toBe("uploads_per_day");
  });
});

describe("PATCH", () => {
  test("an Upload-Offset other than the upload's is 409 naming the offset; nothing is stored", async () => {
    const { key } = await uploader();
    const path = await create(key, 100, IMAGE);
    expect((await patch(key, path, 0, noise(30))).headers.get("upload-offset")).toBe("30");
    const res = await patch(key, path, 10, noise(30));
    expect(res.status).toBe(409);
    expect((await res.json()).meta.offset).toBe(30);
    expect((await tusCall("HEAD", path, key)).headers.get("upload-offset")).toBe("30");
  });

  test("a body of another type is 415; one past Upload-Length is 413", async () => {
    const { key } = await uploader();
    const path = await create(key, 100, IMAGE);
    expect((await tusCall("PATCH", path, key, { "content-type": "application/octet-stream", "upload-offset": "0" }, "x")).status).toBe(415);
    const over = await patch(key, path, 0, noise(101));
    expect(over.status).toBe(413);
    expect((await tusCall("HEAD", path, key)).headers.get("upload-offset")).toBe("0");
  });

  test("a body that does not match its Upload-Checksum is 460 and keeps none of its bytes; a matching one is taken", async () => {
    const { key } = await uploader();
    const path = await create(key, 100, IMAGE);
    const bytes = noise(50);
    const sha1 = (b: Uint8Array) => `sha1 ${createHash("sha1").update(b).digest("base64")}`;
    const bad = await patch(key, path, 0, bytes, { "upload-checksum": sha1(noise(49)) });
    expect(bad.status).toBe(460);
    expect((await bad.json()).code).toBe("CHECKSUM_MISMATCH");
    expect((await tusCall("HEAD", path, key)).headers.get("upload-offset")).toBe("0");
    const good = await patch(key, path, 0, bytes, { "upload-checksum": sha1(bytes) });
    expect(good.status).toBe(204);
    expect(good.headers.get("upload-offset")).toBe("50");
    const unknown = await patch(key, path, 50, bytes, { "upload-checksum": "crc32 AAAA" });
    expect(unknown.status).toBe(400);
  });

  test("the last PATCH names what it made; GET answers the same for a client that lost that answer", async () => {
    const { key } = await uploader();
    const bytes = await png(20, 10);
    // A name with a client's path in it keeps its last segment, as a form's file part does.
    const path = await create(key, bytes.length, { kind: "image", filename: "C:\\photos\\dot.png" });
    const half = Math.floor(bytes.length / 2);
    expect((await patch(key, path, 0, bytes.subarray(0, half))).status).toBe(204);
    const last = await patch(key, path, half, bytes.subarray(half));
    expect(last.status).toBe(204);
    expect(last.headers.get("upload-offset")).toBe(String(bytes.length));
    const id = last.headers.get("x-resource-id")!;
    const state = await callJson("GET", path, { token: key });
    expect(state.body.data).toMatchObject({
      status: "complete",
      kind: "image",
      offset: bytes.length,
      length: bytes.length,
      resource: { id, type: "image", url: last.headers.get("x-resource-url") },
    });
    expect((await callJson("GET", `/v1/images/${id}`, { token: key })).body.data.filename).toBe("dot.png");
    // A finished upload is not terminated: what it made is deleted through its own route.
    expect((await tusCall("DELETE", path, key)).status).toBe(409);
  });

  test("the last PATCH sent again (its answer lost) answers as it did, makes nothing twice; HEAD shows the offset at the length", async () => {
    const { key } = await uploader();
    const bytes = await png(24, 12);
    const path = await create(key, bytes.length, { kind: "image", filename: "again.png" });
    const half = Math.floor(bytes.length / 2);
    expect((await patch(key, path, 0, bytes.subarray(0, half))).status).toBe(204);
    const last = await patch(key, path, half, bytes.subarray(half));
    expect(last.status).toBe(204);
    const id = last.headers.get("x-resource-id")!;
    // The very same request, and an empty one at the end (what some clients send to ask).
    for (const again of [await patch(key, path, half, bytes.subarray(half)), await patch(key, path, bytes.length, new Uint8Array(0))]) {
      expect(again.status).toBe(204);
      expect(again.headers.get("upload-offset")).toBe(String(bytes.length));
      expect(again.headers.get("x-resource-id")).toBe(id);
      expect(again.headers.get("x-resource-url")).toBe(last.headers.get("x-resource-url"));
    }
    const head = await tusCall("HEAD", path, key);
    expect(head.headers.get("upload-offset")).toBe(head.headers.get("upload-length"));
    expect(head.headers.get("upload-offset")).toBe(String(bytes.length));
    expect(head.headers.get("x-resource-id")).toBe(id);
    const images = await callJson("GET", "/v1/images", { token: key });
    expect(images.body.data.items.map((i: { id: string }) => i.id)).toEqual([id]);
  });

  test("any other offset is 409 with the upload's offset in Upload-Offset (and meta.offset), while uploading and once finished", async () => {
    const { key } = await uploader();
    const bytes = await png(16, 16);
    const path = await create(key, bytes.length, { kind: "image", filename: "o.png" });
    expect((await patch(key, path, 0, bytes.subarray(0, 10))).status).toBe(204);
    const behind = await patch(key, path, 0, bytes.subarray(0, 10));
    expect(behind.status).toBe(409);
    expect(behind.headers.get("upload-offset")).toBe("10");
    expect((await patch(key, path, 10, bytes.subarray(10))).status).toBe(204);
    // A PATCH that does not end where the file ends is no re-sent last one.
    for (const [offset, body] of [
      [0, bytes.subarray(0, 10)],
      [10, bytes.subarray(10, 20)],
      [bytes.length, bytes.subarray(0, 1)],
    ] as const) {
      const res = await patch(key, path, offset, body);
      expect(res.status).toBe(409);
      expect(res.headers.get("upload-offset")).toBe(String(bytes.length));
      expect((await res.json()).meta.offset).toBe(bytes.length);
    }
  });

  test("a file its kind refuses fails the upload: the error answers the last PATCH, GET says failed, the storage is given back", async () => {
    const { user, key } = await uploader("pro");
    const before = (await usageOf(user)).video.storage.used;
    const bytes = noise(5000);
    const path = await create(key, bytes.length, VIDEO);
    const res = await patch(key, path, 0, bytes);
    expect(res.status).toBe(422);
    expect((await res.json()).code).toBe("INVALID_FILE_TYPE");
    const state = await callJson("GET", path, { token: key });
    expect(state.body.data).toMatchObject({ status: "failed", resource: null, failure: { code: "INVALID_FILE_TYPE" } });
    expect((await usageOf(user)).video.storage.used).toBe(before);
    // A tus client that lost that answer asks for the offset: 410, never the whole length
    // (which it would take for a finished upload); sending the bytes again is 410 as well.
    const head = await tusCall("HEAD", path, key);
    expect(head.status).toBe(410);
    expect(head.headers.get("upload-offset")).toBeNull();
    const again = await patch(key, path, bytes.length, new Uint8Array(0));
    expect(again.status).toBe(410);
    expect(await again.json()).toMatchObject({ code: "UPLOAD_FAILED", meta: { failure: { code: "INVALID_FILE_TYPE" } } });
  });
});
