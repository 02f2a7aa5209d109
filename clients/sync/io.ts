// What `shelf sync` touches outside itself, in one place, so tests run it in process: its
// environment, its output, the network, time (waits and the clock) and the signal that
// stops `--watch`.
import type { Send } from "./api.ts";

export interface SyncCommandIo {
  env: Record<string, string | undefined>;
  /** One line of output (stdout). */
  out: (line: string) => void;
  /** One line of complaint (stderr). */
  err: (line: string) => void;
  send: Send;
  /** stdout is a terminal: progress is one line rewritten in place (through `write`). */
  tty?: boolean;
  write?: (text: string) => void;
  /** Waits `ms`, or less when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** This machine's clock, in ms. */
  now?: () => number;
  /** Ends `--watch` (the command listens to SIGINT and SIGTERM when none is given). */
  signal?: AbortSignal;
}

export const realSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

export const defaultIo = (): SyncCommandIo => ({
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  send: (request) => fetch(request),
  tty: process.stdout.isTTY === true,
  write: (text) => process.stdout.write(text),
});
