// The transcode worker of the worker role: claims queued provider jobs (queue.ts) and runs
// them, up to TRANSCODE_CONCURRENCY at once per node. step() runs one job to its end and
// is what tests drive; start() loops it until stop(). Each job is logged as it starts, as
// it moves (progress.ts) and as it ends, with the video's id and the job's
// (docs/operators.md, "Logs"); an idle loop says nothing.
import type { Deps } from "../../core/deps.ts";
import { newId } from "../../infra/ids.ts";
import { epochMs } from "../../infra/tracing.ts";
import { progressReporter, type OnProgress } from "./progress.ts";
import type { Providers } from "./providers/index.ts";
import { LeaseLost, type JobRun } from "./providers/types.ts";
import { checkpoint, claim, complete, givesUp, queueDepth, renew, retryLater } from "./queue.ts";
import { workLoop } from "../../infra/work-loop.ts";

/**
 * A job's lease: renewed while it runs (on progress, between uploads, and every
 * HEARTBEAT_MS whatever the job is doing), so a dead worker's job is retaken this long after
 * it died. `make chaos` found the 5 minutes it was holding a SIGKILLed worker's video in
 * processing for that long; a heartbeat lets it be short without a slow step losing it.
 */
const LEASE_MS = 60_000;
const HEARTBEAT_MS = 15_000;
/** How long an idle loop waits before looking for work again. */
const IDLE_MS = 2_000;

export interface TranscodeWorker {
  /** Claims one due job and runs it; false when none was due. */
  step(): Promise<boolean>;
  start(concurrency: number): void;
  stop(): Promise<void>;
}

export interface WorkerOptions {
  providers: Providers;
  /** Sends a provider callback to the API. */
  deliver?: (request: Request) => Promise<Response>;
  /** This worker's name in the leases it holds. */
  id?: string;
  /** How often a running job's lease is renewed (HEARTBEAT_MS; tests make it short). */
  heartbeatMs?: number;
  /** Told each progress written to a video, once it is written (and awaited): what a test watches. */
  onProgress?: OnProgress;
}

export function createTranscodeWorker(deps: Deps, o: WorkerOptions): TranscodeWorker {
  const worker = o.id ?? `worker-${newId()}`;
  const deliver = o.deliver ?? ((req: Request) => fetch(req));
  const stopping = new AbortController();
  const loops: Promise<void>[] = [];
  const log = deps.log.child({ component: "transcode" });

  async function step(): Promise<boolean> {
    const job = await claim(deps.db, worker, deps.clock.now(), LEASE_MS);
    if (!job) return false;
    const began = performance.now();
    const ids = { videoId: job.videoId, jobId: job.id, provider: job.provider };
    const ms = () => Math.round(performance.now() - began);
    const transcode = job.kind === "transcode";
    // A cleanup is the tail of a delete, logged at its end only.
    if (transcode) log.info("transcode started", { ...ids, attempt: job.attempts });
    const run: JobRun = {
      deps,
      job,
      signal: stopping.signal,
      deliver,
      checkpoint: (payload) => checkpoint(deps.db, job, worker, payload),
      renew: () => renew(deps.db, job, worker, deps.clock.now(), LEASE_MS),
      progress: progressReporter(deps, log, job, () => renew(deps.db, job, worker, deps.clock.now(), LEASE_MS), o.onProgress),
    };
    // Renewed on the node's own timer while the job runs: a step without progress (a long
    // ffmpeg pass, an upload) keeps the lease; a failed renewal is tried again next beat.
    const counted = deps.metrics.transcodeStarted(job.kind);
    const ended = (result: "ok" | "failed" | "lease_lost", error?: string) => {
      counted(result);
      deps.tracing.record({
        name: `transcode ${job.kind}`,
        kind: "internal",
        startMs: epochMs(began),
        endMs: epochMs(performance.now()),
        attributes: {
          "shelf.video_id": job.videoId,
          "shelf.transcode_job_id": job.id,
          "shelf.provider": job.provider,
          "shelf.attempt": job.attempts,
          "shelf.outcome": result,
        },
        error,
      });
    };
    const heartbeat = setInterval(() => void renew(deps.db, job, worker, deps.clock.now(), LEASE_MS).catch(() => {}), o.heartbeatMs ?? HEARTBEAT_MS);
    try {
      const end = await o.providers[job.provider].run(run);
      await complete(deps.db, job, worker, deps.clock.now());
      ended("ok");
      if (transcode) log.info("transcode finished", { ...ids, ...(end ?? { outcome: "done" }), ms: ms() });
      else log.info("video cleanup finished", { ...ids, ms: ms() });
    } catch (err) {
      if (err instanceof LeaseLost) {
        ended("lease_lost");
        log.warn("transcode job lease lost; another worker has it", { ...ids, kind: job.kind, ms: ms() });
        return true;
      }
      const gaveUp = givesUp(job);
      log.error(gaveUp ? "video provider job failed; given up" : "video provider job failed; retrying later", {
        ...ids,
        kind: job.kind,
        attempt: job.attempts,
        outcome: gaveUp ? "gave_up" : "retrying",
        ms: ms(),
        err,
      });
      ended("failed", String((err as Error)?.message ?? err).slice(0, 500));
      await retryLater(deps.db, job, worker, deps.clock.now(), String((err as Error)?.message ?? err));
    } finally {
      clearInterval(heartbeat);
    }
    return true;
  }

  const loop = () => workLoop(step, { signal: stopping.signal, idleMs: IDLE_MS, onError: (err) => log.error("transcode worker step failed", { err }) });

  return {
    step,
    start(concurrency) {
      // Before the first job: what a killed worker of this node left (its work folders).
      const recovered = Promise.all(
        [...new Set(Object.values(o.providers))].map((p) =>
          p.recover?.().catch((err) => log.error("video provider recovery failed", { provider: p.name, err })),
        ),
      );
      log.info("transcode worker started", { concurrency });
      deps.metrics.transcodeQueue(() => queueDepth(deps.db));
      for (let i = 0; i < concurrency; i++) loops.push(recovered.then(loop));
    },
    async stop() {
      stopping.abort();
      await Promise.allSettled(loops);
    },
  };
}
