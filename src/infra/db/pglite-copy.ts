// A copy of the running embedded database's files that opens as the database was at one
// instant (shelf admin backup, src/wiring/cli/backup.ts), as if it had crashed then:
// Postgres replays its WAL, and has every transaction committed before that instant and none
// after. The engine runs on this thread and every write it makes is a synchronous call, so
// while synchronous code runs on the thread no file is half-written; holding PGlite's own
// locks (those of its dumpDataDir, and the transaction lock that a statement outside a
// transaction takes too) that instant also falls between statements, with no transaction
// open. The server answers nothing while it holds them, so most of the copy is made before:
//
// 1. a checkpoint, so the WAL to replay is short;
// 2. every file copied while the server works, noting its size and modification time first;
// 3. holding the locks: each file whose size or time changed since is copied again, as is
//    every one modified too shortly before it was noted (a write in the same tick of the
//    file system's clock leaves the time as it was: rsync's and git's "racily clean" files),
//    and what is gone is removed. What stays unchanged is most of a database: the pause
//    is that of the files written since the checkpoint.
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { copyFile, mkdir, readdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";

/** What belongs to the running process, not to the database: a copy opened elsewhere must not find them. */
const PROCESS_FILES = new Set(["shelf.pid", "postmaster.pid", "shelf-known.json"]);

/** A file modified this close to when it was noted is copied again whatever its time says. */
const RACY_MS = 2000;

interface Noted {
  size: number;
  mtimeMs: number;
  notedAt: number;
}

interface Internals {
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

type Entry = { isFile(): boolean; isDirectory(): boolean; parentPath: string; name: string };

/** The folders and the files below `dir` (but the process's own), as paths relative to it. Postgres needs its empty folders too. */
function tree(dir: string, entries: Entry[]): { folders: string[]; files: string[] } {
  const rel = (e: Entry) => join(e.parentPath, e.name).slice(dir.length + 1);
  return {
    folders: entries.filter((e) => e.isDirectory()).map(rel),
    files: entries
      .filter((e) => e.isFile())
      .map(rel)
      .filter((r) => !PROCESS_FILES.has(r)),
  };
}

const treeOf = async (dir: string) => tree(dir, await readdir(dir, { recursive: true, withFileTypes: true }));
const treeOfSync = (dir: string) => tree(dir, readdirSync(dir, { recursive: true, withFileTypes: true }));

/**
 * Copies the database files of `client` in `dir` to `dest` (new) as they are at one instant,
 * and runs `alongside` in that same instant. heldMs: how long the server answered nothing.
 */
export async function copyAtOnce(client: PGlite, dir: string, dest: string, alongside?: () => void): Promise<{ heldMs: number }> {
  await client.query("checkpoint");
  const noted = new Map<string, Noted>();
  const first = await treeOf(dir);
  await mkdir(dest, { recursive: true });
  for (const rel of first.folders) await mkdir(join(dest, rel), { recursive: true });
  for (const rel of first.files) {
    const notedAt = Date.now();
    const s = await stat(join(dir, rel)).catch(() => null);
    if (!s) continue; // removed meanwhile: the second pass decides
    noted.set(rel, { size: s.size, mtimeMs: s.mtimeMs, notedAt });
    await mkdir(dirname(join(dest, rel)), { recursive: true });
    await copyFile(join(dir, rel), join(dest, rel));
  }
  const internals = client as unknown as Internals;
  return internals._runExclusiveTransaction(() =>
    internals._runExclusiveQuery(async () => {
      const started = performance.now();
      const now = treeOfSync(dir);
      for (const rel of now.folders) mkdirSync(join(dest, rel), { recursive: true });
      const present = new Set(now.files);
      for (const rel of present) {
        const s = statSync(join(dir, rel));
        const before = noted.get(rel);
        if (before && before.size === s.size && before.mtimeMs === s.mtimeMs && before.mtimeMs < before.notedAt - RACY_MS) continue;
        mkdirSync(dirname(join(dest, rel)), { recursive: true });
        copyFileSync(join(dir, rel), join(dest, rel));
      }
      for (const rel of treeOfSync(dest).files) if (!present.has(rel)) rmSync(join(dest, rel));
      alongside?.();
      return { heldMs: performance.now() - started };
    }),
  );
}
