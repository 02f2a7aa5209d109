// Running `shelf sync` in the test process: its output collected line by line, with a way
// to wait for a line (an event, never a time), and its waits in the test's hands.
import { syncCommand } from "../../clients/sync/index.ts";
import type { SyncCommandIo } from "../../clients/sync/io.ts";

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
