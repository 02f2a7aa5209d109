// One interface for every video provider (VIDEO_PROVIDER): the local ffmpeg provider and
// hosted ones. A provider's work runs from the durable queue (queue.ts, worker.ts); its
// completion reaches the API as a signed callback (POST /webhooks/<name>), which it
// verifies and reads; reconciliation asks it about videos it has not reported on.
import type { Deps } from "../../../core/deps.ts";
import type { ProviderEvent } from "../state.ts";
import type { TranscodeJobRow, VideoProviderName, VideoRow } from "../table.ts";

/** A claimed job and what its runner may do while holding it. */
export interface JobRun {
  deps: Deps;
  job: TranscodeJobRow;
  /** Stores what the job achieved so far; false when the lease was lost (stop at once). */
  checkpoint(payload: Record<string, unknown>): Promise<boolean>;
  /** Extends the lease (call it now and then during long work); false when it was lost. */
  renew(): Promise<boolean>;
  /**
   * How far the transcode is (0..1), as often as the provider learns it: written to the
   * video (at most every second or 5%; status poll) and logged, and the lease extended.
   * False when the lease was lost (stop at once).
   */
  progress(fraction: number): Promise<boolean>;
  /** Sends a callback to the API (fetch in production; the app's handler in tests). */
  deliver(request: Request): Promise<Response>;
  signal: AbortSignal;
}

/**
 * What a job's run came to, for its log line: a transcode ready or failed (the local
 * provider knows at once), handed to a hosted provider (which reports later), or nothing to
 * do (the video deleted or moved on). Undefined for a cleanup.
 */
export type RunOutcome = { outcome: "ready" } | { outcome: "failed"; reason: string } | { outcome: "submitted" } | { outcome: "skipped"; reason: string };

export interface VideoProvider {
  readonly name: VideoProviderName;
  /** Performs one claimed job (a transcode, or the cleanup after a delete); throws to retry later. */
  run(r: JobRun): Promise<RunOutcome | undefined>;
  /**
   * Verifies a callback (throws 401 UNAUTHORIZED when its signature, or its timestamp's
   * tolerance, fails) and reads it; null for an event that changes nothing here.
   */
  parseCallback(rawBody: string, headers: Headers, now: Date): ProviderEvent | null;
  /** What the provider knows of a video it has not reported on; null when still at work. */
  status(deps: Deps, video: VideoRow): Promise<ProviderEvent | null>;
  /** Removes what a killed worker of this node left behind; a worker runs it once as it starts, before any job. */
  recover?(): Promise<void>;
}

/** Thrown when the lease was lost mid-job: the job is someone else's now. */
export class LeaseLost extends Error {}
