// The rows of (y) (bench/million.ts), written by SQL in bulk: `users` users, each with
// IMAGES images (some in the trash), AUDIO audio tracks, a few documents outside any KB (some in the trash)
// and one KB of NOTES notes of varied text (and a few tombstones), with the usage
// counters the ledger would hold beside them (checked afterwards by usage verify). The
// secondary indexes of images and documents are dropped during the load and made again
// afterwards from their own definitions, as a bulk load does; foreign keys are not
// checked (session_replication_role), since every key is made here.
import postgres from "postgres";

const IMAGES = 1000;
const NOTES = 1000;
/** Audio tracks per user: /v1/media's items (videos and audio). */
const AUDIO = 100;
/** Documents outside any KB, per user; every TRASH_EVERY-th image and loose document is in the trash. */
const LOOSE_DOCS = 20;
const TRASH_EVERY = 50;
const TOMBSTONES = 10;
/** Distinct words of the notes' vocabulary, drawn with a skew (a few common, most rare). */
const VOCABULARY = 30_000;
const WORDS_PER_NOTE = 80;
/** Users written per statement. */
const CHUNK = 50;

/** Ids of the seeded rows: user u (from 0), item j (from 0). */
export const seededIds = {
  user: (u: number) => `u${String(u).padStart(20, "0")}`,
  kb: (u: number) => `k${String(u).padStart(20, "0")}`,
  note: (u: number, j: number) => `n${String(u).padStart(4, "0")}${String(j).padStart(16, "0")}`,
};

/** The instant the seeded history starts at: 40 days before `now`. */
const baseOf = (now: Date) => new Date(now.getTime() - 40 * 86_400_000).toISOString();

/**
 * A word of the vocabulary by its number: syllables, so the words look like words and no
 * two numbers give the same one.
 */
const SYLLABLES = "ka,lo,mi,ne,ru,sa,te,vo,bi,da,fe,gu,ha,jo,ki,la,me,no,pa,qui,re,si,tu,va,wo,xe,ya,zo,an,el,in,or,ul,ber,cor,dan,fel,gor,hin,jul";
const S = `('{${SYLLABLES}}'::text[])`;
const WORD_SQL = (k: string) => `(${S}[1 + ${k} % 40] || ${S}[1 + (${k} / 40) % 40] || case when ${k} >= 1600 then ${S}[1 + (${k} / 1600) % 40] else '' end)`;

/** The search's word: word 500 of the vocabulary, in about 1.4% of the notes (14 of a user's 1000). */
export function searchWord(): string {
  const s = SYLLABLES.split(",");
  const k = 500;
  return s[k % 40]! + s[Math.floor(k / 40) % 40]!;
}

export async function seed(url: string, users: number, templatePasswordHash: string, now: Date, log: (s: string) => void) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const t0 = performance.now();
  const base = baseOf(now);
  try {
    await sql.unsafe("set session_replication_role = replica");
    await sql.unsafe("set maintenance_work_mem = '1GB'");
    await sql.unsafe("set synchronous_commit = off");
    // The secondary indexes, dropped for the load and made again from their definitions.
    const indexes = await sql<{ name: string; def: string }[]>`
      select indexname as name, indexdef as def from pg_indexes
      where schemaname = 'public' and tablename in ('images', 'documents', 'audio') and indexname not like '%_pkey'`;
    for (const i of indexes) await sql.unsafe(`drop index "${i.name}"`);

    await sql`
      insert into users (id, email, password_hash, plan, created_at, updated_at)
      select 'u' || lpad(u::text, 20, '0'), 'seed-' || u || '@example.test', ${templatePasswordHash}, 'pro_plus', ${base}::timestamptz, ${base}::timestamptz
      from generate_series(0, ${users - 1}) u`;
    await sql`
      insert into kbs (id, owner_id, name, slug, created_at, updated_at)
      select 'k' || lpad(u::text, 20, '0'), 'u' || lpad(u::text, 20, '0'), 'Notes', 'notes', ${base}::timestamptz, ${base}::timestamptz
      from generate_series(0, ${users - 1}) u`;
    // Two empty KBs more each, so the KB list has a next page (at limit=1).
    await sql`
      insert into kbs (id, owner_id, name, slug, created_at, updated_at)
      select 'k' || e || lpad(u::text, 19, '0'), 'u' || lpad(u::text, 20, '0'), 'Empty ' || e, 'empty-' || e, ${base}::timestamptz, ${base}::timestamptz + e * interval '1 second'
      from generate_series(0, ${users - 1}) u, generate_series(1, 2) e`;
    for (let from = 0; from < users; from += CHUNK) {
      const to = Math.min(users, from + CHUNK) - 1;
      // Every user's uploads interleaved in time, as a service's are: item j of user u at
      // base + (j * users + u) seconds.
      await sql`
        insert into images (id, owner_id, filename, format, width, height, size, webp_size, placeholder, created_at, updated_at, trashed_at)
        select 'i' || lpad(u::text, 4, '0') || lpad(j::text, 6, '0'), 'u' || lpad(u::text, 20, '0'), 'photo-' || j || '.jpg', 'jpeg',
               1600 + j % 800, 1200 + u % 400, 50000 + (j * 7919 + u * 104729) % 450000, 20000 + (j * 31 + u) % 80000, '',
               ${base}::timestamptz + (j * ${users} + u) * interval '1 second', ${base}::timestamptz + (j * ${users} + u) * interval '1 second',
               case when j % ${TRASH_EVERY} = 7 then ${now.toISOString()}::timestamptz - (j + u) * interval '1 minute' end
        from generate_series(${from}::int, ${to}::int) u, generate_series(0, ${IMAGES - 1}) j`;
      // Audio tracks (rows only): what /v1/media lists.
      await sql`
        insert into audio (id, owner_id, title, filename, format, size_bytes, duration_seconds, object_key, created_at, updated_at)
        select 'a' || lpad(u::text, 4, '0') || lpad(j::text, 16, '0'), 'u' || lpad(u::text, 20, '0'), 'Track ' || j, 'track-' || j || '.mp3', 'mp3',
               3000000 + (j * 7919 + u) % 5000000, 180, 'audio/u' || lpad(u::text, 20, '0') || '/a' || lpad(u::text, 4, '0') || lpad(j::text, 16, '0') || '.mp3',
               ${base}::timestamptz + (j * 10 * ${users} + u) * interval '1 second', ${base}::timestamptz + (j * 10 * ${users} + u) * interval '1 second'
        from generate_series(${from}::int, ${to}::int) u, generate_series(0, ${AUDIO - 1}) j`;
      // Notes: a title, folders, and WORDS_PER_NOTE words drawn with a skew (k = V * r^3).
      await sql`
        insert into documents (id, owner_id, kb_id, relative_path, path_key, title, filename, format, source_hash, input_hash,
                               size_bytes, word_count, image_count, rewritten_count, excerpt, content, created_at, updated_at)
        select id, owner_id, kb_id, path, path, title, 'note-' || j || '.md', 'markdown', encode(sha256(convert_to(content, 'UTF8')), 'hex'),
               encode(sha256(convert_to(content, 'UTF8')), 'hex'), octet_length(content), ${WORDS_PER_NOTE}, 0, 0, left(body, 200), content, at, at
        from (
          select 'n' || lpad(u::text, 4, '0') || lpad(j::text, 16, '0') as id, 'u' || lpad(u::text, 20, '0') as owner_id,
                 'k' || lpad(u::text, 20, '0') as kb_id, 'notes/f' || (j % 25) || '/note-' || j || '.md' as path, j,
                 'Note ' || j || ' ' || title as title, '# Note ' || j || ' ' || title || E'\n\n' || body as content, body,
                 ${base}::timestamptz + (j * ${users} + u) * interval '1 second' as at
          from generate_series(${from}::int, ${to}::int) u, generate_series(0, ${NOTES - 1}) j,
               lateral (select string_agg(${sql.unsafe(WORD_SQL("r.k"))}, ' ') as body
                        from (select floor(${VOCABULARY} * power(random(), 3))::int as k from generate_series(1, ${WORDS_PER_NOTE} + 0 * j + 0 * u)) r) b,
               lateral (select ${sql.unsafe(WORD_SQL("x.k"))} as title from (select floor(${VOCABULARY} * random())::int + 0 * j + 0 * u as k) x) t
        ) n`;
      // Loose documents (outside any KB), every TRASH_EVERY/10-th of them in the trash.
      await sql`
        insert into documents (id, owner_id, title, filename, format, source_hash, input_hash, size_bytes, word_count, image_count,
                               rewritten_count, content, created_at, updated_at, deleted_at, trashed_at)
        select 'd' || lpad(u::text, 4, '0') || lpad(j::text, 16, '0'), 'u' || lpad(u::text, 20, '0'), 'Loose ' || j, 'loose-' || j || '.md', 'markdown',
               encode(sha256(convert_to('loose ' || j, 'UTF8')), 'hex'), encode(sha256(convert_to('loose ' || j, 'UTF8')), 'hex'),
               octet_length('loose ' || j), 1, 0, 0, 'loose ' || j, ${base}::timestamptz + j * interval '1 hour', ${base}::timestamptz + j * interval '1 hour',
               case when j % 5 = 0 then ${now.toISOString()}::timestamptz - j * interval '1 minute' end,
               case when j % 5 = 0 then ${now.toISOString()}::timestamptz - j * interval '1 minute' end
        from generate_series(${from}::int, ${to}::int) u, generate_series(0, ${LOOSE_DOCS - 1}) j`;
      await sql`
        insert into doc_tombstones (id, owner_id, kb_id, doc_id, relative_path, path_key, source_hash, deleted_at)
        select 't' || lpad(u::text, 4, '0') || lpad(j::text, 16, '0'), 'u' || lpad(u::text, 20, '0'), 'k' || lpad(u::text, 20, '0'),
               'g' || lpad(u::text, 4, '0') || lpad(j::text, 16, '0'), 'gone/g' || j || '.md', 'gone/g' || j || '.md',
               encode(sha256(convert_to('gone ' || j, 'UTF8')), 'hex'), ${now.toISOString()}::timestamptz - (j + 1) * interval '1 hour'
        from generate_series(${from}::int, ${to}::int) u, generate_series(0, ${TOMBSTONES - 1}) j`;
      log(`users ${from}-${to} of ${users} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
    // Each KB's counts and stamp, as the books keep them: the stamp is its last change,
    // a delete (a tombstone) included.
    await sql`
      update kbs set doc_count = s.n, size_bytes = s.bytes, updated_at = greatest(s.at, (select max(deleted_at) from doc_tombstones t where t.kb_id = kbs.id))
      from (select kb_id, count(*)::int as n, sum(size_bytes) as bytes, max(updated_at) as at from documents
            where kb_id is not null and deleted_at is null group by kb_id) s
      where kbs.id = s.kb_id`;
    // The ledger's all-time counters, as uploads and trashing would have left them
    // (usage/dimensions.ts; what usage verify recounts).
    await sql`
      insert into usage_counters (user_id, period, dimension, value)
      select owner_id, 'total', dimension, value from (
        select owner_id, 'img_storage' as dimension, sum(bytes) as value from (
          select owner_id, size + coalesce(webp_size, 0) as bytes from images
          union all select owner_id, size_bytes from documents where deleted_at is null or trashed_at is not null) b group by owner_id
        union all select owner_id, 'media_storage', sum(size_bytes) from audio group by owner_id
        union all select owner_id, 'image_count', count(*) from images where trashed_at is null group by owner_id
        union all select owner_id, 'doc_count', count(*) from documents where deleted_at is null or trashed_at is not null group by owner_id
        union all select owner_id, 'trash_bytes', sum(bytes) from (
          select owner_id, size + coalesce(webp_size, 0) as bytes from images where trashed_at is not null
          union all select owner_id, size_bytes from documents where trashed_at is not null) t group by owner_id
      ) c where owner_id like 'u%'`;
    const loaded = performance.now();
    for (const i of indexes) await sql.unsafe(i.def);
    const indexed = performance.now();
    await sql.unsafe("vacuum analyze");
    return {
      seconds: (performance.now() - t0) / 1000,
      rowsSeconds: (loaded - t0) / 1000,
      indexSeconds: (indexed - loaded) / 1000,
      indexes: indexes.length,
    };
  } finally {
    await sql.end();
  }
}
