// Hostile audio: truncated files, headers that lie about their sizes, and noise
// behind a valid signature. Each is answered (never a 500, never a hang: the parser's
// stream ends with the upload), and a refusal leaves nothing stored or counted. What is
// decided per case: a file the parser can still read (a cut MP3 or FLAC whose header
// survived) is taken, with whatever duration it shows (null when none); a file whose audio
// cannot be read at all is 422 INVALID_FILE_TYPE; an ID3v2 tag claiming more than 16 MB is
// refused from its first ten bytes.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ID3_MAX_BYTES, id3TagBytes } from "../../src/modules/audio/metadata.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { audioObjects, audioRow, fixture, uploadAudio, usageOf } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** Deterministic noise (xorshift32), so every run sends the same bytes. */
function noise(length: number, seed = 0x9e3779b9): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const ascii = (s: string) => new Uint8Array(Buffer.from(s, "latin1"));

/** A PCM WAV header (16-bit) saying what `w` says, with `body` after it. */
function wav(w: { riffBytes: number; channels: number; sampleRate: number; byteRate: number; dataBytes: number }, body: Uint8Array): Uint8Array {
  const h = Buffer.alloc(44);
  h.write("RIFF", 0, "latin1");
  h.writeUInt32LE(w.riffBytes, 4);
  h.write("WAVEfmt ", 8, "latin1");
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(w.channels, 22);
  h.writeUInt32LE(w.sampleRate, 24);
  h.writeUInt32LE(w.byteRate, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36, "latin1");
  h.writeUInt32LE(w.dataBytes, 40);
  return concat(h, body);
}

/** A PCM WAV header (mono, 8 kHz, 16-bit) whose RIFF and data sizes claim about 4 GB, and `pcm` bytes after it. */
const wavClaiming4GB = (pcm: number) =>
  wav({ riffBytes: 0xfffffff0, channels: 1, sampleRate: 8000, byteRate: 16000, dataBytes: 0xffffff00 }, new Uint8Array(pcm));

async function refused(bytes: Uint8Array, name: string, status: number, code: string) {
  const { user, key } = await makeClient();
  const res = await uploadAudio(key, bytes, name);
  expect([name, res.status, res.body.code]).toEqual([name, status, code]);
  expect(await audioObjects(user.id)).toEqual([]);
  expect((await usageOf(user)).video.storage.used).toBe(0);
  return res.body;
}

async function taken(bytes: Uint8Array, name: string) {
  const { key } = await makeClient();
  const res = await uploadAudio(key, bytes, name);
  expect([name, res.status]).toEqual([name, 201]);
  expect(res.body.data.sizeBytes).toBe(bytes.length);
  return res.body.data;
}

describe("hostile audio uploads", () => {
  test("a truncated MP3 whose frames begin is taken; one cut inside its ID3 tag holds no audio: 422", async () => {
    const mp3 = await fixture("mp3");
    const half = await taken(mp3.subarray(0, mp3.length >> 1), "half.mp3");
    expect(half.mimeType).toBe("audio/mpeg");
    expect(half.durationSeconds === null || half.durationSeconds <= 2.1).toBe(true);
    await refused(mp3.subarray(0, 30), "cut.mp3", 422, "INVALID_FILE_TYPE");
  });

  test("a truncated FLAC with its STREAMINFO is taken (null duration when the frames do not tell); one cut inside it: 422", async () => {
    const flac = await fixture("flac");
    const third = await taken(flac.subarray(0, Math.floor(flac.length / 3)), "third.flac");
    expect(third).toMatchObject({ mimeType: "audio/flac", sampleRate: 44100 });
    await refused(flac.subarray(0, 20), "cut.flac", 422, "INVALID_FILE_TYPE");
  });

  test("an ID3v2 tag claiming 0x7FFFFFFF bytes is refused from its header (422), before the parser would hold it", async () => {
    const header = ascii("ID3\x04\x00\x00\x7f\x7f\x7f\x7f");
    expect(id3TagBytes(header)).toBeGreaterThan(ID3_MAX_BYTES);
    const body = await refused(concat(header, noise(256 * 1024)), "huge-tag.mp3", 422, "INVALID_FILE_TYPE");
    expect(body.meta).toMatchObject({ limit: ID3_MAX_BYTES, id3Bytes: id3TagBytes(header) });
    // An APIC frame claiming 2 GB inside a tag of honest size: the frame is cut by the tag's end.
    const apic = concat(ascii("ID3\x03\x00\x00\x00\x00\x10\x00APIC\x7f\xff\xff\xff\x00\x00"), noise(4000, 7));
    await refused(apic, "apic.mp3", 422, "INVALID_FILE_TYPE");
  });

  test("an M4A whose cover atom claims 2 GB: the parser refuses an atom over 64 MiB before buffering it (422)", async () => {
    const be = (n: number) => new Uint8Array([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
    const atom = (type: string, size: number, extra = new Uint8Array(0)) => concat(be(size), ascii(type), extra);
    const big = 0x7fffff00;
    const bytes = concat(
      atom("ftyp", 20, ascii("M4A \0\0\0\0M4A ")),
      atom("moov", big + 64),
      atom("udta", big + 56),
      atom("meta", big + 48, new Uint8Array(4)),
      atom("ilst", big + 36),
      atom("covr", big + 28),
      atom("data", big + 20, new Uint8Array([0, 0, 0, 13, 0, 0, 0, 0])),
      noise(64 * 1024, 3),
    );
    await refused(bytes, "huge-cover.m4a", 422, "INVALID_FILE_TYPE");
  });

  test("a WAV header claiming 4 GB over a few KB of samples: the duration it claims is over every plan (413), nothing stored", async () => {
    const body = await refused(wavClaiming4GB(16_000), "big.wav", 413, "FILE_TOO_LARGE");
    expect(body.meta.limit).toBe(600);
    expect(body.meta.durationSeconds).toBeGreaterThan(4 * 3600);
  });

  test("a WAV header claiming 65535 channels at 4 GHz is stored with what it says out of range as unknown (null), never a 500", async () => {
    const { key } = await makeClient();
    const odd = wav({ riffBytes: 36 + 4096, channels: 65535, sampleRate: 0xfffffff0, byteRate: 0xfffffff0, dataBytes: 4096 }, noise(4096, 7));
    const res = await uploadAudio(key, odd, "odd.wav");
    expect(res.status).toBe(201);
    const row = await audioRow(res.body.data.id);
    expect(row!.sampleRate).toBeNull();
  });

  test("a duration over the plan's, told by the header, stops the upload there: the rest of the body is not read", async () => {
    const { user, key } = await makeClient();
    const boundary = "----shelfaudioboundary";
    const enc = new TextEncoder();
    const head = concat(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\n\r\n`), wavClaiming4GB(0));
    const total = 40 * 1024 * 1024;
    const chunk = new Uint8Array(64 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(head);
      },
      pull(c) {
        if (sent >= total) {
          c.enqueue(enc.encode(`\r\n--${boundary}--\r\n`));
          return c.close();
        }
        c.enqueue(chunk);
        sent += chunk.length;
      },
    });
    const { app } = await testContext();
    const res = await app.handle(
      new Request("http://shelf.test/v1/audio", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": `multipart/form-data; boundary=${boundary}` },
        body,
      }),
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).meta).toMatchObject({ limit: 600 });
    expect(sent).toBeLessThan(total / 2);
    expect(await audioObjects(user.id)).toEqual([]);
  });

  test("noise behind every valid signature: 422 INVALID_FILE_TYPE, nothing stored", async () => {
    const cases: [string, Uint8Array][] = [
      ["noise.ogg", ascii("OggS")],
      ["noise.flac", ascii("fLaC")],
      ["noise.wav", concat(ascii("RIFF"), new Uint8Array([0x10, 0, 0, 0]), ascii("WAVE"))],
      ["noise.m4a", concat(new Uint8Array([0, 0, 0, 0x20]), ascii("ftypM4A "))],
      ["noise-id3.mp3", ascii("ID3\x04\x00\x00\x00\x00\x02\x00")],
    ];
    for (const [name, magic] of cases) await refused(concat(magic, noise(64 * 1024, name.length)), name, 422, "INVALID_FILE_TYPE");
  });

  test("control and bidi control characters in the file's tags (an ESC colour sequence, U+202E, NEL) are removed: stored, GET /v1/audio/:id and GET /v1/media show none", async () => {
    const { key } = await makeClient();
    const res = await uploadAudio(key, await fixture("mp3-unsafe-tags"), "tags.mp3");
    expect(res.status).toBe(201);
    const expected = {
      title: "[31mred[0m",
      artist: "Someone",
      // Cut at 255 code points, not UTF-16 units: the emoji is kept whole.
      album: `${"x".repeat(254)}\u{1F600}`,
    };
    const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
    const id = res.body.data.id;
    expect(res.body.data.tags).toEqual(expected);
    const row = await audioRow(id);
    expect(row!.embeddedTags).toEqual(expected);
    const one = await callJson("GET", `/v1/audio/${id}`, { token: key });
    expect(one.status).toBe(200);
    expect(one.body.data.tags).toEqual(expected);
    expect(one.body.data.codec).not.toMatch(unsafe);
    const list = await callJson("GET", "/v1/media", { token: key });
    expect(list.status).toBe(200);
    const item = list.body.data.items.find((m: { id: string }) => m.id === id);
    // The tag's title, cleaned, is the default title.
    expect(item).toMatchObject({ id, type: "audio", title: expected.title });
    // Every string anywhere in either answer, as the client decodes it.
    const strings = (v: unknown): string[] => (typeof v === "string" ? [v] : v && typeof v === "object" ? Object.values(v).flatMap(strings) : []);
    for (const s of [...strings(one.body), ...strings(list.body)]) expect(s).not.toMatch(unsafe);
  });
});
