// The plans of (y)'s queries at 1M, as the node ran them: auto_explain (ANALYZE, BUFFERS)
// on for the 1M database, a node of its own asks each case a few times (the last run of
// each statement is kept: a prepared statement's plan once settled), and the server log
// that real-parts.sh keeps beside the cluster is read back into docs/plans-1m.md.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import postgres from "postgres";
import { type Prepared, startNode } from "./million-node.ts";
import { UNLIMITED_SYNC } from "./server.ts";

const RUNS = 7;
const MARK = "million-case:";

export async function writePlans(db: Prepared, cases: { name: string; path: string; headers?: Record<string, string> }[]) {
  const admin = postgres(db.url, { max: 1, onnotice: () => {} });
  const [row] = await admin<{ dir: string }[]>`select current_setting('data_directory') as dir`;
  const logFile = join(dirname(row!.dir), "pg-socket", "postgres.log");
  if (!existsSync(logFile)) {
    console.log(`  plans: no server log at ${logFile} (real-parts.sh keeps it there), none written`);
    await admin.end();
    return;
  }
  const settings = [
    "session_preload_libraries = 'auto_explain'",
    "auto_explain.log_min_duration = 0",
    "auto_explain.log_analyze = on",
    "auto_explain.log_buffers = on",
  ];
  for (const s of settings) await admin.unsafe(`alter database ${db.name} set ${s}`);
  const node = await startNode(db, { RATE_LIMITS: UNLIMITED_SYNC.RATE_LIMITS });
  const start = readFileSync(logFile, "utf8").length;
  try {
    for (const c of cases) {
      await admin.unsafe(`do $$ begin raise log '${MARK}%', ${literal(c.name)}; end $$`);
      for (let i = 0; i < RUNS; i++) {
        const res = await fetch(`${node.origin}${c.path}`, { headers: { authorization: `Bearer ${db.key}`, ...c.headers } });
        await res.arrayBuffer();
      }
    }
    await admin.unsafe(`do $$ begin raise log '${MARK}end'; end $$`);
  } finally {
    await node.stop();
    await admin.unsafe(`alter database ${db.name} reset all`);
    await admin.end();
  }
  const text = readFileSync(logFile, "utf8").slice(start);
  // Entries start with a line "<time> [pid] LOG:  "; a plan is "duration: ... plan:" and its lines.
  const entries = text.split(/\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/);
  const out: string[] = [];
  let current: string | null = null;
  let plans = new Map<string, string>();
  const flush = () => {
    if (current === null) return;
    out.push(`## ${current}\n`);
    for (const [query, plan] of plans) out.push("```", `${query}\n${plan}`.trim(), "```\n");
    plans = new Map();
  };
  for (const e of entries) {
    const mark = e.indexOf(`LOG:  ${MARK}`);
    if (mark >= 0) {
      flush();
      const name = e
        .slice(mark + 6 + MARK.length)
        .split("\n")[0]!
        .trim();
      current = name === "end" ? null : name;
      continue;
    }
    const m = /LOG: {2}duration: ([\d.]+) ms {2}plan:\n\s*Query Text: ([\s\S]*?)\n(\s*(?:[A-Z][\s\S]*))$/.exec(e);
    if (!m || current === null) continue;
    const query = m[2]!.replace(/\s+/g, " ").trim();
    if (/^(select|with) .* from "?(api_keys|users)"? /i.test(query) && !/images|documents|kbs|usage_counters|doc_tombstones/.test(query)) continue;
    // The driver's own look-up of the array types, once per new connection: no case's.
    if (/ from pg_catalog\./.test(query)) continue;
    plans.set(query, `-- ${m[1]} ms\n${m[3]!.replace(/^\t/gm, "")}`);
  }
  const header = [
    "# Query plans at a million",
    "",
    "What shelf ran for each case of benchmark (y) (`bench/million.ts`) on the database of",
    "1,000,000 images and 1,000,000 notes (1,000 users), from auto_explain with ANALYZE and",
    "BUFFERS: the last run of each statement after a few requests of the case (docs/benchmarks.md",
    "says what the figures were). The key lookup and the user's plan, asked by every request, and the driver's look-up of array types on a new connection are left out.",
    "",
    `Written by \`bash scripts/real-parts.sh bun bench/million.ts\` on ${new Date().toISOString().slice(0, 10)}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}.`,
    "",
  ];
  writeFileSync(join(import.meta.dir, "..", "docs", "plans-1m.md"), `${[...header, ...out].join("\n").trim()}\n`);
  console.log(`  plans of ${cases.length} cases written to docs/plans-1m.md`);
}

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
