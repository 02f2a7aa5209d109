// `shelf admin` while a server runs. Every `shelf serve` listens on DATA_DIR/admin.sock, a
// Unix socket that only the account running it may open (mode 0600), and runs the admin
// commands sent there on its own parts. The embedded database belongs to one process, so
// this is how `shelf admin` reaches it while the server runs; on Postgres it is the same
// door, and a command run with no server up opens the parts itself (src/wiring/cli/admin.ts).
// Whoever can open the socket could as well read DATA_DIR (the database, the secret), so
// the file's owner is the credential: nothing else is asked. This file is the command's
// side; admin-server.ts is the server's.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Config } from "../../config.ts";

export const adminSocketPath = (config: Pick<Config, "DATA_DIR">) => join(resolve(config.DATA_DIR), "admin.sock");

export interface Line {
  stream: "out" | "err";
  text: string;
}
export interface Answer {
  code: number;
  lines: Line[];
  /** Which instance the server acts on, in its own words (instance.ts); a server older than this field sends none. */
  instance?: string;
}

/** Runs `args` on the server at `path`; undefined when no server answers there. */
export async function runOverSocket(path: string, args: string[]): Promise<Answer | undefined> {
  if (!existsSync(path)) return undefined;
  let response: Response;
  try {
    response = await fetch("http://admin/run", {
      unix: path,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ args }),
    });
  } catch {
    return undefined; // a socket left by a server that is gone: nobody listens
  }
  return (await response.json()) as Answer;
}

/** Whether a server answers on the socket at `path`. */
export async function socketAnswers(path: string): Promise<boolean> {
  try {
    const response = await fetch("http://admin/ping", { unix: path, signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}
