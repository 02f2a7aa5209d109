// (y) A million of everything: 1,000 users with 1,000 images each and a KB of 1,000
// notes each (1,000,000 images, 1,000,000 notes) in one database, against the same shape
// at 10,000 (10 users) in another of the same Postgres, each served by a shelf node of
// its own (bench/api-process.ts). Every list's first page and a page half-way in (by its
// cursor), a KB's manifest page, a v2 pull from a since cursor, a search, the trash and
// the usage read, as one user of each database asks them over HTTP (API key, 8
// connections from a process of their own), passes interleaved: p50 and p99 at 1M and at
// 10k and their ratio, each node's CPU per request (from /proc), the load average. Then
// the search at 1M against a hand-written postgres.js query on the same index returning
// the same rows, and the plans of every query at 1M (auto_explain) into docs/plans-1m.md.
// Each user also has 100 audio tracks (what /v1/media lists), 20 documents outside any KB
// and two empty KBs (so the KB list at limit=1 has a next page); bench/million-seed.ts.
//   bash scripts/real-parts.sh bun bench/million.ts      (Postgres only)
// MILLION_USERS (default 1000) scales the large side; BENCH_PASSES (6) and
// MILLION_SECONDS (2) the passes; MILLION_REUSE=1 measures databases an earlier run of
// this script seeded (on a Postgres of your own, DATABASE_URL) instead of seeding again.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { storedKinds } from "../jobs/index.ts";
import { loadConfig } from "../src/config.ts";
import { encodeCursor } from "../src/core/cursor.ts";
import { createApiKey, createUser } from "../src/modules/identity/public.ts";
import { verifyUsage } from "../src/modules/usage/public.ts";
import { closeDeps, createDeps, type Deps } from "../src/wiring/deps.ts";
import { rowsOf } from "../src/infra/db/index.ts";
import { sql } from "drizzle-orm";
import { UNLIMITED_SYNC } from "./server.ts";
import { searchWord, seed, seededIds } from "./million-seed.ts";
import { compareSearch } from "./million-fts.ts";
import { writePlans } from "./million-plans.ts";
import { type Prepared, runLoad, type Side, startNode } from "./million-node.ts";

const URL0 = process.env.DATABASE_URL;
if (!URL0) throw new Error("(y) needs Postgres: bash scripts/real-parts.sh bun bench/million.ts");
const BIG_USERS = Number(process.env.MILLION_USERS ?? 1000);
const SMALL_USERS = 10;
const PASSES = Number(process.env.BENCH_PASSES ?? 6);
const SECONDS = Number(process.env.MILLION_SECONDS ?? 2);
const CONNECTIONS = 8;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;
const urlOf = (name: string) => Object.assign(new URL(URL0), { pathname: `/${name}` }).toString();
const log = (s: string) => console.log(`    ${s}`);

/** A database of `users` seeded users, its measured user (the middle one) and an API key of theirs. */
async function prepare(name: string, users: number, now: Date): Promise<Prepared> {
  const admin = postgres(URL0!, { max: 1, onnotice: () => {} });
  // MILLION_REUSE=1: a database this script seeded before is used as it is (while changing shelf).
  const reuse = process.env.MILLION_REUSE === "1" && (await admin`select 1 from pg_database where datname = ${name}`).length > 0;
  if (!reuse) {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
  }
  await admin.end();
  const url = urlOf(name);
  const dataDir = mkdtempSync(join(tmpdir(), "shelf-bench-million-"));
  const deps = await createDeps(
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error", PUBLIC_URL: "http://127.0.0.1", DATABASE_URL: url, JWT_SECRET: "bench-secret-".padEnd(40, "x") }),
  );
  try {
    if (reuse) return { name, url, users, ...(await keyOf(deps, users)) };
    const template = await createUser(deps, { email: `template-${crypto.randomUUID()}@example.test`, password: "bench password 123", plan: "pro_plus" });
    const db = postgres(url, { max: 1 });
    const [row] = await db<{ hash: string }[]>`select password_hash as hash from users where id = ${template.id}`;
    await db.end();
    const hash = row!.hash;
    console.log(`  seeding ${name}: ${users} users x (1000 images, 100 audio tracks, a KB of 1000 notes)`);
    const took = await seed(url, users, hash, now, log);
    log(
      `seeded in ${took.seconds.toFixed(0)} s (rows ${took.rowsSeconds.toFixed(0)} s, ${took.indexes} indexes ${took.indexSeconds.toFixed(0)} s, then vacuum analyze), load ${load()}`,
    );
    const v = await verifyUsage(deps.db, storedKinds);
    log(`usage verify: ${v.users} users, ${v.differences.length} counters differ from their rows`);
    return { name, url, users, ...(await keyOf(deps, users)) };
  } finally {
    await closeDeps(deps);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The measured user (the middle one) and a new API key of theirs. */
async function keyOf(deps: Deps, users: number) {
  const u = Math.floor(users / 2);
  const userId = seededIds.user(u);
  const { key } = await createApiKey(deps, userId, deps.plans.pro_plus, { name: "bench" });
  // Read back rather than computed: a reused database was seeded at another `now`.
  const [row] = rowsOf<{ at: Date | string }>(await deps.db.execute(sql`select updated_at as at from documents where id = ${seededIds.note(u, 500)}`));
  return { u, userId, key, note500At: new Date(row!.at).toISOString() };
}

interface Case {
  name: string;
  /** The path and query asked, per side; and any headers. */
  path: (s: Side) => string;
  headers?: Record<string, string>;
}

/** The cursor of the page half-way through a list of about `pages` pages (following nextCursor). */
async function halfWay(s: Side, path: string, pages: number): Promise<string> {
  let cursor: string | null = null;
  for (let i = 0; i < Math.max(1, Math.floor(pages / 2)); i++) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await fetch(`${s.origin}${path}${cursor ? `${sep}cursor=${cursor}` : ""}`, { headers: { authorization: `Bearer ${s.db.key}` } });
    const body = (await res.json()) as { data: { nextCursor: string | null } };
    if (res.status !== 200 || !body.data.nextCursor) throw new Error(`${path}: no next page after ${i + 1} (${res.status})`);
    cursor = body.data.nextCursor;
  }
  return cursor!;
}

async function casesFor(sides: Side[]): Promise<Case[]> {
  const lists: [string, string, number][] = [
    ["images", "/v1/images", 49],
    ["media", "/v1/media", 5],
    ["docs", "/v1/docs", 50],
    ["kbs (limit=1)", "/v1/kbs?limit=1", 2],
    ["KB documents", "/v1/docs?kbId=KB", 50],
    ["trash", "/v1/trash", 2],
  ];
  const cursors = new Map<string, string>();
  const kbPath = (s: Side, p: string) => p.replace("KB", seededIds.kb(s.db.u));
  for (const s of sides) for (const [name, path, pages] of lists) cursors.set(`${s.db.name}:${name}`, await halfWay(s, kbPath(s, path), pages));
  const sep = (p: string) => (p.includes("?") ? "&" : "?");
  const since = (s: Side) => encodeCursor([s.db.note500At, seededIds.note(s.db.u, 500)]);
  return [
    ...lists.flatMap(([name, path]): Case[] => [
      { name: `${name}: first page`, path: (s) => kbPath(s, path) },
      { name: `${name}: next page`, path: (s) => `${kbPath(s, path)}${sep(path)}cursor=${cursors.get(`${s.db.name}:${name}`)}` },
    ]),
    { name: "KB manifest, 1000 entries (v1)", path: (s) => `/v1/kbs/${seededIds.kb(s.db.u)}/manifest?limit=1000` },
    {
      name: "v2 pull from a since cursor + tombstones",
      path: (s) => `/v1/kbs/${seededIds.kb(s.db.u)}/manifest?limit=1000&include=tombstones&since=${since(s)}`,
      headers: { "service-sync-version": "2" },
    },
    { name: `search "${searchWord()}"`, path: () => `/v1/docs/search?q=${searchWord()}` },
    { name: "usage read", path: () => "/v1/user/me/usage" },
  ];
}

/** One pass of `c` against one side: latencies and the node's CPU ms per request. */
async function pass(s: Side, c: Case) {
  const cpu0 = s.cpuMs();
  const r = await runLoad({ url: `${s.origin}${c.path(s)}`, key: s.db.key, seconds: SECONDS, concurrency: CONNECTIONS, headers: c.headers });
  return { latencies: r.latencies, cpuMs: (s.cpuMs() - cpu0) / r.count };
}

async function compareCase(small: Side, big: Side, c: Case) {
  const lat = { small: [] as number[], big: [] as number[] };
  const cpu = { small: [] as number[], big: [] as number[] };
  const loads: number[] = [];
  for (let i = 0; i <= PASSES; i++) {
    const a = await pass(small, c);
    const b = await pass(big, c);
    loads.push(loadavg()[0]!);
    if (i === 0) continue; // warm-up
    lat.small.push(...a.latencies);
    lat.big.push(...b.latencies);
    cpu.small.push(a.cpuMs);
    cpu.big.push(b.cpuMs);
  }
  const med = (xs: number[]) => pct(xs, 50);
  return {
    name: c.name,
    small: { p50: pct(lat.small, 50), p99: pct(lat.small, 99), cpu: med(cpu.small) },
    big: { p50: pct(lat.big, 50), p99: pct(lat.big, 99), cpu: med(cpu.big) },
    load: `${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`,
  };
}

if (import.meta.main) {
  const now = new Date();
  console.log(`(y) a million of everything: ${BIG_USERS * 1000} images and ${BIG_USERS * 1000} notes against ${SMALL_USERS * 1000} of each`);
  const flags = ["BENCH_PASSES", "MILLION_USERS", "MILLION_SECONDS", "MILLION_REUSE", "MILLION_CASES"]
    .filter((k) => process.env[k])
    .map((k) => `${k}=${process.env[k]} `);
  const via = process.env.MILLION_REUSE === "1" ? `(DATABASE_URL a Postgres of ${new URL(URL0).host})` : "(under scripts/real-parts.sh)";
  console.log(`  command: ${flags.join("")}bun bench/million.ts ${via}; load average at start ${load()}`);
  const small = await prepare("shelf_10k", SMALL_USERS, now);
  const big = await prepare("shelf_1m", BIG_USERS, now);
  const env = { RATE_LIMITS: UNLIMITED_SYNC.RATE_LIMITS };
  const [s, b] = await Promise.all([startNode(small, env), startNode(big, env)]);
  try {
    const cases = await casesFor([s, b]);
    console.log(`\n  ${CONNECTIONS} connections, ${PASSES} passes of ${SECONDS} s each side (after a warm-up pass), interleaved; ms`);
    console.log(
      `  ${"case".padEnd(44)} ${"10k p50/p99".padEnd(14)} ${"1M p50/p99".padEnd(14)} ${"ratio p50/p99".padEnd(14)} ${"node CPU/req 10k, 1M".padEnd(21)} ratio  load`,
    );
    const rows = [];
    // MILLION_CASES=<words>: only the cases whose name contains one of them (no plans; the search
    // comparison only when one of the words is "search").
    const only = process.env.MILLION_CASES?.split(",");
    for (const c of cases.filter((c) => !only || only.some((w) => c.name.includes(w)))) {
      const r = await compareCase(s, b, c);
      rows.push(r);
      const f = (x: number) => x.toFixed(2);
      console.log(
        `  ${r.name.padEnd(44)} ${`${f(r.small.p50)}/${f(r.small.p99)}`.padEnd(14)} ${`${f(r.big.p50)}/${f(r.big.p99)}`.padEnd(14)} ${`${f(r.big.p50 / r.small.p50)}/${f(r.big.p99 / r.small.p99)}`.padEnd(14)} ${`${f(r.small.cpu)}, ${f(r.big.cpu)} ms`.padEnd(21)} ${f(r.big.cpu / r.small.cpu)}   ${r.load}`,
      );
    }
    if (!only || only.includes("search")) await compareSearch(b, SECONDS, PASSES, CONNECTIONS, load);
    if (!only) {
      await writePlans(
        big,
        cases.map((c) => ({ name: c.name, path: c.path(b), headers: c.headers })),
      );
    }
  } finally {
    await Promise.all([s.stop(), b.stop()]);
  }
  console.log(`  load average at the end ${load()}`);
}
