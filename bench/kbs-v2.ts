// (l) v2 incremental manifest and (m) 200-op v2 pushes, each beside the same SQL run bare
// through the database driver in the same run, pass after pass (as (j) and (k), bench/kbs.ts).
//   (l) a KB of 100,000 documents and 1000 tombstones; 8 connections each walk the v2
//       manifest from a since cursor half-way in (50 pages of 1000), include=tombstones, the
//       last page carrying the tombstones: pages/s and p99.     target >= 0.5x the bare queries, p99 <= 50 ms
//   (m) 200-op v2 push batches of 2 KiB notes (sourceHash on each, half new paths, half
//       updates), 4 connections, each a user pushing to its own KB.  target >= 0.4x the bare upserts, p99 <= 50 ms
import { sql } from "drizzle-orm";
import { encodeCursor } from "../src/core/cursor.ts";
import { createKb } from "../src/modules/library/public.ts";
import { bareDriver, bareUpserts, compare, newPushers, runLoad, timedLoop } from "./kbs.ts";
import type { Shelf } from "./server.ts";

const DOCS = 100_000;
const TOMBSTONES = 1000;
const PAGE = 1000;
const SECONDS = 4;

const httpLoad = (shelf: Shelf, options: { mode: "manifest" | "sync" } & Record<string, unknown>) =>
  runLoad({ origin: shelf.origin, seconds: SECONDS, version: 2, ...options });

const PAGE_SQL = `select id, relative_path, source_hash, size_bytes, updated_at, deleted_at from documents
  where kb_id = $1 and owner_id = $2 and (updated_at, id) > ($3::timestamptz, $4)
  order by updated_at asc nulls first, id asc nulls first limit ${PAGE + 1}`;
const TOMBSTONES_SQL = `select doc_id, relative_path, source_hash, deleted_at from doc_tombstones t
  where kb_id = $1 and owner_id = $2 and deleted_at > $3::timestamptz and deleted_at <= $4::timestamptz
    and not exists (select 1 from documents d where d.owner_id = t.owner_id and d.kb_id = t.kb_id and d.path_key = t.path_key
                    and d.deleted_at is null and d.updated_at > t.deleted_at)
  order by deleted_at, id`;

export async function benchKbsV2(shelf: Shelf) {
  const { deps } = shelf;
  const { userId, key } = await shelf.newUserKey();
  const kb = await createKb(deps, { ownerId: userId, name: "bench v2", slug: `bench-v2-${crypto.randomUUID().slice(0, 8)}` });
  // Within the plan's tombstone retention: a day ago, a millisecond a document.
  const base = Date.now() - 86_400_000;
  const at = (ms: number) => new Date(base + ms).toISOString();
  await deps.db.execute(sql`
    insert into documents (id, owner_id, kb_id, relative_path, path_key, title, filename, format, source_hash, input_hash,
                           size_bytes, word_count, image_count, rewritten_count, content, created_at, updated_at)
    select ${kb.id.slice(0, 11)} || lpad(i::text, 10, '0'), ${userId}, ${kb.id}, 'notes/n' || i || '.md', 'notes/n' || i || '.md',
           'Note ' || i, 'n' || i || '.md', 'markdown', encode(sha256(i::text::bytea), 'hex'), encode(sha256(i::text::bytea), 'hex'),
           2048, 300, 0, 0, repeat('x', 2048), ${at(0)}::timestamptz, ${at(0)}::timestamptz + i * interval '1 millisecond'
    from generate_series(1, ${DOCS}) as i`);
  await deps.db.execute(sql`
    insert into doc_tombstones (id, owner_id, kb_id, doc_id, relative_path, path_key, source_hash, deleted_at)
    select 'tomb' || lpad(i::text, 17, '0'), ${userId}, ${kb.id}, 'gone' || lpad(i::text, 17, '0'), 'gone/g' || i || '.md', 'gone/g' || i || '.md',
           encode(sha256(i::text::bytea), 'hex'), ${at(DOCS)}::timestamptz + i * interval '1 millisecond'
    from generate_series(1, ${TOMBSTONES}) as i`);
  const stamp = at(DOCS + TOMBSTONES);
  await deps.db.execute(sql`update kbs set doc_count = ${DOCS}, size_bytes = ${DOCS * 2048}, updated_at = ${stamp}::timestamptz where id = ${kb.id}`);
  await deps.db.execute(sql`analyze documents`);
  await deps.db.execute(sql`analyze doc_tombstones`);
  // Half-way in: document DOCS/2.
  const sinceAt = at(DOCS / 2);
  const sinceId = `${kb.id.slice(0, 11)}${String(DOCS / 2).padStart(10, "0")}`;
  const since = encodeCursor([sinceAt, sinceId]);

  const bare = await bareDriver(deps, 8);
  try {
    const manifest = await compare(
      () => httpLoad(shelf, { mode: "manifest", key, kbIds: [kb.id], since, tombstones: TOMBSTONES, concurrency: 8, run: "" }),
      () => {
        const cursors: [string, string][] = Array.from({ length: 8 }, () => [sinceAt, sinceId]);
        return timedLoop(8, SECONDS, async (w) => {
          const [t, id] = cursors[w]!;
          const rows = await bare.query(PAGE_SQL, [kb.id, userId, t, id]);
          if (rows.length > PAGE) {
            const last = rows[PAGE - 1]!;
            cursors[w] = [new Date(last.updated_at as string).toISOString(), last.id as string];
            return;
          }
          const tombs = await bare.query(TOMBSTONES_SQL, [kb.id, userId, sinceAt, stamp]);
          if (tombs.length !== TOMBSTONES) throw new Error(`bare tombstones: ${tombs.length}`);
          cursors[w] = [sinceAt, sinceId];
        });
      },
    );

    const { httpPushers, barePushers } = await newPushers(deps, "push-v2");
    let pass = 0;
    const push = await compare(
      () =>
        httpLoad(shelf, {
          mode: "sync",
          key,
          kbIds: httpPushers.map((p) => p.kbId),
          keys: httpPushers.map((p) => p.key),
          concurrency: 4,
          run: `v2p${pass++}`,
        }),
      () => bareUpserts(bare, barePushers, 200),
    );
    return { db: deps.database.kind, manifest, push };
  } finally {
    await bare.close();
  }
}
