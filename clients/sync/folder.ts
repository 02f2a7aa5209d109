// The local side of `shelf sync`: every file of the folder the rules carry (rules.ts), its
// kind (a note, by its extension, or any other file: an attachment), size and hash, and
// writing what the server holds back into the folder. Paths are the KB's relative paths
// (POSIX, NFC), whatever the file system calls them: a file keeps the name it has on disk
// (`file`), so a name the system stores decomposed (NFD) is written back where it is.
import { lstat, mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, posix, sep } from "node:path";
import { IGNORE_FILE, isConflictCopy, isOwnFile, type RuleSkip, type SyncRules, TEMP_SUFFIX } from "./rules.ts";

export type Kind = "document" | "file";

/** What a KB holds as a document, by extension (the server's rule); every other file is an attachment. */
const NOTE_EXTENSIONS = [".md", ".markdown", ".typ"];

export const kindOf = (path: string): Kind => (NOTE_EXTENSIONS.some((ext) => path.toLowerCase().endsWith(ext)) ? "document" : "file");

export interface LocalFile {
  /** Where it is on disk. */
  file: string;
  kind: Kind;
  /** SHA-256 hex of the bytes (a note's: of its text), once the scan has read it (Scan.hash). */
  hash?: string;
  size: number;
  mtimeMs: number;
}

/** Hashes known from earlier scans, by path: size, mtime and hash (a file whose size and mtime did not change is not read again). */
export type HashCache = Record<string, [number, number, string]>;

/** A file not carried because another one has its name but for letter case or Unicode form. */
interface Clash {
  path: string;
  /** The path carried instead. */
  carried: string;
}

/** The folder as a walk found it: names, sizes and times at once, each file's hash when asked (and then kept). */
export interface Scan {
  files: Map<string, LocalFile>;
  /** What the rules skipped (a skipped folder once), and symbolic links. */
  skipped: RuleSkip[];
  clashes: Clash[];
  /** Conflict copies (conflicts.ts), by relative path. */
  copies: Map<string, LocalFile>;
  /** The hash of a file of `files` or `copies`, read once (or taken from the cache when its size and mtime did not change). */
  hash(file: LocalFile, path: string): Promise<string>;
  /** Every hash of `files` and `copies`, read a few at a time. */
  hashAll(): Promise<void>;
  /** The hashes to remember: those read or confirmed, and the earlier ones of files not read this time but unchanged. */
  readonly cache: HashCache;
}

/**
 * The server's uniqueness of a path: its case-folded NFC form (upper then lower case, as
 * the server folds), so `Notes.md` and `notes.md`, or a name in NFC and in NFD, are one.
 */
export const pathKey = (path: string) => path.normalize("NFC").toUpperCase().toLowerCase().normalize("NFC");

const sha256Hex = (data: string | Uint8Array) => new Bun.CryptoHasher("sha256").update(data).digest("hex");

/** A file's SHA-256, read in pieces (an attachment may be large). */
export async function hashFile(file: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(file).stream()) hasher.update(chunk);
  return hasher.digest("hex");
}

/** A note's text as it is on disk: a byte order mark is kept (it is part of the file). Throws on bytes that are not UTF-8. */
export async function readNote(file: string): Promise<string> {
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(await Bun.file(file).bytes());
}

/** A hash read within this long of the file's last change is not trusted later: the file may change again within the clock's step. */
const SETTLE_MS = 2_000;
/** Files read at once while hashing. */
const HASHING = 8;

/** Every file under `root` the rules carry, with its size and mtime; `known`: the paths the state holds, which win a clash. */
export async function scanFolder(root: string, rules: SyncRules, cache: HashCache, known: (path: string) => boolean): Promise<Scan> {
  const found: { path: string; file: string; size: number; mtimeMs: number }[] = [];
  const skipped: RuleSkip[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const below: Promise<void>[] = [];
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = (prefix ? `${prefix}/${entry.name}` : entry.name).normalize("NFC");
      const file = join(dir, entry.name);
      if (entry.isDirectory()) {
        const skip = rules.skipOfPath(path, true);
        if (skip && !rules.walksSkipped(path)) skipped.push(skip);
        else below.push(walk(file, path));
        continue;
      }
      if (isOwnFile(path)) continue;
      if (entry.isSymbolicLink()) {
        skipped.push({ path, why: "a symbolic link" });
        continue;
      }
      if (!entry.isFile()) continue;
      const skip = rules.skipOfPath(path);
      if (skip) {
        skipped.push(skip);
        continue;
      }
      below.push(
        stat(file).then(
          (s) => void found.push({ path, file, size: s.size, mtimeMs: s.mtimeMs }),
          // Gone between the listing and the stat: not there.
          () => {},
        ),
      );
    }
    await Promise.all(below);
  };
  await walk(root, "");
  const started = Date.now();
  const files = new Map<string, LocalFile>();
  const copies = new Map<string, LocalFile>();
  const clashes: Clash[] = [];
  const byKey = new Map<string, (typeof found)[number][]>();
  const local = (f: (typeof found)[number]): LocalFile => ({ file: f.file, kind: kindOf(f.path), size: f.size, mtimeMs: f.mtimeMs });
  for (const f of found.sort((a, b) => cmp(a.path, b.path))) {
    if (isConflictCopy(f.path)) {
      copies.set(f.path, local(f));
      continue;
    }
    const key = pathKey(f.path);
    byKey.set(key, [...(byKey.get(key) ?? []), f]);
  }
  for (const group of byKey.values()) {
    // Two names the server takes for one: the one it already holds is carried, else the first by name.
    const rank = (f: (typeof group)[number]) => (known(f.path) ? 0 : 2) + (f.file.normalize("NFC") === f.file ? 0 : 1);
    group.sort((a, b) => rank(a) - rank(b) || cmp(a.file, b.file));
    const [carried, ...others] = group;
    files.set(carried!.path, local(carried!));
    for (const o of others) clashes.push({ path: o.file === o.file.normalize("NFC") ? o.path : `${o.path} (decomposed)`, carried: carried!.path });
  }
  const next: HashCache = {};
  // Unchanged files keep their cached hash even when nothing asks for it this time.
  for (const [path, f] of [...files, ...copies]) {
    const c = cache[path];
    if (c && c[0] === f.size && c[1] === f.mtimeMs) next[path] = c;
  }
  const hash = async (f: LocalFile, path: string): Promise<string> => {
    if (f.hash !== undefined) return f.hash;
    const c = next[path];
    f.hash = c ? c[2] : f.kind === "document" ? await noteHash(f.file) : await hashFile(f.file);
    if (!c && f.mtimeMs < started - SETTLE_MS) next[path] = [f.size, f.mtimeMs, f.hash];
    return f.hash;
  };
  return {
    files,
    skipped,
    clashes,
    copies,
    cache: next,
    hash,
    async hashAll() {
      const all = [...files, ...copies];
      let i = 0;
      await Promise.all(
        Array.from({ length: HASHING }, async () => {
          while (i < all.length) {
            const [path, f] = all[i++]!;
            await hash(f, path);
          }
        }),
      );
    },
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A note's hash: of its text (the server hashes the text it is sent), which is the hash of its bytes when they are UTF-8. */
async function noteHash(file: string): Promise<string> {
  try {
    return sha256Hex(await readNote(file));
  } catch {
    // Not UTF-8: hashed as bytes; pushing it reports that it is not text.
    return hashFile(file);
  }
}

export const onDisk = (root: string, relativePath: string) => join(root, ...relativePath.split(posix.sep));

/** Where `path` is written: the file that holds it now (its name as the file system has it), else its NFC name. */
export const placeOf = (root: string, path: string, local?: Map<string, LocalFile>) => local?.get(path)?.file ?? onDisk(root, path);

/** A temporary file beside `target`, renamed over it once whole. */
export async function tempBeside(target: string): Promise<string> {
  await mkdir(dirname(target), { recursive: true });
  return `${target}${TEMP_SUFFIX}`;
}

/** Writes a note's text (or bytes) through a temporary file, so an interrupted sync never leaves half a file. */
export async function writeAt(target: string, content: string | Uint8Array): Promise<void> {
  const temp = await tempBeside(target);
  await writeFile(temp, content);
  await rename(temp, target);
}

export async function removeAt(target: string): Promise<void> {
  await rm(target, { force: true });
}

/** A file moved or renamed on the server follows here: the same file at its new path. */
export async function moveTo(from: string, target: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  await rename(from, target);
}

/** Whether something is at `target` (a file the scan skipped, or one written meanwhile). */
export const exists = async (target: string) => (await lstat(target).catch(() => null)) !== null;

/**
 * Whether a change the file system reports at `relative` (a path under the folder, as
 * fs.watch names it) may change what the folder holds: not the sync's own files (its
 * state, temporary files) nor what the rules skip. Its ignore file counts: it changes the rules.
 */
export function worthSyncing(relative: string, rules: SyncRules): boolean {
  const path = relative.split(/[\\/]/).join("/").normalize("NFC");
  if (path === IGNORE_FILE) return true;
  if (isOwnFile(path) || isConflictCopy(path)) return false;
  return rules.skipOfPath(path) === undefined;
}

/** For messages: the path as the local system writes it. */
export const displayPath = (relativePath: string) => relativePath.split(posix.sep).join(sep);
