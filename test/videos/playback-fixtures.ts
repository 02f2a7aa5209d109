// Ready videos for the playback tests: an HLS ladder (360p, 720p) of a 2-second clip made
// by ffmpeg once per test process, stored under a video's keys (layout.ts) with its row
// inserted as the provider's completion would leave it.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../src/infra/db/index.ts";
import { newId } from "../../src/infra/ids.ts";
import { directKey, hlsPrefix, thumbnailKey } from "../../src/modules/videos/layout.ts";
import { videos } from "../../src/modules/videos/table.ts";
import { addBandwidthBatch } from "../../src/modules/usage/public.ts";
import { monthKey } from "../../src/infra/clock.ts";
import { tempDir, testContext } from "../helpers/context.ts";

let ladder: Promise<Map<string, Uint8Array<ArrayBuffer>>> | undefined;

/** The clip's files by their path below hls/ (master.m3u8, 360p/index.m3u8, 360p/seg_00000.ts, ...), and thumb.jpg. */
function hlsLadder(): Promise<Map<string, Uint8Array<ArrayBuffer>>> {
  ladder ??= (async () => {
    const dir = tempDir("shelf-hls-");
    const hls =
      await Bun.$`ffmpeg -v error -f lavfi -i testsrc=size=320x180:rate=15:duration=2 -f lavfi -i sine=frequency=440:duration=2 -filter_complex ${"[0:v]split=2[a][b];[a]scale=160:90[v1];[b]scale=320:180[v2]"} -map [v1] -map [v2] -map 1:a -map 1:a -c:v libx264 -preset ultrafast -g 15 -c:a aac -b:a 32k -f hls -hls_time 1 -hls_playlist_type vod -hls_segment_filename ${"%v/seg_%05d.ts"} -master_pl_name master.m3u8 -var_stream_map ${"v:0,a:0,name:360p v:1,a:1,name:720p"} ${"%v/index.m3u8"}`
        .cwd(dir)
        .quiet()
        .nothrow();
    if (hls.exitCode !== 0) throw new Error(`ffmpeg failed: ${hls.stderr}`);
    await Bun.$`ffmpeg -v error -f lavfi -i testsrc=size=320x180:rate=1:duration=1 -frames:v 1 thumb.jpg`.cwd(dir).quiet();
    const files = new Map<string, Uint8Array<ArrayBuffer>>();
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else files.set(relative(dir, p), new Uint8Array(readFileSync(p)));
      }
    };
    walk(dir);
    return files;
  })();
  return ladder;
}

export interface StoredVideo {
  id: string;
  ownerId: string;
  files: Map<string, Uint8Array<ArrayBuffer>>;
}

/** A video of `ownerId`, ready (or `status`), its ladder and thumbnail stored and its row inserted. */
export async function storedVideo(ownerId: string, opts: { isPublic?: boolean; status?: "ready" | "processing" } = {}): Promise<StoredVideo> {
  const { deps } = await testContext();
  const files = await hlsLadder();
  const id = newId();
  const ref = { id, ownerId };
  const ready = (opts.status ?? "ready") === "ready";
  let size = 0;
  for (const [path, bytes] of files) {
    if (path === "thumb.jpg") continue;
    await deps.storage.put(`${hlsPrefix(ref)}${path}`, bytes);
    size += bytes.length;
  }
  await deps.storage.put(thumbnailKey(ref), files.get("thumb.jpg")!);
  // The MP4's bytes do not matter to the edge: the 720p first segment stands in for them.
  if (ready) await deps.storage.put(directKey(ref), files.get("720p/seg_00000.ts")!);
  const now = deps.clock.now();
  await deps.db.insert(videos).values({
    id,
    ownerId,
    title: "clip",
    filename: "clip.mp4",
    isPublic: opts.isPublic ?? true,
    status: ready ? "ready" : "processing",
    sizeBytes: size,
    container: "mp4",
    durationSeconds: ready ? 2 : null,
    renditions: ready ? ["360p", "720p"] : [],
    provider: "local",
    thumbnailKey: ready ? thumbnailKey(ref) : null,
    directKey: ready ? directKey(ref) : null,
    createdAt: now,
    updatedAt: now,
    readyAt: ready ? now : null,
  });
  return { id, ownerId, files };
}

/** Adds `bytes` to the owner's media bandwidth of this month, as the hourly job would. */
export async function addMediaBandwidth(ownerId: string, bytes: number, at?: Date) {
  const { deps } = await testContext();
  const month = monthKey(at ?? deps.clock.now());
  await deps.db.transaction((tx) => addBandwidthBatch(tx, [{ ownerId, month, dimension: "media_bandwidth", bytes }]));
}

/** Outbox messages of a user, oldest first. */
export async function outboxOf(userId: string): Promise<{ kind: string; payload: Record<string, unknown> }[]> {
  const { deps } = await testContext();
  return rowsOf(await deps.db.execute(sql`select kind, payload from outbox where user_id = ${userId} order by created_at, id`));
}
