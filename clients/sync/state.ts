// What `shelf sync` remembers between runs, in one small JSON file in the folder: which
// KB the folder mirrors, where the last manifest ended (its cursor and ETag), and for
// every note the master version the local file last agreed with. A note whose hash is
// still that one was not edited here; the version's updatedAt and hash are the base of
// the next push; its docId (where the server gave one) names it in a rename. Attachments
// are kept beside the notes, marked `kind: "file"`. Besides: the local hashes (so an
// unchanged file is not read again), the conflict copies this client wrote, the plan's
// limit on an attachment's size as the server last told it, and the rules the folder was
// last synced with. Fields added after the first version are optional: an older state
// reads as one with none of them.
import { rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { HashCache, Kind } from "./folder.ts";
import { STATE_FILE } from "./rules.ts";

interface NoteState {
  hash: string;
  updatedAt: string;
  /** The document's id (v2 answers name it; a state written before it was kept has none). */
  docId?: string;
  /** An attachment; a note has none. */
  kind?: "file";
}

/** A pending conflict branch this client knows of, by its id. */
interface ConflictState {
  /** The note's (or attachment's) path. */
  path: string;
  /** The conflict copy this client wrote, and the hash of what it wrote: unedited, it goes once the branch is resolved. */
  copy?: string;
  hash?: string;
  /** The branch was resolved on the server, but the copy was edited since: it stays, and is named, until removed here. */
  resolved?: true;
}

export interface SyncState {
  format: 1;
  server: string;
  kb: { slug: string; id: string } | null;
  /** The manifest cursor to send as `since` next time, and the ETag of that request. */
  since: string | null;
  etag: string | null;
  /** The `since` the ETag answered (an ETag names its question); absent in an older state. */
  etagSince?: string | null;
  notes: Record<string, NoteState>;
  hashes?: HashCache;
  conflicts?: Record<string, ConflictState>;
  /** The plan's largest attachment in bytes as the server told it, and when (ms): trusted for a day. */
  fileLimit?: { bytes: number; at: number };
  /** Notes the server refused as larger than the plan's documents, by path: not sent again while unchanged (for a day). */
  oversize?: Record<string, { hash: string; size: number; limit: number; at: number }>;
  /** The fingerprint of the rules of the last sync (rules.ts): when they change, the whole manifest is read again. */
  rules?: string;
  /** A manifest entry named a document with pending branches this client does not track: the next run lists them. */
  listConflicts?: boolean;
}

/** A note's or an attachment's state; the docId only when known. */
export const noteState = (hash: string, updatedAt: string, docId?: string | null, kind: Kind = "document"): NoteState => ({
  hash,
  updatedAt,
  ...(docId && { docId }),
  ...(kind === "file" && { kind: "file" as const }),
});

export const emptyState = (server: string): SyncState => ({ format: 1, server, kb: null, since: null, etag: null, notes: {} });

/** The folder's state; null for a folder that has not been synced yet. */
export async function loadState(root: string): Promise<SyncState | null> {
  const file = Bun.file(join(root, STATE_FILE));
  if (!(await file.exists())) return null;
  const state = (await file.json()) as SyncState;
  if (state.format !== 1 || typeof state.notes !== "object") throw new Error(`${STATE_FILE} is not a state file this version can read`);
  return state;
}

/** Written whole through a temporary file: a crash leaves the previous state, never half of one. */
export async function saveState(root: string, state: SyncState): Promise<void> {
  const file = join(root, STATE_FILE);
  await writeFile(`${file}.tmp`, `${JSON.stringify(state, null, 1)}\n`);
  await rename(`${file}.tmp`, file);
}
