// (y)'s full-text search at 1M: GET /v1/docs/search of the measured user (8 connections,
// HTTP, its own process) against the same search written by hand, run bare through
// postgres.js in this process on the same index (8 connections): the same hits (a page of 10, the default), ranked
// the same, with the same snippet. Searches per second, passes interleaved; goal >= 0.9.
import postgres from "postgres";
import { searchWord } from "./million-seed.ts";
import type { Side } from "./million-node.ts";
import { interleave, ratioText } from "./passes.ts";
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

export async function compareSearch(side: Side, seconds: number, passes: number, connections: number, load: () => string) {
  const word = searchWord();
  const bare = postgres(side.db.url, { max: connections, onnotice: () => {} });
  try {
    const hand = await bare.unsafe(SEARCH, [side.db.userId, word], { prepare: true });
    const res = await fetch(`${side.origin}/v1/docs/search?q=${word}`, { headers: { authorization: `Bearer ${side.db.key}` } });
    const api = ((await res.json()) as { data: { items: { id: string }[] } }).data.items;
    const same = api.length === Math.min(10, hand.length) && api.every((h, i) => h.id === hand[i]!.id);
    console.log(
      `\n  search "${word}" at 1M: the API's hits and the hand-written query's are ${same ? "the same" : "NOT the same"} (${api.length} on the first page)`,
    );
    if (!same) console.log(`  API ${api.map((h) => h.id).join(" ")}\n  hand-written ${hand.map((h) => h.id).join(" ")}`);
    const cpu = { api: [] as number[], bare: [] as number[] };
    const run = await interleave(
      passes,
      async () => {
        const cpu0 = side.cpuMs();
        const proc = Bun.spawn(
          [
            "bun",
            `${import.meta.dir}/million-load.ts`,
            JSON.stringify({ url: `${side.origin}/v1/docs/search?q=${word}`, key: side.db.key, seconds, concurrency: connections }),
          ],
          { stdout: "pipe", stderr: "inherit" },
        );
        const r = JSON.parse(await new Response(proc.stdout).text()) as { count: number; seconds: number; errors: number };
        if ((await proc.exited) !== 0 || r.errors) throw new Error("search load failed");
        cpu.api.push((side.cpuMs() - cpu0) / r.count);
        return r.count / r.seconds;
      },
      async () => {
        const own = process.cpuUsage();
        const t = await timedLoop(connections, seconds, async () => {
          await bare.unsafe(SEARCH, [side.db.userId, word], { prepare: true });
        });
        const used = process.cpuUsage(own);
        cpu.bare.push((used.user + used.system) / 1000 / t.count);
        return t.count / t.seconds;
      },
    );
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(
      `  API ${run.subject.toFixed(0)} searches/s, hand-written query ${run.baseline.toFixed(0)}/s: ratio ${ratioText(run)} (goal >= 0.9), load ${load()}`,
    );
    console.log(`  CPU per search: the node ${med(cpu.api).toFixed(2)} ms; this process driving the bare query ${med(cpu.bare).toFixed(2)} ms`);
  } finally {
    await bare.end();
  }
}
