// The server's side of the admin socket (src/wiring/cli/admin-socket.ts): `shelf serve` listens
// on DATA_DIR/admin.sock and runs there the commands `shelf admin` sends.
import { chmodSync, existsSync, mkdirSync, unlinkSync } from "node:fs";
import { resolve } from "node:path";
import type { Deps } from "../deps.ts";
import { runAdmin } from "./admin.ts";
import { type Answer, adminSocketPath, type Line, socketAnswers } from "./admin-socket.ts";
import { describeInstance } from "./instance.ts";

/** Longest Unix socket path the kernel takes (sun_path is 108 bytes with its terminator). */
const MAX_SOCKET_PATH = 107;

/**
 * Listens on DATA_DIR/admin.sock; undefined when it cannot (another process on the same
 * DATA_DIR holds it, or the path is too long for a socket), which is logged, not fatal:
 * `shelf admin` then opens the parts itself, as it does on Postgres.
 */
export async function listenAdminSocket(deps: Deps): Promise<{ stop(): void } | undefined> {
  const { log } = deps;
  const path = adminSocketPath(deps.config);
  if (path.length > MAX_SOCKET_PATH) {
    log.warn("no admin socket: DATA_DIR's path is too long for a Unix socket", { path });
    return undefined;
  }
  mkdirSync(resolve(deps.config.DATA_DIR), { recursive: true, mode: 0o700 });
  if (existsSync(path)) {
    if (await socketAnswers(path)) {
      log.info("admin socket held by another process on this DATA_DIR", { path });
      return undefined;
    }
    unlinkSync(path);
  }
  // The socket is made with the process's umask: narrowed while it is bound, so there is no
  // moment in which another account could open it, then set to 0600 in any case.
  const umask = process.umask(0o177);
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({
      unix: path,
      maxRequestBodySize: 64 * 1024,
      fetch: async (request, self) => {
        // A command answers when it is done: a backup or a sweep of a large store takes minutes,
        // and Bun's default would close the connection after 10 s without an answer.
        self.timeout(request, 0);
        const url = new URL(request.url);
        if (url.pathname === "/ping") return new Response("ok");
        if (url.pathname !== "/run" || request.method !== "POST") return new Response("not found", { status: 404 });
        const body = (await request.json().catch(() => undefined)) as { args?: unknown } | undefined;
        const args = body?.args;
        if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) return new Response("args must be strings", { status: 400 });
        const lines: Line[] = [];
        let code: number;
        try {
          code = await runAdmin(
            deps,
            args,
            (text) => lines.push({ stream: "out", text }),
            (text) => lines.push({ stream: "err", text }),
          );
        } catch (err) {
          log.error("admin command failed", { command: args.slice(0, 2).join(" "), err });
          lines.push({ stream: "err", text: `shelf admin: ${(err as Error).message}` });
          code = 1;
        }
        log.info("admin command", { command: args.slice(0, 2).join(" "), code });
        return Response.json({ code, lines, instance: describeInstance(deps.config) } satisfies Answer);
      },
    });
  } catch (err) {
    log.warn("no admin socket", { path, err });
    return undefined;
  } finally {
    process.umask(umask);
  }
  chmodSync(path, 0o600);
  return {
    stop() {
      server.stop(true);
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    },
  };
}
