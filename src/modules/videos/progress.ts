// A transcode's progress as its provider learns it (the local provider: ffmpeg's
// `-progress` out_time against the duration, rendition by rendition, then the uploads):
// written to the video for the status poll, logged, and the job's lease extended with it.
import type { Deps } from "../../core/deps.ts";
import type { Log } from "../../infra/log.ts";
import { reportProgress } from "./state.ts";
import type { TranscodeJobRow } from "./table.ts";

/** Told each progress once it is written to the video (and awaited before the work goes on). */
export type OnProgress = (videoId: string, progress: number) => void | Promise<void>;

/**
 * A write at most every second, or sooner once the bar moved 5%: ffmpeg reports twice a
 * second, and a poller asks every 5 to 10 s, so more writes would tell nobody more.
 */
const STEP = 0.05;
const INTERVAL_MS = 1000;

/**
 * The job's `progress` (providers/types.ts): false when the lease was lost. Each write is
 * logged, at info when it passes a tenth (a long transcode says where it is ten times),
 * else at debug.
 */
export function progressReporter(deps: Deps, log: Log, job: Pick<TranscodeJobRow, "id" | "videoId">, renew: () => Promise<boolean>, onProgress?: OnProgress) {
  let written = 0;
  let writtenAt = performance.now();
  let tenths = 0;
  return async (fraction: number): Promise<boolean> => {
    // Never 1 before the video is ready: ready is what says it is done.
    const p = Math.min(0.99, Math.max(0, fraction));
    const now = performance.now();
    // (The step compared with a little slack: 0.95 - 0.9 is 0.0499… in floating point.)
    if (p <= written || (p - written < STEP - 1e-9 && now - writtenAt < INTERVAL_MS)) return true;
    if (!(await renew())) return false;
    written = p;
    writtenAt = now;
    await reportProgress(deps, job.videoId, p);
    const fields = { videoId: job.videoId, jobId: job.id, progress: Math.round(p * 1000) / 1000 };
    if (Math.floor(p * 10) > tenths) {
      tenths = Math.floor(p * 10);
      log.info("transcode progress", fields);
    } else log.debug("transcode progress", fields);
    await onProgress?.(job.videoId, p);
    return true;
  };
}
