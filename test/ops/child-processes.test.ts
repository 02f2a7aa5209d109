// A node killed outright (SIGKILL: no handler runs) takes its child processes with it:
// ffmpeg, ffprobe and the Typst compiler are started through spawnChild, which ties them to
// their parent where the platform can (src/infra/child-process.ts). The parent here is a
// real process (fixtures/spawn-parent.ts); its child holds a connection to the test, which
// closes when the child is gone: the test waits on that (a child that stays makes the test
// run out of its time).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { childTie } from "../../src/infra/child-process.ts";
import { tempDir } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const FIXTURE = new URL("./fixtures/spawn-parent.ts", import.meta.url).pathname;
const SRC = new URL("../../src/", import.meta.url).pathname;

/** Running, as opposed to gone or a zombie nobody has reaped yet (a container's pid 1 may not reap). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Starts the parent, learns its child's pid, kills the parent with SIGKILL; resolves once the child is gone. */
async function killParent(args: string[]): Promise<boolean> {
  let pid: (n: number) => void = () => {};
  let closed: () => void = () => {};
  const childPid = new Promise<number>((resolve) => (pid = resolve));
  const childGone = new Promise<true>((resolve) => (closed = () => resolve(true)));
  let said = "";
  const holder = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data: (_s, data) => {
        said += data.toString();
        if (said.includes("\n")) pid(Number(said.trim()));
      },
      close: () => closed(),
    },
  });
  const parent = Bun.spawn([process.execPath, FIXTURE, ...args], {
    env: { ...process.env, HOLD_PORT: String(holder.port) },
    stdin: "ignore",
    stdout: "inherit",
    stderr: "inherit",
  });
  let child = 0;
  try {
    child = await Promise.race([childPid, parent.exited.then((code) => Promise.reject(new Error(`the parent exited (${code}) before its child ran`)))]);
    expect(running(child)).toBe(true);
    parent.kill("SIGKILL");
    expect(await parent.exited).not.toBe(0);
    // The child never closes the connection itself: it closes as the child exits.
    return await childGone;
  } finally {
    parent.kill("SIGKILL");
    if (child && running(child)) process.kill(child, "SIGKILL");
    holder.stop(true);
  }
}

describe("child processes die with the process that started them", () => {
  test.skipIf(process.platform !== "linux")("on Linux children are tied to their parent (setpriv --pdeathsig)", async () => {
    expect(await childTie()).toMatchObject({ tied: true });
  });

  test.skipIf(process.platform !== "linux")("a child started through spawnChild is gone once its parent is killed with SIGKILL", async () => {
    expect(await killParent(["sleep"])).toBe(true);
  });

  test.skipIf(process.platform !== "linux")("ffprobe of the local video provider is gone once its worker is killed with SIGKILL", async () => {
    expect(await killParent(["ffprobe", tempDir("shelf-spawn-")])).toBe(true);
  });

  test("every child process of the server is started through spawnChild", () => {
    const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts"));
    const direct = files.filter((f) => {
      // The dashboard's bundle runs the bundler at build time (a macro), never in the server.
      if (f === "infra/child-process.ts" || f === "modules/center/bundle.ts") return false;
      return /\bBun\.spawn(Sync)?\(|node:child_process|["']child_process["']/.test(readFileSync(join(SRC, f), "utf8"));
    });
    expect(direct).toEqual([]);
  });
});
