// What `shelf sync` remembers between runs, in one small JSON file in the folder: which
// KB the folder mirrors, where the last manifest ended (its cursor and ETag), and for
// every note the master version the local file last agreed with. A note whose hash is
// still that one was not edited here; the version's updatedAt and hash are the base of
// the next push; its docId (where the server gave one) names it in a rename.
import { rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { STATE_FILE } from "./folder.ts";

interface NoteState {
  hash: string;
  updatedAt: string;
  /** The document's id (v2 answers name it; a state written before it was kept has none). */
  docId?: string;
}

export interface SyncState {
  format: 1;
  server: string;
  kb: { slug: string; id: string } | null;
  /** The manifest cursor to send as `since` next time, and the ETag of that request. */
  since: string | null;
  etag: string | null;
  notes: Record<string, NoteState>;
}

/** A note's state; the docId only when known. */
export const noteState = (hash: string, updatedAt: string, docId?: string | null): NoteState => ({ hash, updatedAt, ...(docId && { docId }) });

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
