// (c) Lists at scale: an images list page of a 100,000-image library (the first page and
// one ~50,000 rows in) and a 100-image library's first page beside it, against the same
// three at 100 images each. Rows are inserted by SQL (no uploads). Timed at the service
// (the page query and its total), where the cost grows with the library if it grows at
// all. Target: each ratio within 1.5x.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { loadConfig } from "../src/config.ts";
import { encodeCursor } from "../src/http/cursor.ts";
import { closeDeps, createDeps, type Deps } from "../src/deps.ts";
import { createUser } from "../src/modules/identity/public.ts";
import { listImages } from "../src/modules/images/service.ts";

const BIG = 100_000;
const SMALL = 100;
const ROUNDS = 41;
const WARMUP = 5;
const BASE = Date.parse("2026-01-01T00:00:00.000Z");

const idOf = (prefix: string, i: number) => `${prefix}${String(i).padStart(10, "0")}`;

/** Rows `from`..`to` of a library: image i was made i seconds after BASE. */
async function insertImages(deps: Deps, ownerId: string, prefix: string, from: number, to: number) {
  await deps.db.execute(sql`
    insert into images (id, owner_id, filename, format, width, height, size, created_at, updated_at)
    select ${prefix} || lpad(i::text, 10, '0'), ${ownerId}, 'p.png', 'png', 1, 1, 100,
           ${new Date(BASE).toISOString()}::timestamptz + i * interval '1 second', ${new Date(BASE).toISOString()}::timestamptz
    from generate_series(${from}::int, ${to}::int) as i`);
  // The count an upload would have reserved beside its row.
  await deps.db.execute(sql`
    insert into usage_counters (user_id, period, dimension, value) values (${ownerId}, 'total', 'image_count', ${to - from + 1})
    on conflict (user_id, period, dimension) do update set value = usage_counters.value + excluded.value`);
  await deps.db.execute(sql`analyze images`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Medians in ms of the cases, each run once per round in turn. */
async function time(cases: Record<string, () => Promise<unknown>>): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const [name, run] of Object.entries(cases)) {
      const t0 = Bun.nanoseconds();
      await run();
      if (round >= WARMUP) samples[name]!.push((Bun.nanoseconds() - t0) / 1e6);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

export async function benchLists() {
  const dataDir = mkdtempSync(join(tmpdir(), "shelf-bench-lists-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    PUBLIC_URL: "http://127.0.0.1",
    ...(process.env.DATABASE_URL && { DATABASE_URL: process.env.DATABASE_URL, JWT_SECRET: "bench-secret-".padEnd(40, "x") }),
  });
  const deps = await createDeps(config);
  try {
    const user = () => createUser(deps, { email: `bench-${crypto.randomUUID()}@example.test`, password: "bench password 123", plan: "pro_plus" });
    const [big, small] = await Promise.all([user(), user()]);
    // Ids unique to this run: a Postgres given by DATABASE_URL may hold an earlier run's.
    const run = crypto.randomUUID().slice(0, 4);
    const [bp, sp] = [`b${run}`, `s${run}`] as const;
    const deepCursor = (n: number) => {
      const i = Math.floor(n / 2);
      return encodeCursor([new Date(BASE + i * 1000).toISOString(), idOf(bp, i)]);
    };
    const cases = (n: number) => {
      const deep = deepCursor(n);
      return {
        first: () => listImages(deps, big.id, { limit: 20 }),
        deep: () => listImages(deps, big.id, { limit: 20, cursor: deep }),
        small: () => listImages(deps, small.id, { limit: 20 }),
      };
    };
    await insertImages(deps, big.id, bp, 1, SMALL);
    await insertImages(deps, small.id, sp, 1, SMALL);
    const at100 = await time(cases(SMALL));
    const check = await listImages(deps, big.id, { limit: 20, cursor: deepCursor(BIG) });
    await insertImages(deps, big.id, bp, SMALL + 1, BIG);
    const atBig = await time(cases(BIG));
    const deepAtBig = await listImages(deps, big.id, { limit: 20, cursor: deepCursor(BIG) });
    if (deepAtBig.items.length !== 20 || deepAtBig.total !== BIG || check.total !== SMALL) throw new Error("lists bench: unexpected pages");
    return { db: deps.database.kind, at100, atBig };
  } finally {
    await closeDeps(deps);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
