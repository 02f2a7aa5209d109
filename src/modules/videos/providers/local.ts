// The local provider: ffmpeg on worker nodes. A transcode job downloads the original to a
// temporary folder, probes it, encodes the HLS ladder, the MP4 and the thumbnail, writes
// them under the video's prefix (layout.ts), records the outcome in the job (so a retry
// only re-sends it), and reports it to the API as a hosted provider would: a signed
// callback to POST /webhooks/local.
import { createHmac } from "node:crypto";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import type { Deps } from "../../../core/deps.ts";
import { directKey, thumbnailKey } from "../layout.ts";
import { deleteVideoObjects } from "../objects.ts";
import { latestJob } from "../queue.ts";
import type { ProviderEvent } from "../state.ts";
import type { VideoRow } from "../table.ts";
import { videos } from "../table.ts";
import { signatureHeader, verifySignature } from "./callback-signature.ts";
import { readLocalEvent } from "./local-event.ts";
import { makeWorkFolder, removeStaleWorkFolders } from "./work-folders.ts";
import { transcodeIn, Unplayable } from "./local-transcode.ts";
import { eq } from "drizzle-orm";
import { LeaseLost, type JobRun, type RunOutcome, type VideoProvider } from "./types.ts";

export const LOCAL_SIGNATURE_HEADER = "shelf-signature";

/** The callbacks' key: VIDEO_WEBHOOK_SECRET, or one derived from JWT_SECRET (shared by every node). */
export const localWebhookSecret = (config: Deps["config"]) =>
  config.VIDEO_WEBHOOK_SECRET ?? createHmac("sha256", config.JWT_SECRET).update("shelf local video callbacks v1").digest("hex");

/** What the local provider reports for a job's outcome: one id per job, whoever sends it. */
const eventId = (jobId: string) => `transcode:${jobId}`;

const outcomeOf = (ev: ProviderEvent): RunOutcome => (ev.type === "failed" ? { outcome: "failed", reason: ev.reason } : { outcome: "ready" });

/** `workRoot`: where work folders are made (work-folders.ts); the OS temp folder unless a test says. */
export function localProvider(deps: Deps, opts: { workRoot?: string } = {}): VideoProvider {
  const workRoot = opts.workRoot ?? tmpdir();
  const secret = localWebhookSecret(deps.config);
  const callbackUrl = deps.config.VIDEO_CALLBACK_URL ?? `${deps.config.PUBLIC_URL}/webhooks/local`;
  const ffmpeg = deps.config.FFMPEG_PATH;

  async function transcode(r: JobRun, video: VideoRow): Promise<ProviderEvent> {
    const dir = await makeWorkFolder(workRoot);
    try {
      const done = await transcodeIn({ deps, run: r, video, ffmpeg, dir });
      return {
        id: eventId(r.job.id),
        videoId: video.id,
        type: "ready",
        result: { ...done, thumbnailKey: thumbnailKey(video), directKey: directKey(video) },
      };
    } catch (e) {
      if (!(e instanceof Unplayable)) throw e;
      return { id: eventId(r.job.id), videoId: video.id, type: "failed", reason: e.reason, dropOriginal: e.dropOriginal };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async function send(r: JobRun, ev: ProviderEvent): Promise<void> {
    const body = JSON.stringify(ev);
    const t = Math.floor(deps.clock.now().getTime() / 1000);
    const res = await r.deliver(
      new Request(callbackUrl, {
        method: "POST",
        headers: { "content-type": "application/json", [LOCAL_SIGNATURE_HEADER]: signatureHeader(secret, t, body) },
        body,
      }),
    );
    await res.body?.cancel().catch(() => {});
    if (!res.ok) throw new Error(`the callback was answered ${res.status}`);
  }

  return {
    name: "local",
    async run(r) {
      const ref = { ownerId: r.job.ownerId, id: r.job.videoId };
      if (r.job.kind === "delete") {
        // A transcode of the video still at work would write objects after these are gone:
        // the cleanup waits for it (retried later).
        const transcoding = await latestJob(deps.db, r.job.videoId, "transcode");
        if (transcoding?.state === "running" && transcoding.leaseUntil && transcoding.leaseUntil > deps.clock.now()) {
          throw new Error("the video is still being transcoded; cleaning up later");
        }
        await deleteVideoObjects(deps.storage, ref);
        return undefined;
      }
      let ev = r.job.payload.event as ProviderEvent | undefined;
      if (!ev) {
        const [video] = await deps.db.select().from(videos).where(eq(videos.id, r.job.videoId));
        // Deleted, or moved on already (reconciled): the job's effect is not wanted or done.
        if (video?.status !== "processing") return { outcome: "skipped", reason: video ? `the video is ${video.status}` : "the video was deleted" };
        await deps.db.update(videos).set({ processingStartedAt: deps.clock.now() }).where(eq(videos.id, video.id));
        ev = await transcode(r, video);
        if (!(await r.checkpoint({ ...r.job.payload, event: ev }))) throw new LeaseLost();
      }
      const [still] = await deps.db.select({ id: videos.id }).from(videos).where(eq(videos.id, r.job.videoId));
      // Deleted while it was transcoded: what was written goes too (its cleanup waited for this).
      if (!still) {
        await deleteVideoObjects(deps.storage, ref);
        return { outcome: "skipped", reason: "the video was deleted while it was transcoded" };
      }
      await send(r, ev);
      return outcomeOf(ev);
    },
    async recover() {
      const removed = await removeStaleWorkFolders(workRoot);
      if (removed.length) deps.log.info("removed the work folders of transcodes a stopped worker left", { root: workRoot, count: removed.length, removed });
    },
    parseCallback(raw, headers, now) {
      verifySignature(secret, headers.get(LOCAL_SIGNATURE_HEADER), raw, now);
      return readLocalEvent(raw);
    },
    async status(_deps, video) {
      const job = await latestJob(deps.db, video.id, "transcode");
      if (job?.payload.event) return job.payload.event as ProviderEvent;
      if (job?.state === "failed") {
        return { id: `${eventId(job.id)}:gave-up`, videoId: video.id, type: "failed", reason: `transcoding kept failing (${job.lastError ?? "unknown"})` };
      }
      return null;
    },
  };
}
