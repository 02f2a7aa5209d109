// `shelf sync <folder> --kb <slug>`: mirrors a local folder of notes with a knowledge base,
// the reference client of sync protocol v2. The API key comes from SHELF_API_KEY (never
// from argv, where other users of the machine could read it); the server from --server or
// SHELF_URL. Exit 0 when everything synced (conflicts included: they are resolved into
// conflict copies), 1 when a change could not be synced, 2 on a usage error.
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { type Send, SyncApi, SyncClientError } from "./api.ts";
import { displayPath } from "./folder.ts";
import { syncFolder } from "./run.ts";
import { loadState, saveState } from "./state.ts";

const USAGE = `Usage: shelf sync <folder> --kb <slug> [--server <url>]

Mirrors <folder> with the knowledge base <slug>: pulls remote changes, pushes local ones.
When a note changed on both sides, the note gets the server's text and yours is kept
beside it as "<name> (conflict <branch>).md" (and on the server as a conflict branch).

Environment:
  SHELF_API_KEY   an API key with the kb.read and kb.write scopes (required)
  SHELF_URL       the server, when --server is not given (default http://localhost:8080)
`;

export interface SyncCommandIo {
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
  send: Send;
}

const defaultIo = (): SyncCommandIo => ({
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  send: (request) => fetch(request),
});

export async function syncCommand(args: string[], io: SyncCommandIo = defaultIo()): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (e) {
    io.err(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { folder, slug, help } = parsed;
  if (help) {
    io.out(USAGE);
    return 0;
  }
  const apiKey = io.env.SHELF_API_KEY;
  if (!folder || !slug || !apiKey) {
    io.err(`${!apiKey && folder && slug ? "SHELF_API_KEY is not set" : "a folder and --kb are required"}\n\n${USAGE}`);
    return 2;
  }
  const server = (parsed.server ?? io.env.SHELF_URL ?? "http://localhost:8080").replace(/\/+$/, "");
  const root = resolve(folder);
  if (!(await stat(root).catch(() => null))?.isDirectory()) {
    io.err(`${folder} is not a folder`);
    return 2;
  }
  try {
    const state = await loadState(root, server);
    if (state.server !== server || (state.kb && state.kb.slug !== slug)) {
      io.err(`${folder} mirrors ${state.kb?.slug ?? "a knowledge base"} on ${state.server}; it cannot mirror ${slug} on ${server} too`);
      return 2;
    }
    const api = new SyncApi(server, apiKey, io.send);
    if (!state.kb) {
      state.kb = { slug, id: await api.kbIdBySlug(slug) };
      await saveState(root, state);
    }
    const report = await syncFolder(api, state.kb.id, root, state);
    for (const path of report.downloaded) io.out(`pulled   ${displayPath(path)}`);
    for (const path of report.removedLocally) io.out(`removed  ${displayPath(path)}`);
    for (const path of report.pushed) io.out(`pushed   ${displayPath(path)}`);
    for (const c of report.conflicts) io.out(`conflict ${displayPath(c.relativePath)}: your version is in ${displayPath(c.copy)} (branch ${c.branchId})`);
    for (const e of report.errors) io.err(`not synced: ${e}`);
    const total = report.downloaded.length + report.removedLocally.length + report.pushed.length;
    io.out(
      `${total === 0 && report.conflicts.length === 0 ? "up to date" : `${total} change(s), ${report.conflicts.length} conflict(s)`}; ${api.requests} request(s)`,
    );
    return report.errors.length ? 1 : 0;
  } catch (e) {
    io.err(e instanceof SyncClientError ? e.message : `sync failed: ${(e as Error).message}`);
    return 1;
  }
}

function parse(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { kb: { type: "string" }, server: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (positionals.length > 1) throw new Error(`one folder, not ${positionals.length}`);
  return { folder: positionals[0], slug: values.kb, server: values.server, help: values.help };
}
