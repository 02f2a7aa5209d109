// (h) The images list on embedded parts against the same on Postgres: GET /v1/images?limit=20
// with an API key, 16 connections from a separate process, a 100-image library, one shelf
// on PGlite (with the in-process kv and local folder storage) and one on the Postgres of
// DATABASE_URL (kv and storage as the other benchmarks' shelf), in the same process, passes
// interleaved. Only with DATABASE_URL set (`make bench-real`). Target: ratio >= 0.5.
import { sql } from "drizzle-orm";
import { httpPass } from "./http-load.ts";
import { costText, inProcess, loadText, measuredInterleave, ownCpu } from "./cpu.ts";
import { ratioText } from "./passes.ts";
import { type Shelf, startShelf } from "./server.ts";

const IMAGES = 100;
const BASE = Date.parse("2026-01-01T00:00:00.000Z");

/** `IMAGES` rows in the key owner's library, as bench/lists.ts makes them (no uploads). */
async function seed(shelf: Shelf, prefix: string): Promise<void> {
  const db = shelf.deps.db;
  await db.execute(sql`
    insert into images (id, owner_id, filename, format, width, height, size, created_at, updated_at)
    select ${prefix} || lpad(i::text, 8, '0'), ${shelf.userId}, 'p.png', 'png', 1, 1, 100,
           ${new Date(BASE).toISOString()}::timestamptz + i * interval '1 second', ${new Date(BASE).toISOString()}::timestamptz
    from generate_series(1, ${IMAGES}::int) as i`);
  await db.execute(sql`
    insert into usage_counters (user_id, period, dimension, value) values (${shelf.userId}, 'total', 'image_count', ${IMAGES})
    on conflict (user_id, period, dimension) do update set value = usage_counters.value + excluded.value`);
  await db.execute(sql`analyze images`);
}

async function benchEmbeddedLists(passes = 5) {
  // The read tier raised so that the load measures the list, not the limiter's refusals.
  const RATE_LIMITS = JSON.stringify({ read: 1_000_000 });
  const embedded = await startShelf({ DATABASE_URL: undefined, REDIS_URL: undefined, RATE_LIMITS });
  const postgres = await startShelf({ RATE_LIMITS });
  try {
    // Ids of 11 characters unique to this run (the Postgres database may hold an earlier run's rows).
    const prefix = () => Array.from(crypto.getRandomValues(new Uint8Array(3)), (b) => "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[b % 26]).join("");
    await seed(embedded, prefix());
    await seed(postgres, prefix());
    const load = (s: Shelf) => () => httpPass(`${s.origin}/v1/images?limit=20`, { concurrency: 16, accept: "application/json", bearer: s.key });
    // CPU per request: this process (both servers, and PGlite), with Postgres and Redis on the Postgres side.
    return await measuredInterleave(passes, { run: load(embedded), cpu: ownCpu }, { run: load(postgres), cpu: inProcess() });
  } finally {
    await embedded.stop();
    await postgres.stop();
  }
}

export async function printEmbeddedLists(): Promise<void> {
  console.log("\n(h) images list on embedded parts against Postgres: GET /v1/images?limit=20 with an API key, 16 connections");
  if (!process.env.DATABASE_URL) {
    console.log("    needs Postgres: run `make bench-real`");
    return;
  }
  const r = await benchEmbeddedLists();
  console.log(`    shelf on PGlite        ${r.subject.toFixed(0)} requests/s`);
  console.log(`    shelf on Postgres      ${r.baseline.toFixed(0)} requests/s`);
  console.log(`    ratio                  ${ratioText(r)}   (target >= 0.5)`);
  console.log(`    ${costText(r.cpu, "req", ["PGlite", "Postgres"])}, ${loadText(r.load)}`);
}

if (import.meta.main) await printEmbeddedLists();
