// The main thread's side of the SVG sanitizer: one warm worker (jsdom takes ~0.5 s to
// load, so it is kept and reused), one job at a time in arrival order, and a deadline per
// job. A job past its deadline or a worker that dies is answered 422 and the worker is
// killed, never awaited: a parse stuck in a loop ignores everything but terminate(). The
// next job gets a fresh worker.
import { AppError, validationError } from "../../core/errors.ts";
import type { Log } from "../../infra/log.ts";

export interface SvgSanitizer {
  /** The sanitized markup of `text` (an SVG that passed precheckSvg). */
  sanitize(text: string): Promise<string>;
  /** Kills the worker and refuses queued jobs; later calls refuse at once. */
  close(): Promise<void>;
}

export interface SvgSanitizerOptions {
  /** A job that runs longer is abandoned and its worker killed. */
  timeoutMs: number;
  /** How long a new worker may take to load before it counts as dead. */
  startTimeoutMs?: number;
  /** Where killed workers are reported (a hostile upload, or a sanitizer that cannot start). */
  log?: Log;
  /** Starts a worker; tests swap in one that misbehaves on purpose. */
  startWorker?: () => Bun.Worker;
}

// From source the worker sits beside this file. In the executable this code runs from
// the bundle of main.ts at the root of Bun's embedded folder, and the worker is embedded
// there by its path below src/ (scripts/build.ts makes it an entrypoint, with src/ as root).
const inExecutable = import.meta.path.startsWith("/$bunfs/") || import.meta.path.startsWith("B:/~BUN/");
const workerUrl = new URL(inExecutable ? "./modules/images/svg-worker.ts" : "./svg-worker.ts", import.meta.url);
// jsdom's types bring in the DOM lib, whose Worker has no unref().
const startSvgWorker = () => new Worker(workerUrl) as unknown as Bun.Worker;

type Reply = { type: "ready" } | { type: "done"; id: number; svg: string } | { type: "failed"; id: number; message: string };

interface Job {
  id: number;
  text: string;
  resolve(svg: string): void;
  reject(e: Error): void;
}

interface Running {
  worker: Bun.Worker;
  ready: boolean;
  job?: Job;
  timer?: Timer;
}

const tooSlow = () => validationError("file", "the SVG took too long to sanitize");
const crashed = () => validationError("file", "the SVG could not be sanitized");

export function createSvgSanitizer(opts: SvgSanitizerOptions): SvgSanitizer {
  const startTimeoutMs = opts.startTimeoutMs ?? Math.max(opts.timeoutMs, 30_000);
  const queue: Job[] = [];
  let current: Running | undefined;
  let nextId = 1;
  let closed = false;

  function start(): Running {
    const worker = (opts.startWorker ?? startSvgWorker)();
    // An idle worker must not keep the process alive; a job in flight is held by its timer.
    worker.unref();
    const run: Running = { worker, ready: false };
    run.timer = setTimeout(() => discard(run, crashed(), "did not start in time"), startTimeoutMs);
    worker.addEventListener("message", (event) => onReply(run, (event as MessageEvent<Reply>).data));
    worker.addEventListener("error", (event) => discard(run, crashed(), `threw: ${errorText((event as ErrorEvent).message)}`));
    worker.addEventListener("close", () => discard(run, crashed(), "exited"));
    return run;
  }

  function onReply(run: Running, reply: Reply) {
    if (run !== current) return;
    if (reply.type === "ready") {
      clearTimeout(run.timer);
      run.ready = true;
    } else if (run.job && reply.id === run.job.id) {
      clearTimeout(run.timer);
      const job = run.job;
      run.job = undefined;
      if (reply.type === "done") job.resolve(reply.svg);
      else job.reject(crashed());
    }
    pump();
  }

  /** Kills the worker and answers whatever it held: its job, or the jobs waiting for it to start. */
  function discard(run: Running, error: Error, why: string) {
    if (run !== current) return;
    current = undefined;
    clearTimeout(run.timer);
    run.worker.terminate();
    opts.log?.warn("svg sanitizer worker killed", { why, during: run.job ? "job" : "start", queued: queue.length });
    if (run.job) run.job.reject(error);
    else for (const job of queue.splice(0)) job.reject(error);
    pump();
  }

  function pump() {
    if (closed || queue.length === 0) return;
    current ??= start();
    if (!current.ready || current.job) return;
    const run = current;
    const job = queue.shift()!;
    run.job = job;
    run.timer = setTimeout(() => discard(run, tooSlow(), `job ran past ${opts.timeoutMs} ms`), opts.timeoutMs);
    run.worker.postMessage({ id: job.id, text: job.text });
  }

  return {
    sanitize(text) {
      if (closed) return Promise.reject(shuttingDown());
      return new Promise<string>((resolve, reject) => {
        queue.push({ id: nextId++, text, resolve, reject });
        pump();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const run = current;
      current = undefined;
      if (run) {
        clearTimeout(run.timer);
        run.worker.terminate();
        run.job?.reject(shuttingDown());
      }
      for (const job of queue.splice(0)) job.reject(shuttingDown());
    },
  };
}

/** Bun's message for an error thrown in a worker carries a source excerpt first; the log wants the error line. */
const errorText = (message = "") => (/^error: (.+)$/m.exec(message)?.[1] ?? message).slice(0, 200);
const shuttingDown = () => new AppError("SERVICE_UNAVAILABLE", "the server is shutting down");
