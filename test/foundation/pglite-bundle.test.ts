// The smaller file bundle `make build` embeds (src/infra/db/pglite-bundle.ts): every file
// kept is byte for byte PGlite's, and PGlite given the bundle with its rewritten file list
// opens an existing database and answers in UTC.
import { expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fsBundleFiles, shelfNeeds, trimmedPgliteBundle } from "../../src/infra/db/pglite-bundle.ts";
import { tempDir, testContext } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const { deps } = await testContext();
const embedded = deps.database.kind === "pglite";
const dist = dirname(Bun.resolveSync("@electric-sql/pglite", import.meta.dir));

test("the trimmed bundle holds the kept files at their new offsets, and only those", () => {
  const original = fsBundleFiles(readFileSync(trimmedPgliteBundle(dist).chunk, "utf8"));
  const data = readFileSync(join(dist, "pglite.data"));
  const trimmed = trimmedPgliteBundle(dist);
  const files = fsBundleFiles(trimmed.js);
  expect(original).not.toBeNull();
  expect(files?.map((f) => f.filename)).toEqual(original?.filter((f) => shelfNeeds(f.filename)).map((f) => f.filename));
  expect(trimmed.js).toContain(`remote_package_size:${trimmed.data.byteLength}}`);
  const byName = new Map(original?.map((f) => [f.filename, f]));
  for (const f of files ?? []) {
    const was = byName.get(f.filename)!;
    expect(Buffer.compare(trimmed.data.subarray(f.start, f.end), data.subarray(was.start, was.end))).toBe(0);
  }
  expect(files?.some((f) => f.filename.endsWith("/timezone/UTC"))).toBe(true);
  expect(files?.some((f) => f.filename.endsWith("/timezone/Europe/Paris"))).toBe(false);
});

test.skipIf(!embedded)("PGlite with the trimmed bundle opens an existing database", async () => {
  // A copy of PGlite's JavaScript with the rewritten chunk, as the build's bundle has it.
  const copy = tempDir("shelf-pglite-trimmed-");
  cpSync(dist, copy, { recursive: true, filter: (f) => !f.endsWith(".tar.gz") && !f.endsWith(".map") });
  const trimmed = trimmedPgliteBundle(dist);
  writeFileSync(join(copy, trimmed.chunk.slice(dist.length + 1)), trimmed.js);
  writeFileSync(join(copy, "pglite.data"), trimmed.data);
  const { PGlite } = (await import(join(copy, "index.js"))) as typeof import("@electric-sql/pglite");

  // The test app's database, as a tarball: opening it runs no initdb (seconds).
  const pg = (deps.db as unknown as { $client: { dumpDataDir(c: "none"): Promise<Blob> } }).$client;
  const later = await PGlite.create({ loadDataDir: await pg.dumpDataDir("none"), fsBundle: new Blob([trimmed.data]) });
  await later.exec("create temporary table t (at timestamptz); insert into t values ('2026-01-02 03:04:05+02')");
  try {
    const { rows } = await later.query<{ at: string; tz: string }>("select at::text as at, current_setting('TimeZone') as tz from t");
    expect(rows).toEqual([{ at: "2026-01-02 01:04:05+00", tz: "UTC" }]);
  } finally {
    await later.close();
  }
});
