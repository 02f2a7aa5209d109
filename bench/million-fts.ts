// (y)'s full-text search at 1M: GET /v1/docs/search of the measured user against the same
// search written by hand on the same index, served the same way: a bare Bun.serve with
// postgres.js (a pool of 8) that checks the API key and counts the request as shelf does
// (list-baseline.ts), runs the hand-written query and answers the same JSON (checked
// equal to shelf's answer before timing). Both asked over HTTP by the same load process
// (8 connections); searches per second and each server's CPU per search, passes
// interleaved; goal >= 0.9. Then the query alone, run bare through postgres.js from this
// process with no HTTP at all: what the HTTP layer and the credential check cost on top.
import postgres from "postgres";
import { searchWord } from "./million-seed.ts";
import { runLoad, type Side } from "./million-node.ts";
import { type CpuMeter, ownCpu } from "./cpu.ts";
import { interleave, median, ratioText } from "./passes.ts";
import { authorizeRead, jsonHeaders, type Query } from "./list-baseline.ts";
import { createMemoryKv } from "../src/infra/kv/index.ts";
import { createRedisKv } from "../src/infra/kv/redis.ts";
import { createLog } from "../src/infra/log.ts";
import { timedLoop } from "./kbs.ts";

// The snippet's text: front matter, line marks and inline marks out (as the API's search
// makes it), its private-use markers out, then ts_headline with the same options.
const FRONT_MATTER = String.raw`^---\r??\n.*?\n---\r??\n`;
const LINE_MARKS = String.raw`(^|\n)[ \t]*(#{1,6}|=+|>+|[-*+]([ \t]+\[[ xX]\])?|[0-9]+[.)])[ \t]+`;
const INLINE_MARKS = String.raw`\*\*|__|==|~~|!?\[\[|\]\]|\`+|%%`;
const SEARCH = `
  select id, kb_id, relative_path, title, format, updated_at, rank,
    ts_headline('simple', translate(coalesce(nullif(regexp_replace(regexp_replace(regexp_replace(content, '${FRONT_MATTER}', ''),
      '${LINE_MARKS}', '\\1', 'g'), '${INLINE_MARKS}', '', 'g'), ''), title), E'\\uE000\\uE001', ''), q,
      'StartSel=\uE000, StopSel=\uE001, MaxFragments=2, MinWords=8, MaxWords=20, FragmentDelimiter=" … "') as snippet
  from (select id, kb_id, relative_path, title, format, updated_at, content, ts_rank_cd(search, q) as rank, q
        from documents, websearch_to_tsquery('simple', $2) q
        where owner_id = $1 and array[owner_id] @> array[$1::text] and deleted_at is null and format <> 'file' and search @@ q and querytree(q) <> 'T'
        order by rank desc, updated_at desc, id desc limit 11) hits
  order by rank desc, updated_at desc, id desc`;

/**
 * The snippet as the API gives it (search.ts's marked(), written again): one line, each
 * match between « and », with the matches' UTF-16 offsets.
 */
function marked(headline: string) {
  const line = headline.replace(/\s+/g, " ").trim();
  let snippet = "";
  const marks: { start: number; end: number }[] = [];
  let start = -1;
  for (const ch of line) {
    if (ch === "\uE000") {
      snippet += "«";
      start = snippet.length;
    } else if (ch === "\uE001" && start >= 0) {
      marks.push({ start, end: snippet.length });
      snippet += "»";
      start = -1;
    } else if (ch !== "\uE001") snippet += ch;
  }
  return { snippet, marks };
}

/** The hand-written search server: GET /v1/docs/search?q= (first pages of 10, what is timed). */
async function startHandWritten(bare: postgres.Sql) {
  const kv = process.env.REDIS_URL ? await createRedisKv(process.env.REDIS_URL, createLog("error")) : createMemoryKv();
  const query: Query = (text, params) => bare.unsafe(text, params as never[], { prepare: true }) as Promise<Record<string, unknown>[]>;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const auth = await authorizeRead(req, query, kv, "kb.read");
      if (auth instanceof Response) return auth;
      const q = (new URL(req.url).searchParams.get("q") ?? "").trim();
      const rows = await query(SEARCH, [auth.userId, q]);
      const page = rows.slice(0, 10);
      const last = page[page.length - 1];
      const items = page.map((r) => ({
        id: r.id,
        kbId: r.kb_id,
        relativePath: r.relative_path,
        title: r.title,
        format: r.format,
        updatedAt: (r.updated_at as Date).toISOString(),
        rank: r.rank,
        ...marked(r.snippet as string),
      }));
      const nextCursor =
        rows.length > 10 && last ? Buffer.from(JSON.stringify([last.rank, (last.updated_at as Date).toISOString(), last.id])).toString("base64url") : null;
      return new Response(JSON.stringify({ success: true, data: { items, nextCursor } }), { headers: jsonHeaders(auth.w) });
    },
  });
  return {
    origin: `http://127.0.0.1:${server.port}`,
    async stop() {
      server.stop(true);
      await kv.close();
    },
  };
}

/** One pass of the load process against `origin`'s search: searches a second, and the CPU ms per search of `cpu`. */
async function loadPass(origin: string, key: string, word: string, seconds: number, connections: number, cpu: CpuMeter, into: number[]) {
  const cpu0 = cpu.read();
  const r = await runLoad({ url: `${origin}/v1/docs/search?q=${word}`, key, seconds, concurrency: connections });
  into.push((cpu.read() - cpu0) / r.count);
  return r.count / r.seconds;
}

export async function compareSearch(side: Side, seconds: number, passes: number, connections: number, load: () => string) {
  const word = searchWord();
  const bare = postgres(side.db.url, { max: connections, onnotice: () => {} });
  const hand = await startHandWritten(bare);
  try {
    const answer = async (origin: string) =>
      (await (await fetch(`${origin}/v1/docs/search?q=${word}`, { headers: { authorization: `Bearer ${side.db.key}` } })).json()) as {
        data: { items: { id: string }[] };
      };
    const api = (await answer(side.origin)).data;
    const written = (await answer(hand.origin)).data;
    const same = JSON.stringify(api) === JSON.stringify(written);
    console.log(
      `\n  search "${word}" at 1M: the API's answer and the hand-written server's are ${same ? "the same" : "NOT the same"} (${api.items.length} hits)`,
    );
    if (!same) console.log(`  API ${JSON.stringify(api).slice(0, 400)}\n  hand-written ${JSON.stringify(written).slice(0, 400)}`);
    const cpu = { api: [] as number[], hand: [] as number[], bare: [] as number[] };
    const run = await interleave(
      passes,
      () => loadPass(side.origin, side.db.key, word, seconds, connections, { read: side.cpuMs }, cpu.api),
      // The hand-written server is in this process, which only waits for the load meanwhile.
      () => loadPass(hand.origin, side.db.key, word, seconds, connections, ownCpu, cpu.hand),
    );
    console.log(
      `  API ${run.subject.toFixed(0)} searches/s, the hand-written server ${run.baseline.toFixed(0)}/s: ratio ${ratioText(run)} (goal >= 0.9), load ${load()}`,
    );
    console.log(
      `  CPU per search: the node ${median(cpu.api).toFixed(2)} ms, the hand-written server ${median(cpu.hand).toFixed(2)} ms: ratio ${(median(cpu.hand) / median(cpu.api)).toFixed(3)}`,
    );
    let count = 0;
    let took = 0;
    for (let i = 0; i < passes; i++) {
      const own = ownCpu.read();
      const t = await timedLoop(connections, seconds, async () => {
        await bare.unsafe(SEARCH, [side.db.userId, word], { prepare: true });
      });
      cpu.bare.push((ownCpu.read() - own) / t.count);
      count += t.count;
      took += t.seconds;
    }
    console.log(
      `  the query alone, bare from this process (no HTTP, no credential): ${(count / took).toFixed(0)}/s, ${median(cpu.bare).toFixed(2)} ms of this process's CPU each; load ${load()}`,
    );
  } finally {
    await hand.stop();
    await bare.end();
  }
}
