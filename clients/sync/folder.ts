// The local side of `shelf sync`: which files of the folder are notes, their text and
// hashes, and writing what the server holds back into the folder. Paths are the KB's
// relative paths (POSIX, NFC), whatever the file system calls them.
import { mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, posix, sep } from "node:path";

export const STATE_FILE = ".shelf-sync.json";

/** What a KB can hold (the extension decides the format). */
const NOTE_EXTENSIONS = [".md", ".markdown", ".typ"];

/** Folders that belong to other tools, never to the KB. */
const SKIPPED_DIRS = new Set([".git", ".hg", ".svn", "node_modules"]);
/** Whether a folder of that name is walked (and watched): other tools' folders are not. */
export const walksInto = (name: string) => !SKIPPED_DIRS.has(name);

const CONFLICT_MARK = " (conflict ";

export interface LocalNote {
  /** Where it is on disk. */
  file: string;
  content: string;
  hash: string;
}

const sha256Hex = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");

const isNote = (name: string) => NOTE_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));

/** `notes/a.md` and a branch id -> `notes/a (conflict <id>).md`: beside the note, never synced. */
export function conflictPath(relativePath: string, branchId: string): string {
  const dot = relativePath.lastIndexOf(".");
  return `${relativePath.slice(0, dot)}${CONFLICT_MARK}${branchId})${relativePath.slice(dot)}`;
}

const isConflictCopy = (name: string) => {
  const at = name.lastIndexOf(CONFLICT_MARK);
  return at > 0 && name.slice(at).includes(")");
};

/** Every note under `root` by relative path, read and hashed. */
export async function scanFolder(root: string): Promise<Map<string, LocalNote>> {
  const notes = new Map<string, LocalNote>();
  const walk = async (dir: string, prefix: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (walksInto(entry.name)) await walk(join(dir, entry.name), relative);
      } else if (entry.isFile() && isNote(entry.name) && !isConflictCopy(entry.name) && relative !== STATE_FILE) {
        const file = join(dir, entry.name);
        const content = await Bun.file(file).text();
        notes.set(relative.normalize("NFC"), { file, content, hash: sha256Hex(content) });
      }
    }
  };
  await walk(root, "");
  return notes;
}

const onDisk = (root: string, relativePath: string) => join(root, ...relativePath.split(posix.sep));

/** Writes a note through a temporary file, so an interrupted sync never leaves half a note. */
export async function writeNote(root: string, relativePath: string, content: string): Promise<void> {
  const file = onDisk(root, relativePath);
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.shelf-tmp`;
  await writeFile(temp, content);
  await rename(temp, file);
}

export async function removeNote(root: string, relativePath: string): Promise<void> {
  await rm(onDisk(root, relativePath), { force: true });
}

/** A note moved or renamed on the server follows here: the same file at its new path. */
export async function moveNote(root: string, from: string, to: string): Promise<void> {
  const target = onDisk(root, to);
  await mkdir(dirname(target), { recursive: true });
  await rename(onDisk(root, from), target);
}

/**
 * Whether a change the file system reports at `relative` (a path under the folder, as
 * fs.watch names it) may change what the folder holds: a note, or a folder (a folder
 * renamed or removed is reported by its name alone). The sync's own files (its state,
 * temporary files, conflict copies) and other tools' folders are not.
 */
export function worthSyncing(relative: string): boolean {
  const parts = relative.split(/[\\/]/);
  const name = parts.at(-1) ?? "";
  if (parts.some((p) => SKIPPED_DIRS.has(p))) return false;
  if (name.startsWith(STATE_FILE) || name.endsWith(".shelf-tmp") || isConflictCopy(name)) return false;
  return isNote(name) || !name.includes(".");
}

/** For messages: the note's path as the local system writes it. */
export const displayPath = (relativePath: string) => relativePath.split(posix.sep).join(sep);
