// (u) `shelf sync` of a notes vault (test/helpers/vault.ts: notes with front matter and
// links, attachments of the usual kinds, a few large files, awkward names, a .obsidian/
// folder it skips): the first push against plain parallel uploads of the same bytes, a
// sync that finds nothing (target: one 304), and a second folder's pull, each through a
// listening server as the command runs it.
//
// The baseline does what the push must do and nothing else: hash each attachment, PUT its
// bytes (as many at once as the client sends), then send the same ops (notes with their
// text, attachments by hash) in batches of 200. No manifest, no HEAD, no state file, no
// walk of the folder (it is handed the list). Subject and baseline run in turn, each pass
// into a new account and KB, so no bytes are held already.
import { sync } from "./sync-folder.ts";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeVault } from "../test/helpers/vault.ts";
import { costText, inProcess, loadText, measuredInterleave, runText } from "./cpu.ts";
import { ratioText } from "./passes.ts";
import { type Shelf, startShelf, UNLIMITED_SYNC } from "./server.ts";

const MB = 1024 * 1024;
/** Uploads in flight at once, as the client sends them (clients/sync/pull.ts, TRANSFERS). */
const WIDTH = 6;
const BATCH = 200;

interface Entry {
  path: string;
  file: string;
  note: boolean;
}

async function newKb(shelf: Shelf, key: string): Promise<{ id: string; slug: string }> {
  const res = await fetch(`${shelf.origin}/v1/kbs`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ name: `Vault ${crypto.randomUUID().slice(0, 8)}` }),
  });
  if (res.status !== 201) throw new Error(`creating a KB: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { id: string; slug: string } }).data;
}

async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const sha256 = async (file: string) => {
  const h = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(file).stream()) h.update(chunk);
  return h.digest("hex");
};

/** The same notes and attachments into a new KB, by hand: PUTs six at a time, then the ops. */
async function plainUpload(shelf: Shelf, key: string, kbId: string, entries: Entry[]) {
  const auth = { authorization: `Bearer ${key}` };
  const ops: unknown[] = [];
  const files = entries.filter((e) => !e.note);
  const hashes = new Map<string, string>();
  await pool(files, WIDTH, async (e) => {
    const hash = await sha256(e.file);
    hashes.set(e.path, hash);
    const body = Bun.file(e.file);
    const res = await fetch(`${shelf.origin}/v1/kbs/${kbId}/files/${hash}`, { method: "PUT", headers: { ...auth, "content-length": String(body.size) }, body });
    if (!res.ok) throw new Error(`PUT ${e.path}: ${res.status} ${await res.text()}`);
  });
  for (const e of entries) {
    if (e.note) {
      const content = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await Bun.file(e.file).bytes());
      ops.push({ op: "upsert", relativePath: e.path, content, sourceHash: new Bun.CryptoHasher("sha256").update(content).digest("hex") });
    } else ops.push({ op: "upsert", kind: "file", relativePath: e.path, sourceHash: hashes.get(e.path) });
  }
  for (let i = 0; i < ops.length; i += BATCH) {
    const res = await fetch(`${shelf.origin}/v1/kbs/${kbId}/sync`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "service-sync-version": "2" },
      body: JSON.stringify({ ops: ops.slice(i, i + BATCH) }),
    });
    if (!res.ok) throw new Error(`sync: ${res.status} ${(await res.text()).slice(0, 300)}`);
  }
}

async function benchVaultSync(shelf: Shelf, opts: { notes?: number; attachments?: number; large?: number; passes?: number } = {}) {
  const { notes = 10_000, attachments = 1_000, large = 4, passes = 3 } = opts;
  const root = mkdtempSync(join(tmpdir(), "shelf-vault-bench-"));
  const vaultDir = join(root, "vault");
  try {
    const vault = await makeVault(vaultDir, { notes, attachments, large, largeBytes: 4 * MB });
    const entries: Entry[] = [
      ...vault.notes.map((path) => ({ path, file: join(vaultDir, path), note: true })),
      ...vault.attachments.map((path) => ({ path, file: join(vaultDir, path), note: false })),
    ];
    const files = entries.length;
    let pass = 0;
    let last: { key: string; slug: string; folder: string } | undefined;
    let pushRequests = 0;
    // CPU per file of each side: the server and the client (the sync client or the plain
    // uploads) both run in this process, so each side's figure is the whole of its work.
    const ratio = await measuredInterleave(
      passes,
      {
        cpu: inProcess(),
        run: async () => {
          // The client's first push: a copy of the vault with no state, a new account and KB.
          const folder = join(root, `push-${pass++}`);
          cpSync(vaultDir, folder, { recursive: true });
          const key = await shelf.newKey();
          const kb = await newKb(shelf, key);
          const t0 = performance.now();
          pushRequests = await sync(shelf, key, folder, kb.slug);
          const s = (performance.now() - t0) / 1000;
          if (last) rmSync(last.folder, { recursive: true, force: true });
          last = { key, slug: kb.slug, folder };
          return { ops: files, rate: files / s };
        },
      },
      {
        cpu: inProcess(),
        run: async () => {
          const key = await shelf.newKey();
          const kb = await newKb(shelf, key);
          const t0 = performance.now();
          await plainUpload(shelf, key, kb.id, entries);
          return { ops: files, rate: files / ((performance.now() - t0) / 1000) };
        },
      },
    );
    const { key, slug, folder } = last!;
    let t0 = performance.now();
    const idleRequests = await sync(shelf, key, folder, slug);
    const idle = (performance.now() - t0) / 1000;
    const second = join(root, "pull");
    mkdirSync(second);
    t0 = performance.now();
    const pullRequests = await sync(shelf, key, second, slug);
    const pull = (performance.now() - t0) / 1000;
    return {
      notes: vault.notes.length,
      attachments: vault.attachments.length,
      mb: vault.bytes / 1e6,
      push: ratio,
      pushRequests,
      idle,
      idleRequests,
      pull,
      pullRequests,
      db: shelf.deps.config.embedded.db ? "PGlite" : "Postgres",
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const fmt = (n: number, d = 1) => n.toFixed(d);

/** How `make bench` prints (u); `bun bench/vault-sync.ts` runs it alone. */
export async function printVaultSync(shelf: Shelf) {
  const vault = await benchVaultSync(shelf);
  console.log(
    `\n(u) shelf sync of a notes vault: ${vault.notes} notes and ${vault.attachments} attachments, ${fmt(vault.mb)} MB, skipping its .obsidian/ (${vault.db})`,
  );
  console.log(`    first push             ${fmt(vault.push.subject, 0)} files/s in ${vault.pushRequests} requests`);
  console.log(`    plain parallel uploads ${fmt(vault.push.baseline, 0)} files/s   (the same PUTs, 6 at a time, then the same ops, 200 a batch)`);
  console.log(`    ratio                  ${ratioText(vault.push)}   (target >= 0.8)`);
  console.log(`    ${costText(vault.push.cpu, "file", ["sync", "plain uploads"])}, ${loadText(vault.push.load)}`);
  console.log(`    no-change sync         ${fmt(vault.idle * 1000, 1)} ms in ${vault.idleRequests} request(s)   (target: one 304)`);
  console.log(`    second folder's pull   ${fmt(vault.pull, 2)} s in ${vault.pullRequests} requests`);
}

if (import.meta.main) {
  console.log(runText());
  const shelf = await startShelf(UNLIMITED_SYNC);
  try {
    await printVaultSync(shelf);
  } finally {
    await shelf.stop();
  }
}
