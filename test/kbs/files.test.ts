// KB files (attachments): bytes stored by their SHA-256 (PUT, HEAD and GET
// /v1/kbs/:id/files/:sha256), read by path with their own type and the headers that keep
// them from running, counted once per owner and hash, and gone with their last link, with
// the orphan sweep (never linked) and with the account. docs/sync.md, "KB files".
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { SCOPES } from "../../src/core/scopes.ts";
import { adminCli } from "../helpers/admin-cli.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, type makeUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { closeWorlds, stoppedWorld } from "../jobs/world.ts";
import { fileObjects, hashOf, imageStorage, PNG, putFile, rawFile, storedFile, upsertFile } from "./file-fixtures.ts";
import { newKb } from "./fixtures.ts";
import { delete2, pushed2 } from "./v2-fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);
afterAll(closeWorlds);

const HOUR = 3_600_000;
const bytes = (n: number, seed = 1) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed * 7) % 251);
const head = (token: string, kbId: string, sha: string) => call("HEAD", `/v1/kbs/${kbId}/files/${sha}`, { token });

/** A body that counts what was read of it, and ends never: whoever reads it is seen. */
function watchedBody() {
  const seen = { reads: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        seen.reads++;
        c.enqueue(new Uint8Array(1024));
      },
    },
    { highWaterMark: 0 },
  );
  return { body, seen };
}

describe("PUT and HEAD /v1/kbs/:id/files/:sha256", () => {
  test("new bytes: 201 with the type their bytes tell; HEAD 200 with size and type; the same bytes again: 200 existing, body unread, connection closed, one object", async () => {
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    const put = await putFile(key, kb.id, PNG, { name: "photo.bin" });
    expect(put.status).toBe(201);
    expect(put.body.data).toEqual({ sha256: hashOf(PNG), sizeBytes: PNG.length, contentType: "image/png", stored: "new" });

    const h = await head(key, kb.id, hashOf(PNG));
    expect(h.status).toBe(200);
    expect(h.headers.get("content-length")).toBe(String(PNG.length));
    expect(h.headers.get("content-type")).toBe("image/png");
    expect(h.headers.get("x-source-hash")).toBe(hashOf(PNG));
    expect((await head(key, kb.id, hashOf(bytes(10)))).status).toBe(404);

    // Declared far past any plan's limit and never ending: answered from what the owner holds.
    const { body, seen } = watchedBody();
    const again = await callJson("PUT", `/v1/kbs/${kb.id}/files/${hashOf(PNG)}`, { token: key, body, headers: { "content-length": String(10 * 1024 ** 3) } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ sha256: hashOf(PNG), sizeBytes: PNG.length, stored: "existing" });
    expect(again.headers.get("connection")).toBe("close");
    expect(seen.reads).toBe(0);
    expect(await fileObjects(user.id)).toHaveLength(1);
    expect(await imageStorage(key)).toBe(PNG.length);
  });

  test("PUT counts in its own `file` tier (600 a minute), not the upload tier of media: a vault's first push is not held to 60 files a minute", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const put = await putFile(key, kb.id, bytes(100 + i, i));
      expect(put.status).toBe(201);
      expect(put.headers.get("ratelimit-limit")).toBe("600");
      remaining.push(put.headers.get("ratelimit-remaining")!);
    }
    expect(remaining).toEqual(["599", "598", "597"]);
    const doc = await callJson("POST", "/v1/docs", { token: key, json: { filename: "t.md", content: "x" } });
    expect(doc.status).toBe(201);
    expect(doc.headers.get("ratelimit-limit")).toBe("60");
    expect(doc.headers.get("ratelimit-remaining")).toBe("59");
  });

  test("bytes whose SHA-256 is not the URL's: 422 HASH_MISMATCH, no object and nothing counted", async () => {
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    const res = await putFile(key, kb.id, bytes(500), { as: hashOf(bytes(500, 2)) });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("HASH_MISMATCH");
    expect(res.body.meta).toEqual({ expected: hashOf(bytes(500, 2)), actual: hashOf(bytes(500)) });
    expect(await fileObjects(user.id)).toEqual([]);
    expect(await imageStorage(key)).toBe(0);
    expect((await head(key, kb.id, hashOf(bytes(500, 2)))).status).toBe(404);
    // A hash that is no lower-case SHA-256 hex is no file's.
    expect((await putFile(key, kb.id, PNG, { as: hashOf(PNG).toUpperCase() })).status).toBe(422);
  });

  test("refused before a byte is read: 413 past the plan's attachmentMaxBytes, 403 QUOTA_EXCEEDED past img_storage, 411 without a Content-Length; nothing kept", async () => {
    const w = await stoppedWorld(undefined, { trial: { attachmentMaxBytes: 100, imageStorageBytes: 150 } });
    const { user, key } = await makeClient({ plan: "trial" });
    const kb = await newKb(key);
    const big = await putFile(key, kb.id, bytes(101), { app: w.app });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: "FILE_TOO_LARGE", meta: { limit: 100 } });
    expect((await putFile(key, kb.id, bytes(100), { app: w.app })).status).toBe(201);
    const full = await putFile(key, kb.id, bytes(60, 3), { app: w.app });
    expect(full.status).toBe(403);
    expect(full.body).toMatchObject({ code: "QUOTA_EXCEEDED", meta: { type: "img_storage" } });
    const { body, seen } = watchedBody();
    const chunked = await callJson("PUT", `/v1/kbs/${kb.id}/files/${hashOf(bytes(5))}`, { token: key, body, app: w.app });
    expect(chunked.status).toBe(411);
    expect(chunked.body.code).toBe("LENGTH_REQUIRED");
    // Refused as every refused body is: a lingering read of at most 8 MiB, then the connection closes.
    expect(chunked.headers.get("connection")).toBe("close");
    expect(seen.reads).toBeLessThanOrEqual(8 * 1024 + 1);
    expect(await fileObjects(user.id)).toHaveLength(1);
    expect(await imageStorage(key)).toBe(100);
  });

  test("dedup is per owner: another user's bytes are not found by their hash, and the same bytes of two users are two objects", async () => {
    const a = await makeClient();
    const b = await makeClient();
    const [kbA, kbB] = [await newKb(a.key), await newKb(b.key)];
    await storedFile(a.key, kbA.id, PNG);
    expect((await head(b.key, kbB.id, hashOf(PNG))).status).toBe(404);
    expect((await call("GET", `/v1/kbs/${kbB.id}/files/${hashOf(PNG)}`, { token: b.key })).status).toBe(404);
    expect((await head(b.key, kbA.id, hashOf(PNG))).status).toBe(404);
    const mine = await putFile(b.key, kbB.id, PNG);
    expect(mine.status).toBe(201);
    expect(mine.body.data.stored).toBe("new");
    expect(await fileObjects(a.user.id)).toHaveLength(1);
    expect(await fileObjects(b.user.id)).toHaveLength(1);
    // A file B links names B's bytes only.
    const linked = await pushed2(b.key, kbB.id, [upsertFile("mine.png", PNG)]);
    expect(linked.results[0]).toMatchObject({ status: "applied", kind: "file" });
  });

  test("PUT and GET refuse without a credential (401), without their scope (403), on another user's KB (404)", async () => {
    const withFile = async (owner: Awaited<ReturnType<typeof makeUser>>) => {
      const { key } = await makeKey(owner, [...SCOPES]);
      const kb = await newKb(key);
      await storedFile(key, kb.id, PNG);
      return kb.id;
    };
    await expectTenantIsolation({ method: "GET", scope: "kb.read", path: (id) => `/v1/kbs/${id}/files/${hashOf(PNG)}`, create: withFile });
    await expectTenantIsolation({
      method: "PUT",
      scope: "kb.write",
      path: (id) => `/v1/kbs/${id}/files/${hashOf(bytes(8))}`,
      create: withFile,
      request: () => ({ body: bytes(8) as Uint8Array<ArrayBuffer>, headers: { "content-length": "8" } }),
    });
  });
});

describe("reading a file", () => {
  test("raw by path answers a PNG named .bin as image/png with its hash, nosniff and a sandbox CSP; one Range 206, past the end 416, its ETag 304; GET by hash the same bytes", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    await storedFile(key, kb.id, PNG);
    const [linked] = (await pushed2(key, kb.id, [upsertFile("assets/pic.bin", PNG)])).results;
    const whole = await rawFile(key, kb.id, "assets/pic.bin");
    expect(whole.status).toBe(200);
    expect(Object.fromEntries(whole.headers)).toMatchObject({
      "content-type": "image/png",
      "content-length": String(PNG.length),
      "x-source-hash": hashOf(PNG),
      "x-doc-id": linked!.docId,
      etag: `"${hashOf(PNG)}"`,
      "accept-ranges": "bytes",
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
      "content-disposition": "inline; filename*=UTF-8''pic.bin",
    });
    expect(whole.headers.get("content-security-policy")).toContain("sandbox");
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(PNG);

    const part = await rawFile(key, kb.id, "assets/pic.bin", { range: "bytes=1-3" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 1-3/${PNG.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(PNG.slice(1, 4));
    const tail = await rawFile(key, kb.id, "assets/pic.bin", { range: "bytes=-4" });
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(PNG.slice(-4));
    const past = await rawFile(key, kb.id, "assets/pic.bin", { range: `bytes=${PNG.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${PNG.length}`);
    expect((await rawFile(key, kb.id, "assets/pic.bin", { "if-none-match": `"${hashOf(PNG)}"` })).status).toBe(304);

    const byHash = await call("GET", `/v1/kbs/${kb.id}/files/${hashOf(PNG)}`, { token: key, headers: { range: "bytes=0-7" } });
    expect(byHash.status).toBe(206);
    expect(byHash.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await byHash.arrayBuffer())).toEqual(PNG.slice(0, 8));
  });

  test("an SVG and an HTML file cannot run script where they are served: sent as attachments, with a CSP that runs nothing (sandbox) and nosniff", async () => {
    const { key } = await makeClient();
    const kb = await newKb(key);
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>');
    const xmlSvg = new TextEncoder().encode('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    const html = new TextEncoder().encode("<!doctype html><script>fetch('/v1/user/me')</script>");
    expect((await putFile(key, kb.id, svg, { name: "evil.svg" })).body.data.contentType).toBe("image/svg+xml");
    // The bytes say XML; the name says which XML.
    expect((await putFile(key, kb.id, xmlSvg, { name: "drawing.svg" })).body.data.contentType).toBe("image/svg+xml");
    expect((await putFile(key, kb.id, html, { name: "page.html" })).body.data.contentType).toBe("text/html");
    await pushed2(key, kb.id, [upsertFile("evil.svg", svg), upsertFile("drawing.svg", xmlSvg), upsertFile("page.html", html)]);
    for (const [path, type] of [
      ["evil.svg", "image/svg+xml"],
      ["drawing.svg", "image/svg+xml"],
      ["page.html", "text/html"],
    ] as const) {
      const res = await rawFile(key, kb.id, path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename*=UTF-8''${path}`);
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    // Bytes that say nothing, named nothing: application/octet-stream, an attachment too.
    const plain = await putFile(key, kb.id, bytes(40, 9));
    expect(plain.body.data.contentType).toBe("application/octet-stream");
  });
});

describe("counting and letting go", () => {
  test("the same bytes at three paths in two KBs count once in img_storage, and no document; the last link's delete uncounts them and removes the object", async () => {
    const { user, key } = await makeClient();
    const [kb1, kb2] = [await newKb(key), await newKb(key)];
    const blob = bytes(1000, 5);
    await storedFile(key, kb1.id, blob);
    await pushed2(key, kb1.id, [upsertFile("a.bin", blob), upsertFile("b/a.bin", blob)]);
    await pushed2(key, kb2.id, [upsertFile("c.bin", blob)]);
    expect(await imageStorage(key)).toBe(1000);
    const usage = (await callJson("GET", "/v1/user/me/usage", { token: key })).body.data;
    expect(usage.doc.count.used).toBe(0);
    expect((await callJson("GET", `/v1/kbs/${kb1.id}`, { token: key })).body.data).toMatchObject({ docCount: 0, fileCount: 2, sizeBytes: 2000 });
    expect(await fileObjects(user.id)).toHaveLength(1);

    const m = (kbId: string, path: string) => pushed2(key, kbId, [delete2(path, { baseHash: hashOf(blob) })]);
    await m(kb1.id, "a.bin");
    await m(kb1.id, "b/a.bin");
    expect(await imageStorage(key)).toBe(1000);
    expect((await head(key, kb1.id, hashOf(blob))).status).toBe(200);
    await m(kb2.id, "c.bin");
    expect(await imageStorage(key)).toBe(0);
    expect(await fileObjects(user.id)).toEqual([]);
    expect((await head(key, kb1.id, hashOf(blob))).status).toBe(404);
    const verify = await adminCli("usage", "verify", "--email", user.email);
    expect(verify.out.at(-1)).toBe("1 users, 0 counters differ from their rows");
  });

  test("a KB's delete: 409 KB_NOT_EMPTY while it holds files; with cascade (and its purge) its files go, their bytes too unless another KB links them", async () => {
    const { user, key } = await makeClient();
    const [kb1, kb2] = [await newKb(key), await newKb(key)];
    const [only, shared] = [bytes(300, 1), bytes(200, 2)];
    await storedFile(key, kb1.id, only);
    await storedFile(key, kb1.id, shared);
    await pushed2(key, kb1.id, [upsertFile("only.bin", only), upsertFile("shared.bin", shared)]);
    await pushed2(key, kb2.id, [upsertFile("shared.bin", shared)]);
    const refused = await callJson("DELETE", `/v1/kbs/${kb1.id}`, { token: key });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "KB_NOT_EMPTY", meta: { docCount: 0, fileCount: 2 } });
    expect((await call("DELETE", `/v1/kbs/${kb1.id}?cascade=true`, { token: key })).status).toBe(204);
    // In the trash its files still count; purged, they go.
    expect(await imageStorage(key)).toBe(500);
    expect((await call("DELETE", `/v1/trash/${kb1.id}`, { token: user.jwt })).status).toBe(204);
    expect(await imageStorage(key)).toBe(200);
    expect((await head(key, kb2.id, hashOf(only))).status).toBe(404);
    expect((await head(key, kb2.id, hashOf(shared))).status).toBe(200);
    expect(await fileObjects(user.id)).toHaveLength(1);
    expect((await adminCli("usage", "verify", "--email", user.email)).code).toBe(0);
  });

  test("the orphan sweep releases bytes stored and never linked once ORPHAN_SWEEP_AFTER_H has passed since their last PUT, and removes their object; linked bytes stay", async () => {
    const { config, deps } = await testContext();
    const { user, key } = await makeClient();
    const kb = await newKb(key);
    const [loose, kept] = [bytes(700, 4), bytes(300, 6)];
    await storedFile(key, kb.id, loose);
    await storedFile(key, kb.id, kept);
    await pushed2(key, kb.id, [upsertFile("kept.bin", kept)]);
    expect(await imageStorage(key)).toBe(1000);
    // A blob's row is stamped by the app's clock (which other tests of the process may have
    // moved ahead), its object by the wall clock: the sweep's clock starts at the later.
    const w = await stoppedWorld(Math.max(Date.now(), deps.clock.nowMs()));
    w.clock.advance(config.ORPHAN_SWEEP_AFTER_H * HOUR - 10 * 60_000);
    expect((await w.runner.runNow("orphan-sweep")).outcome).toBe("ok");
    expect(await imageStorage(key)).toBe(1000);
    expect(await fileObjects(user.id)).toHaveLength(2);
    w.clock.advance(11 * 60_000);
    const run = await w.runner.runNow("orphan-sweep");
    expect(run.counts!.released).toBeGreaterThanOrEqual(1);
    expect(await imageStorage(key)).toBe(300);
    expect((await head(key, kb.id, hashOf(loose))).status).toBe(404);
    expect(await fileObjects(user.id)).toHaveLength(1);
    expect(new Uint8Array(await (await rawFile(key, kb.id, "kept.bin")).arrayBuffer())).toEqual(kept);
  });

  test("an account's deletion leaves no file object once the sweep has run past its cutoff", async () => {
    const { config } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key);
    await storedFile(key, kb.id, PNG);
    await pushed2(key, kb.id, [upsertFile("pic.png", PNG)]);
    expect(await fileObjects(user.id)).toHaveLength(1);
    expect((await adminCli("user", "delete", "--email", user.email, "--yes")).code).toBe(0);
    const w = await stoppedWorld(Date.now());
    w.clock.advance(config.ORPHAN_SWEEP_AFTER_H * HOUR + 60_000);
    expect((await w.runner.runNow("orphan-sweep")).outcome).toBe("ok");
    expect(await fileObjects(user.id)).toEqual([]);
  });
});
