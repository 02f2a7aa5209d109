// (g) The authenticated images list (GET /v1/images?limit=20 with an API key, 16
// connections) against a hand-written baseline doing the same work: a bare Bun.serve and
// the database driver itself (postgres.js on Postgres, with a pool of the same size; on
// embedded parts the very PGlite client shelf's drizzle is given, deps.db.$client) and the
// same kv call. Per request the
// baseline
//   - looks the key up by its SHA-256 in api_keys (every request: it caches nothing), and
//     refuses a revoked key or one without media.read;
//   - counts the request in the read tier's sliding window (kv.slidingWindow, the call
//     shelf's limiter makes: Redis when REDIS_URL is set), with the same RateLimit headers;
//   - reads a 20-row keyset page of the user's images not in the trash (the columns shelf reads, newest
//     first, as a prepared statement) and the library's total from the usage counter, in parallel;
//   - answers the same JSON, byte for byte: checked against shelf's answer before timing.
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import type { WindowResult } from "../src/infra/kv/index.ts";
import type { Deps } from "../src/wiring/deps.ts";
import { inProcess, measuredInterleave } from "./cpu.ts";
import { httpPass } from "./http-load.ts";
import { startShelf } from "./server.ts";

const WINDOW_MS = 60_000;
// High enough that neither side is refused during the run; both count every request.
const READ_LIMIT = 1_000_000;
const IMAGES = 100;
const SECONDS = 3;
const EXT: Record<string, string> = { jpeg: "jpg", png: "png", webp: "webp", gif: "gif", avif: "avif", svg: "svg" };

export type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

const KEY_BY_HASH = "select id, user_id, scopes, revoked_at from api_keys where key_hash = $1";
const FIRST_PAGE =
  "select id, format, filename, size, width, height, is_public, tags, placeholder, created_at from images where owner_id = $1 and trashed_at is null order by created_at desc nulls last, id desc nulls last limit $2";
const TOTAL = "select value from usage_counters where user_id = $1 and period = 'total' and dimension = 'image_count'";

const sha256Hex = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
const cursorOf = (createdAt: Date, id: string) => Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString("base64url");
const error = (status: number, code: string, message: string) =>
  Response.json({ success: false, error: message, code, meta: {} }, { status, headers: { "x-request-id": crypto.randomUUID() } });

/**
 * What a hand-written baseline does before its work, as shelf's guard does: the API key
 * looked up by its SHA-256 (every request: it caches nothing), a revoked key or one without
 * `scope` refused, the request counted in the read tier's sliding window (kv.slidingWindow:
 * Redis when REDIS_URL is set). The caller's user id and window, or the refusal.
 */
export async function authorizeRead(req: Request, query: Query, kv: Deps["kv"], scope: string): Promise<Response | { userId: string; w: WindowResult }> {
  const m = /^Bearer (sk_live_[A-Za-z0-9_-]{32})$/.exec(req.headers.get("authorization") ?? "");
  if (!m) return error(401, "UNAUTHORIZED", "missing or invalid credentials");
  const [key] = await query(KEY_BY_HASH, [sha256Hex(m[1]!)]);
  if (!key) return error(401, "UNAUTHORIZED", "missing or invalid credentials");
  if (key.revoked_at) return error(401, "API_KEY_REVOKED", "this API key was revoked");
  if (!(key.scopes as string[]).includes(scope)) return error(403, "FORBIDDEN", `this credential lacks the ${scope} scope`);
  const userId = key.user_id as string;
  const w = await kv.slidingWindow(`rl:read:${userId}`, READ_LIMIT, WINDOW_MS, Date.now());
  if (!w.allowed) return error(429, "RATE_LIMITED", "rate limit exceeded");
  return { userId, w };
}

/** A JSON answer's headers as shelf sends them: a request id and the window's RateLimit headers. */
export const jsonHeaders = (w: WindowResult) => ({
  "content-type": "application/json",
  "x-request-id": crypto.randomUUID(),
  "ratelimit-limit": String(w.limit),
  "ratelimit-remaining": String(w.remaining),
  "ratelimit-reset": String(Math.ceil(w.resetMs / 1000)),
});

/** The baseline server: GET /v1/images?limit=N (first pages only: that is what is timed). */
function startBaseline(query: Query, kv: Deps["kv"], mediaUrl: string) {
  return Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const auth = await authorizeRead(req, query, kv, "media.read");
      if (auth instanceof Response) return auth;
      const { userId, w } = auth;
      const limit = Number(new URL(req.url).searchParams.get("limit") ?? 20);
      const [rows, [counter]] = await Promise.all([query(FIRST_PAGE, [userId, limit + 1]), query(TOTAL, [userId])]);
      const more = rows.length > limit;
      const page = more ? rows.slice(0, limit) : rows;
      const items = page.map((r) => {
        const url = `${mediaUrl}/${r.id}.${EXT[r.format as string]}`;
        return {
          id: r.id,
          url,
          filename: r.filename,
          size: Number(r.size),
          width: r.width,
          height: r.height,
          is_public: r.is_public,
          tags: r.tags,
          thumbnail_url: r.format === "svg" ? url : `${url}?w=256`,
          placeholder: (r.placeholder as string | null) || null,
          created_at: (r.created_at as Date).toISOString(),
        };
      });
      const last = page[page.length - 1];
      const nextCursor = more && last ? cursorOf(last.created_at as Date, last.id as string) : null;
      const body = JSON.stringify({ success: true, data: { items, nextCursor, total: Number(counter?.value ?? 0) } });
      return new Response(body, { headers: jsonHeaders(w) });
    },
  });
}

/** A shelf api of its own (own DATA_DIR, the read tier raised for the load) and the baseline beside it on the same parts. */
async function startListBench() {
  const shelf = await startShelf({ RATE_LIMITS: JSON.stringify({ read: READ_LIMIT }) });
  const { deps, origin, key, userId } = shelf;
  const { config } = deps;
  // A library of IMAGES rows by SQL (no uploads), with the count an upload keeps beside them.
  const prefix = `L${crypto.randomUUID().slice(0, 4)}`;
  await deps.db.execute(sql`
    insert into images (id, owner_id, filename, format, width, height, size, webp_size, tags, created_at, updated_at)
    select ${prefix} || lpad(i::text, 6, '0'), ${userId}, 'photo ' || i || '.jpg', 'jpeg', 1200 + i, 800, 150000 + i, 90000,
           case when i % 3 = 0 then array['cats', 'y' || i] else '{}'::text[] end,
           '2026-01-01T00:00:00.000Z'::timestamptz + i * interval '1 second', '2026-01-01T00:00:00.000Z'::timestamptz
    from generate_series(1, ${IMAGES}::int) as i`);
  await deps.db.execute(sql`
    insert into usage_counters (user_id, period, dimension, value) values (${userId}, 'total', 'image_count', ${IMAGES})
    on conflict (user_id, period, dimension) do update set value = usage_counters.value + excluded.value`);

  let pg: ReturnType<typeof postgres> | undefined;
  let query: Query;
  if (deps.database.kind === "postgres") {
    // Its own pool, as large as shelf's; postgres.js prepares every statement.
    pg = postgres(config.DATABASE_URL!, { max: config.DATABASE_POOL_MAX, onnotice: () => {} });
    const client = pg;
    query = (text, params) => client.unsafe(text, params as never[], { prepare: true }) as unknown as Promise<Record<string, unknown>[]>;
  } else {
    const client = (deps.db as unknown as { $client: PGlite }).$client;
    query = async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows;
  }
  const baseline = startBaseline(query, deps.kv, config.MEDIA_URL);
  const url = (o: string) => `${o}/v1/images?limit=20`;
  return {
    db: deps.database.kind,
    kv: deps.kv.kind,
    key,
    shelfUrl: url(origin),
    baselineUrl: url(baseline.url.origin),
    async stop() {
      await baseline.stop(true);
      await pg?.end({ timeout: 5 });
      await shelf.stop();
    },
  };
}

/** The two bodies and the headers that matter must be the same: the comparison cannot drift. */
async function assertSameAnswer(shelfUrl: string, baselineUrl: string, key: string) {
  const get = async (u: string) => {
    const res = await fetch(u, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, type: res.headers.get("content-type"), limit: res.headers.get("ratelimit-limit"), body: await res.text() };
  };
  const [a, b] = [await get(shelfUrl), await get(baselineUrl)];
  if (a.status !== 200 || b.status !== 200) throw new Error(`list bench: status ${a.status} (shelf), ${b.status} (baseline): ${a.body} ${b.body}`);
  if (a.body !== b.body) throw new Error(`list bench: the bodies differ\n  shelf:    ${a.body.slice(0, 400)}\n  baseline: ${b.body.slice(0, 400)}`);
  if (a.limit !== b.limit || !a.type?.startsWith("application/json") || !b.type?.startsWith("application/json")) {
    throw new Error(`list bench: headers differ: ${JSON.stringify([a, b].map(({ type, limit }) => ({ type, limit })))}`);
  }
  const n = (JSON.parse(a.body) as { data: { items: unknown[] } }).data.items.length;
  if (n !== 20) throw new Error(`list bench: ${n} items, not 20`);
}

export async function benchList(passes = 5, seconds = SECONDS) {
  const bench = await startListBench();
  try {
    await assertSameAnswer(bench.shelfUrl, bench.baselineUrl, bench.key);
    const opts = { bearer: bench.key, concurrency: 16, accept: "application/json", seconds };
    // Beside the rates: the CPU this process (both servers; the load runs elsewhere) and
    // Postgres and Redis when they are on this machine spent per request of each, which a
    // machine busy with other work disturbs less.
    const run = await measuredInterleave(
      passes,
      { run: () => httpPass(bench.shelfUrl, opts), cpu: inProcess() },
      { run: () => httpPass(bench.baselineUrl, opts), cpu: inProcess() },
    );
    return { db: bench.db, kv: bench.kv, ...run };
  } finally {
    await bench.stop();
  }
}

if (import.meta.main) {
  const r = await benchList(Number(process.env.PASSES ?? 3));
  console.log(JSON.stringify(r));
}
