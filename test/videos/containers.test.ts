// The container of an upload is told by its first bytes: each supported one made by ffmpeg.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sniffContainer } from "../../src/modules/videos/containers.ts";
import { clip } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("container sniffing", () => {
  for (const format of ["mp4", "mov", "mkv", "webm", "avi"] as const) {
    test(`${format} is recognised from its first 64 bytes`, async () => {
      const bytes = await clip({ seconds: 1, size: "64x36", format });
      expect(sniffContainer(bytes.subarray(0, 64))).toBe(format);
    });
  }
  test("text, an image, an MP3 and too few bytes are no video container", () => {
    const enc = new TextEncoder();
    expect(sniffContainer(enc.encode("<html><body>hello</body></html>".padEnd(64)))).toBeNull();
    expect(sniffContainer(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toBeNull();
    expect(sniffContainer(enc.encode("ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000"))).toBeNull();
    expect(sniffContainer(enc.encode("RIFF\u0000\u0000\u0000\u0000WAVEfmt "))).toBeNull();
    expect(sniffContainer(new Uint8Array([0, 0, 0]))).toBeNull();
  });
});
