// The database image (src/infra/db/pg-image.ts): what is packed is unpacked byte for byte,
// empty folders included (Postgres needs them), and a start
// interrupted half-way is recognised (no PG_VERSION) and unpacked again.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hasDatabase, packImage, restoreImage } from "../../src/infra/db/pg-image.ts";
import { tempDir } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

function sampleDataDir(): string {
  const dir = tempDir("shelf-image-src-");
  writeFileSync(join(dir, "PG_VERSION"), "18\n");
  mkdirSync(join(dir, "base/5"), { recursive: true });
  mkdirSync(join(dir, "pg_tblspc"));
  mkdirSync(join(dir, "pg_logical/snapshots"), { recursive: true });
  const wal = new Uint8Array(16 * 8192);
  wal.set([1, 2, 3], 8192 * 3 + 10); // one page with data among zero pages
  mkdirSync(join(dir, "pg_wal"));
  writeFileSync(join(dir, "pg_wal/000000010000000000000001"), wal);
  writeFileSync(join(dir, "base/5/1259"), crypto.getRandomValues(new Uint8Array(8192 * 2 + 100)));
  writeFileSync(join(dir, "shelf.pid"), "123");
  return dir;
}

test("an image unpacks to the same files and folders, without what was skipped", async () => {
  const src = sampleDataDir();
  const image = await packImage(src, (p) => p === "shelf.pid");
  const dst = tempDir("shelf-image-dst-");
  expect(hasDatabase(dst)).toBe(false);
  await restoreImage(image, dst);
  expect(hasDatabase(dst)).toBe(true);
  for (const f of ["PG_VERSION", "base/5/1259", "pg_wal/000000010000000000000001"]) {
    expect(Buffer.compare(readFileSync(join(dst, f)), readFileSync(join(src, f)))).toBe(0);
  }
  expect(statSync(join(dst, "pg_tblspc")).isDirectory()).toBe(true);
  expect(readdirSync(join(dst, "pg_logical"))).toEqual(["snapshots"]);
  expect(existsSync(join(dst, "shelf.pid"))).toBe(false);
  expect(existsSync(join(dst, ".image"))).toBe(false);
});

test("a folder left half-unpacked (no PG_VERSION) is unpacked again over what is there", async () => {
  const image = await packImage(sampleDataDir(), (p) => p === "shelf.pid");
  const dst = tempDir("shelf-image-dst-");
  mkdirSync(join(dst, "base/5"), { recursive: true });
  writeFileSync(join(dst, "base/5/1259"), "partial");
  mkdirSync(join(dst, ".image/stale"), { recursive: true });
  writeFileSync(join(dst, "shelf.pid"), "456"); // the lock of the process unpacking
  await restoreImage(image, dst);
  expect(readFileSync(join(dst, "base/5/1259")).length).toBe(8192 * 2 + 100);
  expect(readFileSync(join(dst, "shelf.pid"), "utf8")).toBe("456");
  expect(existsSync(join(dst, ".image"))).toBe(false);
});
