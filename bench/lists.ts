// (c) Lists at scale: an images list page of a 100,000-image library (the first page and
// one ~50,000 rows in) against the same pages of a 100-image library, timed in turn in the
// same rounds; and a 100-image library's first page beside the 100,000-image one against
// the same library alone (before the large one exists and after it is gone, so a drift of
// the machine between the phases shows as a spread). Rows are inserted by SQL (no
// uploads). Timed at the service (the page query and its total), where the cost grows
// with the library if it grows at all. Target: each ratio within 1.5x.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { loadConfig } from "../src/config.ts";
import { encodeCursor } from "../src/core/cursor.ts";
import { closeDeps, createDeps, type Deps } from "../src/wiring/deps.ts";
import { createUser } from "../src/modules/identity/public.ts";
import { listImages } from "../src/modules/images/service.ts";
import { median } from "./passes.ts";

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

export interface ScaleFigure {
  /** Median ms at 100 images (or alone), at 100,000 (or beside them), and their ratio. */
  small: number;
  big: number;
  ratio: number;
  /** For "beside": the two "alone" phases, before and after. */
  alone?: [number, number];
}

export async function benchLists(): Promise<{ db: string; first: ScaleFigure; deep: ScaleFigure; beside: ScaleFigure }> {
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
    const [big, hundred, small] = await Promise.all([user(), user(), user()]);
    // Ids unique to this run: a Postgres given by DATABASE_URL may hold an earlier run's.
    const run = crypto.randomUUID().slice(0, 4);
    const [bp, hp, sp] = [`b${run}`, `h${run}`, `s${run}`] as const;
    const deepCursor = (prefix: string, n: number) => {
      const i = Math.floor(n / 2);
      return encodeCursor([new Date(BASE + i * 1000).toISOString(), idOf(prefix, i)]);
    };
    const smallFirst = () => listImages(deps, small.id, { limit: 20 });
    await insertImages(deps, small.id, sp, 1, SMALL);
    await insertImages(deps, hundred.id, hp, 1, SMALL);
    const before = await time({ alone: smallFirst });

    await insertImages(deps, big.id, bp, 1, BIG);
    const [deepBig, deepHundred] = [deepCursor(bp, BIG), deepCursor(hp, SMALL)];
    const beside = await time({
      firstBig: () => listImages(deps, big.id, { limit: 20 }),
      firstHundred: () => listImages(deps, hundred.id, { limit: 20 }),
      deepBig: () => listImages(deps, big.id, { limit: 20, cursor: deepBig }),
      deepHundred: () => listImages(deps, hundred.id, { limit: 20, cursor: deepHundred }),
      beside: smallFirst,
    });
    const deepPage = await listImages(deps, big.id, { limit: 20, cursor: deepBig });
    if (deepPage.items.length !== 20 || deepPage.total !== BIG) throw new Error("lists bench: unexpected pages");

    await deps.db.execute(sql`delete from images where owner_id = ${big.id}`);
    await deps.db.execute(sql`analyze images`);
    const after = await time({ alone: smallFirst });

    const figure = (small: number, big: number, alone?: [number, number]): ScaleFigure => ({ small, big, ratio: big / small, ...(alone && { alone }) });
    // The faster of the two phases: the ratio is then the larger, never flattered by drift.
    const alone = Math.min(before.alone!, after.alone!);
    return {
      db: deps.database.kind,
      first: figure(beside.firstHundred!, beside.firstBig!),
      deep: figure(beside.deepHundred!, beside.deepBig!),
      beside: figure(alone, beside.beside!, [before.alone!, after.alone!]),
    };
  } finally {
    await closeDeps(deps);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
