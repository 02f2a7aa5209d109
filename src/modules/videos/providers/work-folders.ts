// The local provider's work folders: one per transcode, in the OS temp folder (TMPDIR),
// removed when the job ends. A worker killed with SIGKILL (or by the OOM killer, or a
// power cut) removes nothing, and its folder can hold gigabytes (the original and every
// rendition), so a worker that starts removes the folders its predecessors left.
//
// Several workers may share the temp folder (processes of one machine, containers with a
// shared volume, even machines on a network file system), so a folder is removed only when
// its owner is known to be gone. A folder is named by who made it:
//   shelf-transcode-<host>-<pid>-<boot>-<random>
// <host> a hash of the host name, <pid> the process, <boot> a nonce made once per process.
// A starting worker judges only the folders of its own host (a pid means nothing
// elsewhere): a folder whose process is gone is stale; so is one with this process's pid
// but another nonce (a restarted container's worker often has the pid its predecessor
// had). A folder of a live process is kept, whichever job it serves, and so is anything
// that is not named this way. Checking the job's lease instead would keep a killed
// worker's folder until its lease ran out, long after the restart.
import { createHash, randomBytes } from "node:crypto";
import type { Dirent } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

const PREFIX = "shelf-transcode-";
const HOST = createHash("sha256").update(hostname()).digest("hex").slice(0, 8);
const BOOT = randomBytes(6).toString("hex");
const NAMED = /^shelf-transcode-([0-9a-f]{8})-(\d+)-([0-9a-f]{12})-/;

/** The start of the name of a work folder made by process `pid` of this host. */
export const workFolderPrefix = (pid: number, boot = BOOT) => `${PREFIX}${HOST}-${pid}-${boot}-`;

/** A fresh work folder under `root`, named for this process. */
export const makeWorkFolder = (root: string) => mkdtemp(join(root, workFolderPrefix(process.pid)));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, as another user's process.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the folder named `name` was left by a worker of this host that is gone. */
function isStale(name: string): boolean {
  const m = NAMED.exec(name);
  if (!m || m[1] !== HOST) return false;
  const pid = Number(m[2]);
  if (pid === process.pid) return m[3] !== BOOT;
  return !alive(pid);
}

/** Removes the stale work folders under `root`; the names removed. */
export async function removeStaleWorkFolders(root: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const e of entries) {
    if (!e.isDirectory() || !e.name.startsWith(PREFIX) || !isStale(e.name)) continue;
    await rm(join(root, e.name), { recursive: true, force: true });
    removed.push(e.name);
  }
  return removed;
}
