// Video fixtures made at test time: short clips from ffmpeg's test sources (small, so the
// suite stays fast), the upload form, a worker driven step by step whose callbacks reach
// the app directly, and rows inserted as an upload would leave them.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Deps } from "../../src/wiring/deps.ts";
import { newId } from "../../src/infra/ids.ts";
import { originalKey } from "../../src/modules/videos/layout.ts";
import { createVideoProviders, createTranscodeWorker } from "../../src/modules/videos/public.ts";
import { type VideoRow, videos } from "../../src/modules/videos/table.ts";
import { callJson, testContext } from "../helpers/context.ts";

type ClipFormat = "mp4" | "mov" | "mkv" | "webm" | "avi";

const clips = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

/** A clip of `seconds` of testsrc (with a sine tone) at `size`, in `format`; made once per process. */
export function clip(opts: { seconds?: number; size?: string; format?: ClipFormat; audio?: boolean } = {}): Promise<Uint8Array<ArrayBuffer>> {
  const { seconds = 2, size = "320x180", format = "mp4", audio = true } = opts;
  const id = `${seconds}-${size}-${format}-${audio}`;
  let made = clips.get(id);
  if (!made) {
    made = (async () => {
      const dir = mkdtempSync(join(tmpdir(), "shelf-clip-"));
      try {
        const out = join(dir, `clip.${format}`);
        const codecs =
          format === "webm"
            ? ["-c:v", "libvpx", "-deadline", "realtime", "-b:v", "200k", "-c:a", "libvorbis"]
            : format === "avi"
              ? ["-c:v", "mpeg4", "-c:a", "mp3"]
              : ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac"];
        const audioIn = audio ? ["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`] : [];
        const r = Bun.spawnSync([
          "ffmpeg",
          "-v",
          "error",
          "-y",
          "-f",
          "lavfi",
          "-i",
          `testsrc=size=${size}:rate=15:duration=${seconds}`,
          ...audioIn,
          ...codecs,
          ...(audio ? [] : ["-an"]),
          out,
        ]);
        if (r.exitCode !== 0) throw new Error(`ffmpeg failed: ${r.stderr.toString()}`);
        return new Uint8Array(readFileSync(out));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    })();
    clips.set(id, made);
  }
  return made;
}

export function videoForm(bytes: Uint8Array<ArrayBuffer>, fields: Record<string, string> = {}, filename = "clip.mp4"): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new File([bytes], filename, { type: "application/octet-stream" }));
  return form;
}

export function uploadVideo(key: string, bytes: Uint8Array<ArrayBuffer>, fields: Record<string, string> = {}, filename?: string) {
  return callJson("POST", "/v1/videos", { token: key, body: videoForm(bytes, fields, filename) });
}

/**
 * A worker whose callbacks reach the shared app (or `app`) directly; `deps` may carry another
 * clock or log; `onProgress` is told each progress written to a video, and awaited.
 */
export async function testWorker(
  opts: { deps?: Deps; id?: string; deliver?: (r: Request) => Promise<Response>; onProgress?: (videoId: string, progress: number) => Promise<void> } = {},
) {
  const ctx = await testContext();
  const deps = opts.deps ?? ctx.deps;
  return createTranscodeWorker(deps, {
    providers: createVideoProviders(deps),
    id: opts.id,
    deliver: opts.deliver ?? ((req) => ctx.app.handle(req)),
    onProgress: opts.onProgress,
  });
}

/** Runs queued jobs until none is due. */
export async function drain(worker: { step(): Promise<boolean> }): Promise<number> {
  let n = 0;
  while (await worker.step()) n++;
  return n;
}

export async function videoRow(id: string): Promise<VideoRow | undefined> {
  const { deps } = await testContext();
  const [row] = await deps.db.select().from(videos).where(eq(videos.id, id));
  return row;
}

/** Object keys stored under a user's videos/ prefix. */
export async function videoObjects(ownerId: string): Promise<string[]> {
  const { deps } = await testContext();
  const keys: string[] = [];
  for await (const o of deps.storage.list(`videos/${ownerId}/`)) keys.push(o.key);
  return keys;
}

/** A video row (no transcode queued) as an upload leaves it, or as given. */
export async function insertVideo(ownerId: string, patch: Partial<typeof videos.$inferInsert> = {}): Promise<VideoRow> {
  const { deps } = await testContext();
  const id = newId();
  const now = deps.clock.now();
  const [row] = await deps.db
    .insert(videos)
    .values({
      id,
      ownerId,
      title: "clip",
      filename: "clip.mp4",
      sizeBytes: 1000,
      container: "mp4",
      provider: "local",
      originalKey: originalKey({ ownerId, id }),
      createdAt: now,
      updatedAt: now,
      ...patch,
    })
    .returning();
  return row!;
}
