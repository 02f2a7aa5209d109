// Audio fixtures made at test time by ffmpeg (short tones, and silence of a length a
// limit needs), made once per process; the upload form; what a user's counters are.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { type AudioRow, audio } from "../../src/modules/audio/table.ts";
import { callJson, tempDir, testContext } from "../helpers/context.ts";
import { makeKey, type TestUser } from "../helpers/factories.ts";

export type Kind =
  | "mp3"
  | "mp3-cover"
  | "ogg-titled"
  | "mp3-unsafe-tags"
  | "flac"
  | "flac-cover"
  | "ogg"
  | "wav"
  | "m4a"
  | "m4a-video"
  | "long-ogg"
  | "long-mp3";

const made = new Map<Kind, Promise<Uint8Array<ArrayBuffer>>>();

async function ffmpeg(dir: string, args: string[]) {
  const r = await Bun.$`ffmpeg -v error -y ${args}`.cwd(dir).quiet().nothrow();
  if (r.exitCode !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
}

const tone = ["-f", "lavfi", "-i", "sine=frequency=440:duration=2"];
const cover = async (dir: string) => ffmpeg(dir, ["-f", "lavfi", "-i", "color=c=red:s=64x64:d=1", "-frames:v", "1", "cover.png"]);

const recipes: Record<Kind, (dir: string) => Promise<string>> = {
  mp3: async (dir) => (await ffmpeg(dir, [...tone, "-ac", "1", "-b:a", "32k", "a.mp3"]), "a.mp3"),
  "mp3-cover": async (dir) => {
    await cover(dir);
    const tags = ["-metadata", "title=Song", "-metadata", "artist=Someone"];
    await ffmpeg(dir, [
      ...tone,
      "-i",
      "cover.png",
      "-map",
      "0",
      "-map",
      "1",
      "-ac",
      "1",
      "-b:a",
      "32k",
      "-c:v",
      "mjpeg",
      "-id3v2_version",
      "3",
      ...tags,
      "a.mp3",
    ]);
    return "a.mp3";
  },
  // ID3 tags holding an ANSI colour sequence, bidi overrides, a C1 control (NEL), and an
  // album whose 255th UTF-16 unit is the first half of an emoji.
  "mp3-unsafe-tags": async (dir) => {
    const tags = {
      title: "\x1b[31mred\x1b[0m\u202e",
      artist: "Some\u202eone\u0085",
      album: `\u2066${"x".repeat(254)}\u{1F600}tail\u2069`,
      genre: "\u0007\u200f",
    };
    await ffmpeg(dir, [
      ...tone,
      "-ac",
      "1",
      "-b:a",
      "32k",
      "-id3v2_version",
      "3",
      ...Object.entries(tags).flatMap(([k, v]) => ["-metadata", `${k}=${v}`]),
      "a.mp3",
    ]);
    return "a.mp3";
  },
  flac: async (dir) => (await ffmpeg(dir, [...tone, "a.flac"]), "a.flac"),
  "flac-cover": async (dir) => {
    await cover(dir);
    await ffmpeg(dir, [...tone, "-i", "cover.png", "-map", "0", "-map", "1", "-c:v", "copy", "-disposition:v", "attached_pic", "a.flac"]);
    return "a.flac";
  },
  ogg: async (dir) => (await ffmpeg(dir, [...tone, "-c:a", "libvorbis", "a.ogg"]), "a.ogg"),
  // A Vorbis comment TITLE (and an artist), as a ripper writes them.
  "ogg-titled": async (dir) => (
    await ffmpeg(dir, [...tone, "-c:a", "libvorbis", "-metadata", "title=  Morning Raga ", "-metadata", "artist=Someone", "a.ogg"]), "a.ogg"
  ),
  wav: async (dir) => (await ffmpeg(dir, ["-f", "lavfi", "-i", "sine=duration=1", "-ar", "8000", "a.wav"]), "a.wav"),
  m4a: async (dir) => (await ffmpeg(dir, [...tone, "-c:a", "aac", "-b:a", "32k", "a.m4a"]), "a.m4a"),
  "m4a-video": async (dir) => (
    await ffmpeg(dir, [
      "-f",
      "lavfi",
      "-i",
      "testsrc=size=64x64:rate=5:duration=1",
      ...tone,
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-c:a",
      "aac",
      "-shortest",
      "v.m4a",
    ]),
    "v.m4a"
  ),
  // 11 minutes of silence at the lowest Vorbis quality: about 60 KB.
  "long-ogg": async (dir) => (
    await ffmpeg(dir, ["-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-t", "660", "-c:a", "libvorbis", "-q:a", "-1", "long.ogg"]), "long.ogg"
  ),
  "long-mp3": async (dir) => (
    await ffmpeg(dir, ["-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-t", "660", "-c:a", "libmp3lame", "-b:a", "8k", "long.mp3"]), "long.mp3"
  ),
};
export function fixture(kind: Kind): Promise<Uint8Array<ArrayBuffer>> {
  let p = made.get(kind);
  if (!p) {
    p = (async () => {
      const dir = tempDir("shelf-audio-");
      const file = await recipes[kind](dir);
      return new Uint8Array(readFileSync(join(dir, file)));
    })();
    made.set(kind, p);
  }
  return p;
}

export function audioForm(bytes: Uint8Array, filename = "a.mp3", fields: Record<string, string> = {}, type = "application/octet-stream"): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new File([bytes as Uint8Array<ArrayBuffer>], filename, { type }));
  return form;
}

export function uploadAudio(token: string, bytes: Uint8Array, filename?: string, fields?: Record<string, string>, type?: string) {
  return callJson("POST", "/v1/audio", { token, body: audioForm(bytes, filename, fields, type) });
}

export async function audioRow(id: string): Promise<AudioRow | undefined> {
  const { deps } = await testContext();
  const [row] = await deps.db.select().from(audio).where(eq(audio.id, id));
  return row;
}

/** Object keys stored under a user's audio/ prefix. */
export async function audioObjects(ownerId: string): Promise<string[]> {
  const { deps } = await testContext();
  const keys: string[] = [];
  for await (const o of deps.storage.list(`audio/${ownerId}/`)) keys.push(o.key);
  return keys.sort();
}

/** The user's usage resource. */
export async function usageOf(user: TestUser) {
  const { key } = await makeKey(user, ["usage.read"]);
  return (await callJson("GET", "/v1/user/me/usage", { token: key })).body.data;
}
