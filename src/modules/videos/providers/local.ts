// The local provider: ffmpeg on worker nodes. A transcode job downloads the original to a
// temporary folder, probes it, encodes the HLS ladder, the MP4 and the thumbnail, writes
// them under the video's prefix (layout.ts), records the outcome in the job (so a retry
// only re-sends it), and reports it to the API as a hosted provider would: a signed
// callback to POST /webhooks/local.
import { createHmac } from "node:crypto";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { Deps } from "../../../deps.ts";
import { requireUser } from "../../identity/public.ts";
import { directKey, hlsPrefix, masterPlaylistKey, thumbnailKey } from "../layout.ts";
import { deleteVideoObjects } from "../objects.ts";
import { latestJob } from "../queue.ts";
import type { ProviderEvent } from "../state.ts";
import type { VideoRow } from "../table.ts";
import { videos } from "../table.ts";
import { signatureHeader, verifySignature } from "./callback-signature.ts";
import { readLocalEvent } from "./local-event.ts";
import { makeWorkFolder, removeStaleWorkFolders } from "./work-folders.ts";
import { hlsRendition, ladderFor, MediaError, masterPlaylist, mp4FromHls, probe, thumbnail } from "./ffmpeg.ts";
import { eq } from "drizzle-orm";
import { LeaseLost, type JobRun, type RunOutcome, type VideoProvider } from "./types.ts";

export const LOCAL_SIGNATURE_HEADER = "shelf-signature";

/** The callbacks' key: VIDEO_WEBHOOK_SECRET, or one derived from JWT_SECRET (shared by every node). */
export const localWebhookSecret = (config: Deps["config"]) =>
  config.VIDEO_WEBHOOK_SECRET ?? createHmac("sha256", config.JWT_SECRET).update("shelf local video callbacks v1").digest("hex");

const CONTENT_TYPES: Record<string, string> = { m3u8: "application/vnd.apple.mpegurl", ts: "video/mp2t", mp4: "video/mp4", jpg: "image/jpeg" };
const typeOf = (path: string) => CONTENT_TYPES[path.slice(path.lastIndexOf(".") + 1)] ?? "application/octet-stream";

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* filesUnder(p);
    else yield p;
  }
}

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
    const failed = (reason: string, dropOriginal = false): ProviderEvent => ({
      id: eventId(r.job.id),
      videoId: video.id,
      type: "failed",
      reason,
      dropOriginal,
    });
    if (!video.originalKey) return failed("the original is gone");
    const source = await deps.storage.get(video.originalKey);
    if (!source) return failed("the original is gone");
    const dir = await makeWorkFolder(workRoot);
    try {
      const input = join(dir, "original");
      await Bun.write(input, new Response(source));
      let info: Awaited<ReturnType<typeof probe>>;
      try {
        info = await probe(ffmpeg, input, r.signal);
      } catch (e) {
        if (e instanceof MediaError) return failed(`the file could not be read as a video (${e.message})`);
        throw e;
      }
      const user = await requireUser(deps.db, video.ownerId);
      const maxSeconds = deps.plans[user.plan].videoMaxSeconds;
      if (maxSeconds >= 0 && info.durationSeconds > maxSeconds) {
        return failed(`the video is ${Math.round(info.durationSeconds)} s long; the plan allows ${maxSeconds} s`, true);
      }
      const ladder = ladderFor(info.height);
      const hasAudio = info.audioCodec !== null;
      const work = info.durationSeconds * ladder.length;
      // Reports run one after another beside ffmpeg (r.progress writes at most every second
      // or 5%); a lost lease is noted and acted on when the rendition ends (never left as a
      // rejection nobody awaits).
      let lost = false;
      const progress = async (p: number) => {
        if (!lost && !(await r.progress(p))) lost = true;
      };
      const hls = join(dir, "hls");
      const variants: Parameters<typeof masterPlaylist>[0] = [];
      for (const [i, rendition] of ladder.entries()) {
        const out = join(hls, rendition);
        await mkdir(out, { recursive: true });
        let pending = Promise.resolve();
        try {
          await hlsRendition(
            ffmpeg,
            input,
            rendition,
            hasAudio,
            out,
            (s) => {
              pending = pending
                .then(() => progress((0.9 * (i * info.durationSeconds + Math.min(s, info.durationSeconds))) / work))
                .catch((err) => deps.log.warn("transcode progress not recorded", { videoId: video.id, jobId: r.job.id, err }));
            },
            r.signal,
          );
        } catch (e) {
          if (e instanceof MediaError) return failed(`transcoding failed (${e.message})`);
          throw e;
        }
        await pending;
        // The rendition's end, whatever ffmpeg's last report said (a short clip is encoded
        // before its first): the bar moves once per rendition at least.
        await progress((0.9 * (i + 1)) / ladder.length);
        if (lost) throw new LeaseLost();
        let bytes = 0;
        for await (const f of filesUnder(out)) bytes += (await stat(f)).size;
        const height = Number.parseInt(rendition, 10);
        const width = Math.round((info.width * height) / info.height / 2) * 2;
        variants.push({ r: rendition, width, height, bitsPerSecond: ((bytes * 8) / info.durationSeconds) * 1.1 });
      }
      await Bun.write(join(hls, "master.m3u8"), masterPlaylist(variants, hasAudio));
      const direct = join(dir, "direct.mp4");
      // The original itself when a browser plays it as is; else the top rendition remuxed.
      const playable = video.container === "mp4" && info.videoCodec === "h264" && (info.audioCodec === null || info.audioCodec === "aac");
      if (playable) await Bun.write(direct, Bun.file(input));
      else await mp4FromHls(ffmpeg, join(hls, ladder.at(-1)!, "index.m3u8"), direct, r.signal);
      const thumb = join(dir, "thumb.jpg");
      // At the 5-second mark, or the middle of a shorter clip; a seek past the last frame
      // yields no picture, so the first frame then.
      await thumbnail(ffmpeg, input, info.durationSeconds > 5.5 ? 5 : info.durationSeconds / 2, thumb, r.signal);
      if (!(await Bun.file(thumb).exists())) await thumbnail(ffmpeg, input, 0, thumb, r.signal);

      if (!(await r.progress(0.95))) throw new LeaseLost();
      const uploads: [string, string][] = [
        [direct, directKey(video)],
        [thumb, thumbnailKey(video)],
      ];
      for await (const f of filesUnder(hls)) uploads.push([f, `${hlsPrefix(video)}${relative(hls, f).split("\\").join("/")}`]);
      // The master playlist last: once it exists, everything it names does.
      uploads.sort(([, a], [, b]) => Number(a === masterPlaylistKey(video)) - Number(b === masterPlaylistKey(video)));
      for (const [n, [file, key]] of uploads.entries()) {
        await deps.storage.put(key, Bun.file(file), { contentType: typeOf(key) });
        if (!(await r.progress(0.95 + (0.04 * (n + 1)) / uploads.length))) throw new LeaseLost();
      }
      return {
        id: eventId(r.job.id),
        videoId: video.id,
        type: "ready",
        result: { durationSeconds: info.durationSeconds, renditions: ladder, thumbnailKey: thumbnailKey(video), directKey: directKey(video) },
      };
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
