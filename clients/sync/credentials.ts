// Where `shelf sync login` keeps its sign-ins: one JSON file, per server, of the OAuth
// client, the refresh token and the current access token. The file is its owner's alone
// (0600, in a folder made 0700) and is always replaced whole through a temporary file, so
// a crash leaves the previous sign-in or the next, never half of one, and a refresh token
// the server has just rotated is on disk before its access token is used.
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export interface ServerLogin {
  clientId: string;
  refreshToken: string;
  accessToken: string;
  /** When the access token is to be renewed, by this machine's clock (ms): a minute before it expires. */
  renewAt: number;
  scope: string;
}

interface CredentialsFile {
  format: 1;
  servers: Record<string, ServerLogin>;
}

type Env = Record<string, string | undefined>;

/** `$SHELF_CONFIG_DIR/credentials.json`, else under `$XDG_CONFIG_HOME/shelf` or `~/.config/shelf`. */
export function credentialsPath(env: Env): string {
  if (env.SHELF_CONFIG_DIR) return join(env.SHELF_CONFIG_DIR, "credentials.json");
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(config, "shelf", "credentials.json");
}

async function readAll(file: string): Promise<CredentialsFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { format: 1, servers: {} };
    throw e;
  }
  const parsed = JSON.parse(text) as CredentialsFile;
  if (parsed.format !== 1 || typeof parsed.servers !== "object" || parsed.servers === null) {
    throw new Error(`${file} is not a credentials file this version can read`);
  }
  return parsed;
}

/** The sign-in stored for `server`, if any. */
export async function loginFor(file: string, server: string): Promise<ServerLogin | undefined> {
  return (await readAll(file)).servers[server];
}

/** The servers signed in to. */
export async function signedInServers(file: string): Promise<string[]> {
  return Object.keys((await readAll(file)).servers);
}

/** Stores (or, with null, forgets) the sign-in for `server`; the file goes when none is left. */
export async function saveLogin(file: string, server: string, login: ServerLogin | null): Promise<void> {
  const all = await readAll(file);
  if (login) all.servers[server] = login;
  else delete all.servers[server];
  if (Object.keys(all.servers).length === 0) {
    await rm(file, { force: true });
    return;
  }
  // Made 0700 when made here; a folder the user named and made is left as it is.
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${crypto.randomUUID()}.tmp`;
  // Created 0600 (never readable by others, not even for a moment) and flushed before it replaces the old file.
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(all, null, 1)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}
