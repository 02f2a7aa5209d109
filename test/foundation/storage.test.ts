// The same behaviour from both object stores; S3 runs when S3_BUCKET is set.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createFsStorage } from "../../src/infra/storage/fs.ts";
import { createS3Storage } from "../../src/infra/storage/s3.ts";
import type { Storage } from "../../src/infra/storage/index.ts";
import { tempDir } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const impls: [string, () => Promise<Storage>][] = [["fs", () => createFsStorage(tempDir("shelf-objects-"))]];
if (process.env.S3_BUCKET) {
  impls.push([
    "s3",
    async () =>
      createS3Storage({
        bucket: process.env.S3_BUCKET!,
        endpoint: process.env.S3_ENDPOINT,
        region: process.env.S3_REGION ?? "us-east-1",
        accessKeyId: process.env.S3_ACCESS_KEY_ID!,
        secretAccessKey: process.env.S3_SECRET_ACCESS_KEY!,
      }),
  ]);
}

const text = async (s: ReadableStream<Uint8Array> | null) => (s ? await new Response(s).text() : null);

for (const [name, make] of impls) {
  describe(`storage (${name})`, () => {
    const storeP = make();
    const prefix = `t/${crypto.randomUUID()}`;

    test("put bytes, head, get whole and by range, delete", async () => {
      const s = await storeP;
      const key = `${prefix}/a.txt`;
      expect((await s.put(key, new TextEncoder().encode("hello world"))).size).toBe(11);
      expect((await s.head(key))?.size).toBe(11);
      expect(await text(await s.get(key))).toBe("hello world");
      expect(await text(await s.get(key, { start: 6, end: 10 }))).toBe("world");
      expect(new TextDecoder().decode((await s.read(key))!.subarray(0, 5))).toBe("hello");
      await s.delete(key);
      expect(await s.head(key)).toBeNull();
      expect(await s.get(key)).toBeNull();
      await s.delete(key); // idempotent
    });

    test("read gives the whole object, and null (not an error) when it is absent", async () => {
      const s = await storeP;
      const key = `${prefix}/r.bin`;
      await s.put(key, new Uint8Array([1, 2, 3]));
      expect(await s.read(key)).toEqual(new Uint8Array([1, 2, 3]));
      await s.delete(key);
      expect(await s.read(key)).toBeNull();
      expect(await s.read(`${prefix}/never/written`)).toBeNull();
    });

    test("put a stream without buffering it into one piece", async () => {
      const s = await storeP;
      const key = `${prefix}/stream.bin`;
      const chunk = new Uint8Array(256 * 1024).fill(7);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent >= 24) return c.close();
          sent++;
          c.enqueue(chunk);
        },
      });
      expect((await s.put(key, stream)).size).toBe(24 * chunk.length);
      expect((await s.head(key))?.size).toBe(24 * chunk.length);
      await s.delete(key);
    });

    test("list by prefix finds only that prefix", async () => {
      const s = await storeP;
      await s.put(`${prefix}/l/x/1`, new Uint8Array([1]));
      await s.put(`${prefix}/l/x/2`, new Uint8Array([1, 2]));
      await s.put(`${prefix}/l/y/3`, new Uint8Array([1]));
      const found: string[] = [];
      for await (const o of s.list(`${prefix}/l/x/`)) found.push(o.key);
      expect(found.sort()).toEqual([`${prefix}/l/x/1`, `${prefix}/l/x/2`]);
    });

    test("keys that could escape the root are refused", async () => {
      const s = await storeP;
      for (const bad of ["../x", "a/../../x", "/abs", "a//b", "a/./b", "a\\b", "", "a/..", "%2e%2e/x"]) {
        await expect(s.put(bad, new Uint8Array([1]))).rejects.toThrow(/invalid storage key/);
      }
    });
  });
}

test("a failed stream leaves no object and no temporary file behind", async () => {
  const root = tempDir("shelf-objects-");
  const s = await createFsStorage(root);
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new Uint8Array(10));
      c.error(new Error("client went away"));
    },
  });
  await expect(s.put("a/b", stream)).rejects.toThrow();
  expect(await s.head("a/b")).toBeNull();
  expect(readdirSync(join(root, ".tmp"))).toEqual([]);
});

test("a snapshot of the folder store keeps every object as it was, whatever is deleted, replaced or added next; one left behind goes at the next start", async () => {
  const root = tempDir("shelf-objects-");
  const s = await createFsStorage(root);
  await s.put("a/1", new TextEncoder().encode("one"));
  await s.put("a/b/2", new TextEncoder().encode("two"));
  await s.put("c", new TextEncoder().encode("three"));
  const snap = s.snapshot!();
  expect(snap.objects).toBe(3);
  await s.delete("a/1");
  await s.put("a/b/2", new TextEncoder().encode("replaced"));
  await s.put("d", new TextEncoder().encode("new"));
  const files = readdirSync(snap.dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(snap.dir.length + 1))
    .sort();
  expect(files).toEqual(["a/1", "a/b/2", "c"]);
  expect(await Bun.file(join(snap.dir, "a/b/2")).text()).toBe("two");
  expect(await Bun.file(join(snap.dir, "a/1")).text()).toBe("one");
  // Not an object of the store: nothing lists it.
  const listed: string[] = [];
  for await (const o of s.list("")) listed.push(o.key);
  expect(listed.sort()).toEqual(["a/b/2", "c", "d"]);

  await createFsStorage(root);
  expect(readdirSync(join(root, ".tmp"))).toEqual([]);
});
