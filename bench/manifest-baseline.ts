// The hand-written baseline of (j): a bare Bun.serve answering GET /v1/kbs/:id/manifest
// (v1, pages of `limit`) as shelf does, with the database driver itself (bareDriver in
// bench/kbs.ts: postgres.js, or PGlite's client) and the same kv call. Per request it
//   - looks the API key up by its SHA-256 (every request: it caches nothing), and refuses
//     a revoked key or one without kb.read;
//   - counts the request in the read tier's sliding window (kv.slidingWindow);
//   - checks the owner's plan is active and reads the KB's stamp (its updated_at), then
//     the page of documents after the cursor, oldest change first;
//   - answers the same envelope: { success, data: { kbId, items, nextCursor, serverTime } }.
// What it leaves out, as a hand-written handler would: the router, the request schema, the
// v1 sunset headers, the 5 MB page cut, the access log.
import type { Deps } from "../src/wiring/deps.ts";

type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

const KEY_BY_HASH = "select user_id, scopes, revoked_at from api_keys where key_hash = $1";
const PLAN = "select plan, plan_expires_at from users where id = $1";
const KB = "select updated_at from kbs where id = $1 and owner_id = $2";
const COLUMNS = "select id, relative_path, source_hash, size_bytes, updated_at, deleted_at from documents";
const FIRST = `${COLUMNS} where kb_id = $1 and owner_id = $2 order by updated_at asc nulls first, id asc nulls first limit $3`;
const AFTER = `${COLUMNS} where kb_id = $1 and owner_id = $2 and (updated_at, id) > ($3::timestamptz, $4) order by updated_at asc nulls first, id asc nulls first limit $5`;

const sha256Hex = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
const iso = (d: unknown) => (d instanceof Date ? d : new Date(d as string)).toISOString();
const error = (status: number, code: string, message: string) =>
  Response.json({ success: false, error: message, code, meta: {} }, { status, headers: { "x-request-id": crypto.randomUUID() } });

export function startManifestBaseline(query: Query, kv: Deps["kv"], now: () => Date) {
  return Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const kbId = /^\/v1\/kbs\/([^/]+)\/manifest$/.exec(url.pathname)?.[1];
      if (!kbId) return error(404, "NOT_FOUND", "no such route");
      const m = /^Bearer (sk_live_[A-Za-z0-9_-]{32})$/.exec(req.headers.get("authorization") ?? "");
      if (!m) return error(401, "UNAUTHORIZED", "missing or invalid credentials");
      const [key] = await query(KEY_BY_HASH, [sha256Hex(m[1]!)]);
      if (!key || key.revoked_at) return error(401, "UNAUTHORIZED", "missing or invalid credentials");
      if (!(key.scopes as string[]).includes("kb.read")) return error(403, "FORBIDDEN", "this credential lacks the kb.read scope");
      const userId = key.user_id as string;
      const w = await kv.slidingWindow(`rl:read:${userId}`, 1_000_000, 60_000, Date.now());
      if (!w.allowed) return error(429, "RATE_LIMITED", "rate limit exceeded");
      const limit = Number(url.searchParams.get("limit") ?? 200);
      const cursor = url.searchParams.get("cursor");
      const after = cursor ? (JSON.parse(Buffer.from(cursor, "base64url").toString()) as [string, string]) : null;
      const [[user], [kb]] = await Promise.all([query(PLAN, [userId]), query(KB, [kbId, userId])]);
      if (!kb) return error(404, "NOT_FOUND", "kb not found");
      if (user?.plan_expires_at && new Date(user.plan_expires_at as string) < now()) return error(403, "PLAN_INACTIVE", "plan inactive");
      const rows = after ? await query(AFTER, [kbId, userId, after[0], after[1], limit + 1]) : await query(FIRST, [kbId, userId, limit + 1]);
      const page = rows.length > limit ? rows.slice(0, limit) : rows;
      const last = rows.length > limit ? page[page.length - 1]! : null;
      const items = page.map((r) => ({
        relativePath: r.relative_path,
        sourceHash: r.deleted_at ? null : r.source_hash,
        sizeBytes: r.deleted_at ? null : Number(r.size_bytes),
        updatedAt: r.deleted_at ? null : iso(r.updated_at),
        deletedAt: r.deleted_at ? iso(r.deleted_at) : null,
      }));
      const nextCursor = last ? Buffer.from(JSON.stringify([iso(last.updated_at), last.id])).toString("base64url") : null;
      const body = JSON.stringify({ success: true, data: { kbId, items, nextCursor, serverTime: iso(kb.updated_at) } });
      return new Response(body, { headers: { "content-type": "application/json", "x-request-id": crypto.randomUUID() } });
    },
  });
}
