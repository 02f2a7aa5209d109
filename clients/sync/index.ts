// `shelf sync <folder> --kb <slug>`: mirrors a local folder of notes with a knowledge base,
// the reference client of sync protocol v2; `shelf sync login` and `logout` sign in and
// out with the OAuth device flow (login.ts). The credential: SHELF_API_KEY when set (never
// argv, where other users of the machine could read it), else the stored sign-in for the
// server. The server: --server (or --url), else SHELF_URL, else the one the folder already
// mirrors, else the one server signed in to (without an API key). Exit 0 when everything synced (conflicts
// included: they are resolved into conflict copies), 1 when a change could not be synced,
// 2 on a usage error. What is carried and what is skipped: rules.ts.
import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { apiKeyAuth, type Auth, SyncApi, SyncClientError } from "./api.ts";
import { credentialsPath, loginFor, signedInServers } from "./credentials.ts";
import { defaultIo, realSleep, type SyncCommandIo } from "./io.ts";
import { loginCommand, logoutCommand, SYNC_CLIENT_ID } from "./login.ts";
import { SyncOutput, skippedCount } from "./output.ts";
import { SyncRules } from "./rules.ts";
import { syncFolder } from "./run.ts";
import { OAuthSession } from "./session.ts";
import { emptyState, loadState, type SyncState, saveState } from "./state.ts";
import { watchFolder } from "./watch.ts";

const USAGE = `Usage: shelf sync <folder> --kb <slug> [--server <url>] [--create] [--include <pattern>]... [--exclude <pattern>]...
                  [--watch [--interval <s>]]
       shelf sync login [--url <server>] [--client-id <id>]
       shelf sync logout [--url <server>]

Mirrors <folder> with the knowledge base <slug>: pulls remote changes, pushes local ones.
A <folder> that does not exist yet is made (its parent must exist), and the KB pulled into it.
Notes (.md, .markdown, .typ) go as text, every other file as an attachment. Dot-folders
and dot-files (.obsidian/, .trash/, .git/) and node_modules/ are skipped, as is what the
folder's .shelfignore names (gitignore-like lines; !pattern carries what was skipped).
When a file changed on both sides, it gets the server's version and yours is kept beside
it as "<name> (conflict <branch>).<ext>" (and on the server as a conflict branch); once the
conflict is resolved on the server, an unedited copy is removed.

  login           sign in: shows a code and a URL; approve the code there in a browser
  logout          revoke the sign-in at the server and forget it here

  --create        create the knowledge base when there is none with that slug
  --include P     carry what pattern P names though a rule skips it (--include .obsidian)
  --exclude P     skip what pattern P names (--exclude '*.mov', --exclude archive/)
  --watch         keep syncing: when the folder changes, and every --interval seconds
                  (default 30, at least 5) for changes made elsewhere; Ctrl-C stops
  --server, --url the server (default: SHELF_URL, else the one the folder or the sign-in names)
  --client-id     the OAuth client to sign in as (default shelf-sync)

Environment:
  SHELF_API_KEY     an API key with the kb.read and kb.write scopes; wins over a sign-in
  SHELF_URL         the server, when --server is not given (default http://localhost:8080)
  SHELF_CONFIG_DIR  where the sign-in is kept (default $XDG_CONFIG_HOME/shelf or ~/.config/shelf)
`;

const DEFAULT_SERVER = "http://localhost:8080";
const DEFAULT_INTERVAL_S = 30;
const MIN_INTERVAL_S = 5;
const DEBOUNCE_MS = 300;

const trimSlash = (url: string) => url.replace(/\/+$/, "");

export async function syncCommand(args: string[], io: SyncCommandIo = defaultIo()): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (e) {
    io.err(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    io.out(USAGE);
    return 0;
  }
  const explicit = parsed.server ?? io.env.SHELF_URL;
  try {
    if (parsed.action === "login") return await loginCommand(trimSlash(explicit ?? DEFAULT_SERVER), parsed.clientId ?? SYNC_CLIENT_ID, io);
    if (parsed.action === "logout") return await logoutCommand(trimSlash(explicit ?? (await soleServer(io)) ?? DEFAULT_SERVER), io);
  } catch (e) {
    io.err((e as Error).message);
    return 1;
  }
  const { folder, slug } = parsed;
  if (!folder || !slug) {
    io.err(`a folder and --kb are required\n\n${USAGE}`);
    return 2;
  }
  const root = resolve(folder);
  const found = await stat(root).catch(() => null);
  if (found && !found.isDirectory()) {
    io.err(`${folder} is not a folder`);
    return 2;
  }
  // A new folder to mirror a KB into is made, as a clone makes its own; one whose parent is
  // missing too is more likely a mistyped path than a wish for a tree of folders.
  if (!found) {
    if (!(await stat(dirname(root)).catch(() => null))?.isDirectory()) {
      io.err(`${folder} does not exist, nor does the folder it would be in`);
      return 2;
    }
    await mkdir(root);
    io.out(`created  ${folder}`);
  }
  const output = new SyncOutput(io);
  try {
    const stored = await loadState(root);
    // An API key belongs to a server the user names; a sign-in names its own.
    const signedIn = io.env.SHELF_API_KEY ? undefined : await soleServer(io);
    const server = trimSlash(explicit ?? stored?.server ?? signedIn ?? DEFAULT_SERVER);
    const state = stored ?? emptyState(server);
    if (state.server !== server || (state.kb && state.kb.slug !== slug)) {
      io.err(`${folder} mirrors ${state.kb?.slug ?? "a knowledge base"} on ${state.server}; it cannot mirror ${slug} on ${server} too`);
      return 2;
    }
    const auth = await credential(server, io);
    if (!auth) {
      io.err(`not signed in to ${server}: run \`shelf sync login --url ${server}\`, or set SHELF_API_KEY`);
      return 2;
    }
    const api = new SyncApi(server, auth, io.send, io.sleep ?? realSleep);
    if (!state.kb) {
      state.kb = { slug, id: await findOrCreateKb(api, slug, parsed.create, output) };
      await saveState(root, state);
    }
    const target: Target = { api, kbId: state.kb.id, root, state, flags: { include: parsed.include, exclude: parsed.exclude }, now: io.now ?? Date.now };
    if (!parsed.watch) return (await syncOnce(target, output, false)) ? 0 : 1;
    return await watchCommand(target, output, parsed.intervalS, io);
  } catch (e) {
    output.complain(e instanceof SyncClientError ? e.message : `sync failed: ${(e as Error).message}`);
    return 1;
  }
}

/** The API key, else the stored sign-in for `server`; undefined when there is neither. */
async function credential(server: string, io: SyncCommandIo): Promise<Auth | undefined> {
  if (io.env.SHELF_API_KEY) return apiKeyAuth(io.env.SHELF_API_KEY);
  const file = credentialsPath(io.env);
  const login = await loginFor(file, server);
  return login && new OAuthSession({ server, file, send: io.send, now: io.now ?? Date.now }, login);
}

/** The server of the only sign-in stored, if there is exactly one. */
async function soleServer(io: SyncCommandIo): Promise<string | undefined> {
  const servers = await signedInServers(credentialsPath(io.env));
  return servers.length === 1 ? servers[0] : undefined;
}

async function findOrCreateKb(api: SyncApi, slug: string, create: boolean, output: SyncOutput): Promise<string> {
  try {
    return await api.kbIdBySlug(slug);
  } catch (e) {
    if (!(create && e instanceof SyncClientError && e.status === 404)) throw e;
  }
  const id = await api.createKb(slug);
  output.line(`created  knowledge base ${slug}`);
  return id;
}

/** What a sync works on: the server and KB, the folder and its state, the command's rules. */
interface Target {
  api: SyncApi;
  kbId: string;
  root: string;
  state: SyncState;
  flags: { include: string[]; exclude: string[] };
  now: () => number;
  /** The rules of the last sync (read again at each: .shelfignore may change under --watch). */
  rules?: SyncRules;
}

/**
 * One sync with its output: each change as it happens, the refusals folded, what was
 * skipped and the conflicts pending, and a summary. `quiet` (--watch): nothing when nothing
 * happened, and no refusal, skip or pending conflict printed twice running. True when
 * everything synced (skips by rule or size and pending conflicts are not failures).
 */
async function syncOnce(t: Target, output: SyncOutput, quiet: boolean): Promise<boolean> {
  const { api } = t;
  const before = api.requests;
  const rules = await SyncRules.load(t.root, t.flags);
  if (rules.ignored.length && !quiet) output.complain(`not rules, ignored: ${rules.ignored.join(", ")}`);
  t.rules = rules;
  const report = await syncFolder(
    api,
    t.kbId,
    t.root,
    t.state,
    rules,
    { event: (e) => output.event(e), progress: (p, n, total) => output.progress(p, n, total) },
    t.now,
  );
  const newProblems = output.problems(report.problems, quiet);
  output.notes(report.skipped, report.pending, report.kept, quiet);
  const conflicts = report.events.filter((e) => e.kind === "conflict").length;
  const changes = report.events.length - conflicts;
  const requests = api.requests - before;
  const tail = [skippedCount(report.skipped), report.pending.length ? `${report.pending.length} pending conflict(s)` : undefined, `${requests} request(s)`]
    .filter(Boolean)
    .join("; ");
  if (changes === 0 && conflicts === 0 && (quiet ? newProblems === 0 : report.problems.length === 0)) {
    if (!quiet) output.line(`up to date; ${tail}`);
  } else {
    output.line(`${changes} change(s), ${conflicts} conflict(s)${report.problems.length ? `, ${report.problems.length} not synced` : ""}; ${tail}`);
  }
  return report.problems.length === 0;
}

/** Answers that no retry will change: the sign-in or the key refused, the KB gone. */
const fatal = (e: unknown) => e instanceof SyncClientError && (e.status === 401 || e.status === 403 || e.status === 404);

async function watchCommand(t: Target, output: SyncOutput, intervalS: number, io: SyncCommandIo) {
  const { root } = t;
  const stop = new AbortController();
  const signal = io.signal ?? stop.signal;
  const onSignal = () => stop.abort();
  // Once: a second Ctrl-C while a sync finishes ends the process at once.
  if (!io.signal) for (const s of ["SIGINT", "SIGTERM"] as const) process.once(s, onSignal);
  output.line(`watching ${root}: syncing on changes, and every ${intervalS} s for changes made elsewhere (Ctrl-C stops)`);
  /** The last failure printed, and how often it has happened since: the same failure is not printed each time. */
  let failing: { message: string; count: number } | undefined;
  let gaveUp = false;
  try {
    const stopped = await watchFolder({
      root,
      pollMs: intervalS * 1000,
      debounceMs: DEBOUNCE_MS,
      signal,
      sleep: io.sleep ?? realSleep,
      rules: () => t.rules ?? SyncRules.from(""),
      sync: async () => {
        try {
          await syncOnce(t, output, true);
          if (failing) output.line(`syncing again after ${failing.count} failed attempt(s)`);
          failing = undefined;
          return true;
        } catch (e) {
          const message = e instanceof SyncClientError ? e.message : `sync failed: ${(e as Error).message}`;
          if (failing?.message === message) failing.count++;
          else {
            output.complain(message);
            failing = { message, count: 1 };
          }
          if (fatal(e)) gaveUp = true;
          return !gaveUp;
        }
      },
    });
    if (stopped) output.line("stopped watching");
    return gaveUp ? 1 : 0;
  } finally {
    for (const s of ["SIGINT", "SIGTERM"] as const) process.off(s, onSignal);
  }
}

function parse(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      kb: { type: "string" },
      server: { type: "string" },
      url: { type: "string" },
      "client-id": { type: "string" },
      create: { type: "boolean" },
      watch: { type: "boolean" },
      interval: { type: "string" },
      include: { type: "string", multiple: true },
      exclude: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
  });
  const action = positionals[0] === "login" || positionals[0] === "logout" ? positionals[0] : "sync";
  const rest = action === "sync" ? positionals : positionals.slice(1);
  if (rest.length > (action === "sync" ? 1 : 0)) throw new Error(action === "sync" ? `one folder, not ${rest.length}` : `${action} takes no folder`);
  if (values.server && values.url && values.server !== values.url) throw new Error("--server and --url name the same thing: give one");
  const intervalS = values.interval === undefined ? DEFAULT_INTERVAL_S : Number(values.interval);
  if (!Number.isFinite(intervalS) || intervalS < MIN_INTERVAL_S) throw new Error(`--interval is a number of seconds, at least ${MIN_INTERVAL_S}`);
  return {
    action,
    folder: rest[0],
    slug: values.kb,
    server: values.server ?? values.url,
    clientId: values["client-id"],
    create: values.create === true,
    watch: values.watch === true,
    intervalS,
    include: values.include ?? [],
    exclude: values.exclude ?? [],
    help: values.help,
  };
}
