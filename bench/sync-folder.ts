// (n) `shelf sync` of a folder of notes: the first push of every note, a sync that finds
// nothing (its requests: one conditional manifest answered 304 is the target), and a
// second folder pulling everything, each timed, through a listening server as the
// command runs it. The baseline beside the first push is the bare SQL of the same rows
// (one multi-row insert per 200, as the pushes batch them), in the same run.
import { mkdtempSync, rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { syncCommand } from "../clients/sync/index.ts";
import { costOf, inProcess, load1 } from "./cpu.ts";
import { bareDriver } from "./kbs.ts";
import type { Shelf } from "./server.ts";

const note = (i: number) => `# Note ${i}\n\n${"Some words of a note, for the folder benchmark. ".repeat(20)}\n`;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await run();
  return (performance.now() - t0) / 1000;
}

/** One `shelf sync` of `folder` into KB `slug`: the requests it made (its last line says). */
export async function sync(shelf: Shelf, key: string, folder: string, slug: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await syncCommand([folder, "--kb", slug, "--server", shelf.origin], {
    env: { SHELF_API_KEY: key },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    send: (r) => fetch(r),
  });
  if (code !== 0) throw new Error(`shelf sync exited ${code}: ${err.slice(0, 5).join("; ")}`);
  return Number(/(\d+) request\(s\)/.exec(out.at(-1) ?? "")?.[1]);
}

export async function benchSyncFolder(shelf: Shelf, notes = 10_000) {
  const { key } = await shelf.newUserKey();
  const res = await fetch(`${shelf.origin}/v1/kbs`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Folder bench" }),
  });
  const slug = ((await res.json()) as { data: { slug: string } }).data.slug;
  const a = mkdtempSync(join(tmpdir(), "shelf-sync-bench-a-"));
  const b = mkdtempSync(join(tmpdir(), "shelf-sync-bench-b-"));
  try {
    for (let d = 0; d < notes / 100; d++) {
      await mkdir(join(a, `d${d}`));
      await Promise.all(Array.from({ length: 100 }, (_, i) => Bun.write(join(a, `d${d}`, `n${i}.md`), note(d * 100 + i))));
    }
    let firstRequests = 0;
    // CPU per note of the first push (the server and the client, both in this process) and of the bare SQL.
    const cpu = inProcess();
    const loads = [load1()];
    let c = cpu.read();
    const firstPush = await timed(async () => {
      firstRequests = await sync(shelf, key, a, slug);
    });
    const pushUs = ((cpu.read() - c) * 1000) / notes;
    let idleRequests = 0;
    const idle = await timed(async () => {
      idleRequests = await sync(shelf, key, a, slug);
    });
    let pullRequests = 0;
    const pull = await timed(async () => {
      pullRequests = await sync(shelf, key, b, slug);
    });
    c = cpu.read();
    const bare = await timed(() => bareInsert(shelf, notes));
    const bareUs = ((cpu.read() - c) * 1000) / notes;
    loads.push(load1());
    return {
      cpu: costOf([pushUs], [bareUs]),
      load: { low: Math.min(...loads), high: Math.max(...loads) },
      notes,
      firstPush,
      firstRequests,
      idle,
      idleRequests,
      pull,
      pullRequests,
      bare,
      db: shelf.deps.config.embedded.db ? "PGlite" : "Postgres",
    };
  } finally {
    rmSync(a, { recursive: true, force: true });
    rmSync(b, { recursive: true, force: true });
  }
}

/** The same number of rows of the same size, inserted 200 at a time into a scratch table. */
async function bareInsert(shelf: Shelf, notes: number) {
  const bare = await bareDriver(shelf.deps, 1);
  const table = `bench_folder_${crypto.randomUUID().replaceAll("-", "")}`;
  try {
    await bare.query(`create table ${table} (id text primary key, path text, content text, hash text)`, []);
    for (let i = 0; i < notes; i += 200) {
      const params: string[] = [];
      const rows: string[] = [];
      for (let j = i; j < Math.min(notes, i + 200); j++) {
        const text = note(j);
        const n = params.push(crypto.randomUUID(), `d/n${j}.md`, text, new Bun.CryptoHasher("sha256").update(text).digest("hex"));
        rows.push(`($${n - 3}, $${n - 2}, $${n - 1}, $${n})`);
      }
      await bare.query(`insert into ${table} values ${rows.join(", ")}`, params);
    }
    await bare.query(`drop table ${table}`, []);
  } finally {
    await bare.close();
  }
}
