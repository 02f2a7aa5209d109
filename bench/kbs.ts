// (g) KB manifest pages and (h) v1 sync pushes, each beside the same SQL run bare through
// the database driver (postgres.js on Postgres, PGlite's own client embedded) in the same
// run, pass after pass.
//   (g) pages of 1000 entries of a KB of 100,000 documents (rows inserted by SQL), walked
//       by 8 connections: pages/s and p99.        target >= 0.5x the bare page query, p99 <= 50 ms
//   (h) 100-op v1 push batches of 2 KiB notes (half new paths, half updates), 4 connections,
//       each a user pushing to its own KB: batches/s and p99.   target >= 0.4x the bare upserts
// The HTTP side's client runs in its own process (bench/kb-load.ts).
import { sql } from "drizzle-orm";
import type { Deps } from "../src/wiring/deps.ts";
import { rowsOf } from "../src/infra/db/index.ts";
import { createApiKey, createUser } from "../src/modules/identity/public.ts";
import { createKb } from "../src/modules/library/public.ts";
import { noteBatch } from "./kb-notes.ts";
import { inProcess, type Measured, measuredInterleave, ownCpu, type Side, serversCpuMs } from "./cpu.ts";
import { startManifestBaseline } from "./manifest-baseline.ts";
import type { Shelf } from "./server.ts";

const DOCS = 100_000;
const PAGE = 1000;
/** Passes of each comparison after its warm-up (BENCH_PASSES: more for a steadier p99). */
const PASSES = Number(process.env.BENCH_PASSES ?? 3);
const SECONDS = 4;
const BASE = Date.parse("2026-01-01T00:00:00.000Z");

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface Timed {
  count: number;
  seconds: number;
  latencies: number[];
}

/** A query runner of the bare driver: postgres.js on Postgres, the embedded client through drizzle otherwise. */
type Bare = Awaited<ReturnType<typeof bareDriver>>;

export async function bareDriver(deps: Deps, connections: number) {
  if (process.env.DATABASE_URL) {
    const postgres = (await import("postgres")).default;
    const client = postgres(process.env.DATABASE_URL, { max: connections, onnotice: () => {} });
    return {
      query: (text: string, params: unknown[]) => client.unsafe(text, params as never[], { prepare: true }) as unknown as Promise<Record<string, unknown>[]>,
      inTransaction: <T>(fn: (q: (text: string, params: unknown[]) => Promise<unknown>) => Promise<T>) =>
        client.begin((tx) => fn((text, params) => tx.unsafe(text, params as never[], { prepare: true }))) as Promise<T>,
      close: () => client.end(),
    };
  }
  // `$n` placeholders as drizzle parameters (the text splits into text, number, text, ...).
  const raw = (text: string, params: unknown[]) =>
    sql.join(
      text.split(/\$(\d+)/).map((part, k) => (k % 2 ? sql`${params[Number(part) - 1]}` : sql.raw(part))),
      sql``,
    );
  return {
    query: async (text: string, params: unknown[]) => rowsOf<Record<string, unknown>>(await deps.db.execute(raw(text, params))),
    inTransaction: <T>(fn: (q: (text: string, params: unknown[]) => Promise<unknown>) => Promise<T>) =>
      deps.db.transaction((tx) => fn((text, params) => tx.execute(raw(text, params)))),
    close: async () => {},
  };
}

/** `workers` loops for `seconds`, each timing every call of `step`. */
export async function timedLoop(workers: number, seconds: number, step: (w: number) => Promise<void>): Promise<Timed> {
  const end = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await step(w);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { count: latencies.length, seconds: (performance.now() - started) / 1000, latencies };
}

/** Runs the load generator (bench/kb-load.ts, its own process) with `options`; its timings. */
export async function runLoad(options: { mode: "manifest" | "sync"; origin: string; seconds: number } & Record<string, unknown>): Promise<Timed> {
  const proc = Bun.spawn(["bun", `${import.meta.dir}/kb-load.ts`, JSON.stringify(options)], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`kb load generator failed: ${out.slice(0, 500)}`);
  const r = JSON.parse(out) as Timed & { errors: number };
  if (r.errors) throw new Error(`${r.errors} ${options.mode} requests failed`);
  return r;
}

const httpLoad = (shelf: Shelf, mode: "manifest" | "sync", kbIds: string[], concurrency: number, run: string, keys?: string[], seconds = SECONDS) =>
  runLoad({ mode, origin: shelf.origin, key: shelf.key, kbIds, seconds, concurrency, run, keys });

export interface KbFigures extends Measured {
  subjectP99: number;
  baselineP99: number;
  /**
   * CPU per request (or bare call) in milliseconds, medians over the passes: of this
   * process (both servers, or the bare driver, run in it; on embedded parts so does the
   * database), and of the Postgres and Redis this process uses (null on embedded parts). Where two sides share the cores with their client and database, the rate
   * moves with the load and this does not: two sides doing the same work spend the same.
   * `cpu` (bench/cpu.ts) is the two together, with their ratio.
   */
  subjectCpuMs: number;
  baselineCpuMs: number;
  subjectServersCpuMs: number | null;
  baselineServersCpuMs: number | null;
}

/** Runs the interleaved passes, keeping each side's p99 and CPU per request beside its rate. */
export async function compare(subject: () => Promise<Timed>, baseline: () => Promise<Timed>, passes = PASSES): Promise<KbFigures> {
  const p99 = { s: [] as number[], b: [] as number[] };
  const cpu = { s: [] as number[], b: [] as number[] };
  const servers = { s: [] as number[], b: [] as number[] };
  const side = (run: () => Promise<Timed>, k: "s" | "b"): Side => ({
    cpu: inProcess(),
    run: async () => {
      const own = ownCpu.read();
      const others = serversCpuMs();
      const t = await run();
      const used = ownCpu.read() - own;
      const othersAfter = serversCpuMs();
      p99[k].push(percentile(t.latencies, 99));
      cpu[k].push(used / t.count);
      if (others !== null && othersAfter !== null) servers[k].push((othersAfter - others) / t.count);
      return { ops: t.count, rate: t.count / t.seconds };
    },
  });
  const out = await measuredInterleave(passes, side(subject, "s"), side(baseline, "b"));
  // The warm-up pass of each side is not reported.
  const after = (xs: number[]) => median(xs.slice(1));
  const orNull = (xs: number[]) => (xs.length > 1 ? after(xs) : null);
  return {
    ...out,
    subjectP99: after(p99.s),
    baselineP99: after(p99.b),
    subjectCpuMs: after(cpu.s),
    baselineCpuMs: after(cpu.b),
    subjectServersCpuMs: orNull(servers.s),
    baselineServersCpuMs: orNull(servers.b),
  };
}

const PAGE_SQL = `select id, relative_path, source_hash, size_bytes, updated_at, deleted_at from documents
  where kb_id = $1 and owner_id = $2 and (updated_at, id) > ($3::timestamptz, $4)
  order by updated_at asc nulls first, id asc nulls first limit ${PAGE + 1}`;
const FIRST_PAGE_SQL = `select id, relative_path, source_hash, size_bytes, updated_at, deleted_at from documents
  where kb_id = $1 and owner_id = $2 order by updated_at asc nulls first, id asc nulls first limit ${PAGE + 1}`;

/** Eight users with a KB each: four push through shelf and four as bare upserts, each connection as its own user, so one user's pushes take turns on that user's usage counters, as they should, and four users' need not. */
export async function newPushers(deps: Deps, label: string) {
  const pushers = await Promise.all(
    Array.from({ length: 8 }, async (_, i) => {
      const u = await createUser(deps, { email: `bench-${crypto.randomUUID()}@example.test`, password: "bench password 123", plan: "pro_plus" });
      const k = await createKb(deps, { ownerId: u.id, name: `${label} ${i}`, slug: `${label}-${i}` });
      return { userId: u.id, kbId: k.id, key: (await createApiKey(deps, u.id, deps.plans.pro_plus, { name: "bench" })).key };
    }),
  );
  return { httpPushers: pushers.slice(0, 4), barePushers: pushers.slice(4) };
}

const UPSERT = `insert into documents (id, owner_id, kb_id, relative_path, path_key, title, filename, format, source_hash, input_hash,
    size_bytes, word_count, image_count, rewritten_count, content, created_at, updated_at)
  values ($1, $2, $3, $4, $4, $5, $6, 'markdown', $7, $7, $8, 300, 0, 0, $9, $10::timestamptz, $10::timestamptz)
  on conflict (owner_id, kb_id, path_key) where kb_id is not null
  do update set content = excluded.content, source_hash = excluded.source_hash, input_hash = excluded.input_hash,
    size_bytes = excluded.size_bytes, title = excluded.title, updated_at = excluded.updated_at
  returning updated_at`;

/** The baseline of a push: the same batches of notes as bare upserts, one statement a note, one transaction a batch. */
export function bareUpserts(bare: Bare, pushers: { userId: string; kbId: string }[], ops: number): Promise<Timed> {
  const known = pushers.map(() => new Map<string, string>());
  let n = 0;
  return timedLoop(pushers.length, SECONDS, async (w) => {
    const batch = noteBatch(`w${w}`, known[w]!, () => n++, ops);
    const now = new Date().toISOString();
    const p = pushers[w]!;
    await bare.inTransaction(async (q) => {
      for (const note of batch) {
        await q(UPSERT, [crypto.randomUUID().slice(0, 21), p.userId, p.kbId, note.path, "Note", "n.md", note.hash, note.content.length, note.content, now]);
        known[w]!.set(note.path, now);
      }
    });
  });
}

/** A user with an API key and a KB of `docs` documents (rows inserted by SQL), analyzed. */
async function manifestKb(shelf: Shelf, docs = DOCS) {
  const { deps } = shelf;
  const user = await createUser(deps, { email: `bench-${crypto.randomUUID()}@example.test`, password: "bench password 123", plan: "pro_plus" });
  const key = (await createApiKey(deps, user.id, deps.plans.pro_plus, { name: "bench" })).key;
  const kb = await createKb(deps, { ownerId: user.id, name: "bench", slug: `bench-${crypto.randomUUID().slice(0, 8)}` });
  await deps.db.execute(sql`
    insert into documents (id, owner_id, kb_id, relative_path, path_key, title, filename, format, source_hash, input_hash,
                           size_bytes, word_count, image_count, rewritten_count, content, created_at, updated_at)
    select ${kb.id.slice(0, 11)} || lpad(i::text, 10, '0'), ${user.id}, ${kb.id}, 'notes/n' || i || '.md', 'notes/n' || i || '.md',
           'Note ' || i, 'n' || i || '.md', 'markdown', encode(sha256(i::text::bytea), 'hex'), encode(sha256(i::text::bytea), 'hex'),
           2048, 300, 0, 0, repeat('x', 2048),
           ${new Date(BASE).toISOString()}::timestamptz, ${new Date(BASE).toISOString()}::timestamptz + i * interval '1 millisecond'
    from generate_series(1, ${docs}) as i`);
  await deps.db.execute(sql`update kbs set doc_count = ${docs}, size_bytes = ${docs * 2048},
    updated_at = ${new Date(BASE + docs).toISOString()}::timestamptz where id = ${kb.id}`);
  await deps.db.execute(sql`analyze documents`);
  return { user, kb, as: { ...shelf, key } };
}

/** (j) against the hand-written Bun.serve doing the same work (bench/manifest-baseline.ts), `passes` of `seconds` each. */
async function againstHandler(shelf: Shelf, bare: Bare, m: Awaited<ReturnType<typeof manifestKb>>, quick: { passes?: number; seconds?: number } = {}) {
  const handler = startManifestBaseline(bare.query, shelf.deps.kv, () => shelf.deps.clock.now());
  return compare(
    () => httpLoad(m.as, "manifest", [m.kb.id], 8, "", undefined, quick.seconds),
    () => httpLoad({ ...m.as, origin: handler.url.origin }, "manifest", [m.kb.id], 8, "", undefined, quick.seconds),
    quick.passes,
  ).finally(() => handler.stop(true));
}

/** (j) against the hand-written handler alone, on a KB of `quick.docs` documents (bench/gate.ts). */
export async function benchManifestHandler(shelf: Shelf, quick: { passes?: number; seconds?: number; docs?: number }) {
  const m = await manifestKb(shelf, quick.docs);
  const bare = await bareDriver(shelf.deps, 8);
  try {
    return await againstHandler(shelf, bare, m, quick);
  } finally {
    await bare.close();
  }
}

/** (j) and (k); `only: "manifest"` runs (j)'s two comparisons alone. */
export async function benchKbs(shelf: Shelf, only?: "manifest") {
  const { deps } = shelf;
  const m = await manifestKb(shelf);
  const { user, kb, as } = m;
  const bare = await bareDriver(deps, 8);
  try {
    const manifest = await compare(
      () => httpLoad(as, "manifest", [kb.id], 8, ""),
      () => {
        const cursors: ([string, string] | null)[] = Array(8).fill(null);
        return timedLoop(8, SECONDS, async (w) => {
          const c = cursors[w];
          const rows = c ? await bare.query(PAGE_SQL, [kb.id, user.id, c[0], c[1]]) : await bare.query(FIRST_PAGE_SQL, [kb.id, user.id]);
          const last = rows.length > PAGE ? rows[PAGE - 1]! : null;
          cursors[w] = last ? [new Date(last.updated_at as string).toISOString(), last.id as string] : null;
        });
      },
    );

    const manifestHandler = await againstHandler(shelf, bare, m);
    if (only === "manifest") return { db: deps.database.kind, manifest, manifestHandler, push: undefined };

    const { httpPushers, barePushers } = await newPushers(deps, "push");
    let pass = 0;
    const push = await compare(
      () =>
        httpLoad(
          as,
          "sync",
          httpPushers.map((p) => p.kbId),
          4,
          `p${pass++}`,
          httpPushers.map((p) => p.key),
        ),
      () => bareUpserts(bare, barePushers, 100),
    );
    return { db: deps.database.kind, manifest, manifestHandler, push };
  } finally {
    await bare.close();
  }
}
