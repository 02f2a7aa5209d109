// Running `shelf sync` in the test process: its output collected line by line, with a way
// to wait for a line (an event, never a time), and its waits in the test's hands.
import { syncCommand } from "../../clients/sync/index.ts";
import type { SyncCommandIo } from "../../clients/sync/io.ts";
import { expect } from "bun:test";
import { join } from "node:path";
import { callJson, tempDir, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { newKb } from "../kbs/fixtures.ts";

/** Every line the command printed (stdout and stderr apart, and both in order), and waits on them. */
export class Lines {
  out: string[] = [];
  err: string[] = [];
  all: string[] = [];
  private waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];

  readonly pushOut = (line: string) => this.add(this.out, line);
  readonly pushErr = (line: string) => this.add(this.err, line);

  private add(to: string[], line: string) {
    to.push(line);
    this.all.push(line);
    for (const w of [...this.waiters]) {
      if (!w.match(line)) continue;
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(line);
    }
  }

  /** The first line (printed from now on, or already) that equals `text` or matches it. */
  waitFor(text: string | RegExp, since = 0): Promise<string> {
    const match = (line: string) => (typeof text === "string" ? line === text : text.test(line));
    const seen = this.all.slice(since).find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }
}

/** The `--watch` poll in the test's hands: a wait ends when the test ticks (or the wait is called off). */
export class Polls {
  private pending: (() => void)[] = [];
  private early = 0;
  private idle: (() => void)[] = [];
  calls: number[] = [];

  readonly sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      this.calls.push(ms);
      for (const r of this.idle.splice(0)) r();
      if (this.early > 0) {
        this.early--;
        return resolve();
      }
      // A wait called off (a change in the folder woke the command) is no longer pending:
      // a tick while the command syncs must be kept for its next wait, not spent on this one.
      const end = () => {
        this.pending = this.pending.filter((r) => r !== end);
        resolve();
      };
      this.pending.push(end);
      signal?.addEventListener("abort", end, { once: true });
    });

  /** Resolves when the command next starts to wait (it has finished a sync). */
  nextWait(): Promise<void> {
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Ends the wait under way, or the next one when none is. */
  tick(): void {
    const waiting = this.pending.splice(0);
    if (waiting.length === 0) this.early++;
    for (const r of waiting) r();
  }
}

/** Runs the command with `io` (the rest filled in); its exit code and lines. */
export async function runSync(args: string[], io: Partial<SyncCommandIo> & Pick<SyncCommandIo, "send" | "env">, lines = new Lines()) {
  const code = await syncCommand(args, { out: lines.pushOut, err: lines.pushErr, ...io });
  return { code, lines, out: lines.out, err: lines.err };
}

/** A request the command sent, and the status it got. */
interface Seen {
  method: string;
  path: string;
  status: number;
}

/**
 * One run of `shelf sync <folder> --kb <slug>` against `app` (its handler) with an API
 * key: its exit code, its lines, the requests the server saw (every one: a 429 waited out
 * and sent again is two), and the ops of every push it sent. `io`: the rest of the
 * command's world (its waits, say).
 */
export async function syncWith(
  app: { handle: (r: Request) => Response | Promise<Response> },
  folder: string,
  slug: string,
  key: string,
  extra: string[] = [],
  io: Partial<SyncCommandIo> = {},
) {
  const seen: Seen[] = [];
  const pushed: Record<string, unknown>[] = [];
  const done = await runSync([folder, "--kb", slug, "--server", "http://shelf.test", ...extra], {
    // A configuration folder of its own: no sign-in stored on this machine is found.
    env: { SHELF_API_KEY: key, SHELF_CONFIG_DIR: tempDir("shelf-config-") },
    send: async (request) => {
      const path = new URL(request.url).pathname;
      if (request.method === "POST" && path.endsWith("/sync")) pushed.push(...(await request.clone().json()).ops);
      const res = await app.handle(request);
      seen.push({ method: request.method, path, status: res.status });
      return res;
    },
    ...io,
  });
  return { ...done, seen, pushed, summary: done.out.at(-1) ?? "" };
}

/** One run against the shared test app that must exit 0. */
export async function synced(folder: string, slug: string, key: string) {
  const { app } = await testContext();
  const r = await syncWith(app, folder, slug, key);
  if (r.code !== 0) throw new Error(`sync exited ${r.code}: ${r.err.join("\n")}`);
  return r;
}

/** a and b mirror one KB; `path` is edited in both, b first: a's run opens a branch. Its id and a's copy. */
export async function conflicted(path: string, ours: Uint8Array | string = "ours\n", theirs: Uint8Array | string = "theirs\n") {
  const { key } = await makeClient();
  const kb = await newKb(key);
  const a = tempDir("shelf-copies-a-");
  const b = tempDir("shelf-copies-b-");
  await Bun.write(join(a, path), typeof ours === "string" ? "base\n" : new Uint8Array(100));
  await synced(a, kb.slug, key);
  await synced(b, kb.slug, key);
  await Bun.write(join(a, path), ours);
  await Bun.write(join(b, path), theirs);
  await synced(b, kb.slug, key);
  const opened = await synced(a, kb.slug, key);
  const branches = (await callJson("GET", `/v1/kbs/${kb.id}/conflicts`, { token: key })).body.data.items as { branchId: string; relativePath: string }[];
  expect(branches.map((x) => x.relativePath)).toEqual([path]);
  const branchId = branches[0]!.branchId;
  const dot = path.lastIndexOf(".");
  const copy = `${path.slice(0, dot)} (conflict ${branchId})${path.slice(dot)}`;
  expect(opened.out).toContain(`conflict ${path}: your version is in ${copy} (branch ${branchId})`);
  return { key, kb, a, b, branchId, copy, opened };
}
