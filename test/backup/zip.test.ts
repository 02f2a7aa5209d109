// The export's zip writer (src/modules/backup/zip.ts): what it writes is read back by yauzl,
// a strict reader that checks every CRC-32 and size, in its classic and its Zip64 forms.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import yauzl from "yauzl";
import { zipChunks, type ZipMember, zipStream } from "../../src/modules/backup/zip.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { readZip } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

async function zipOf(members: ZipMember[], opts: { force64?: boolean } = {}): Promise<Uint8Array> {
  async function* list() {
    yield* members;
  }
  return new Uint8Array(await new Response(zipStream(zipChunks(list(), opts))).arrayBuffer());
}

async function* chunked(bytes: Uint8Array, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));

/** Each entry's name, modification time (its DOS fields read as UTC), size and the version needed to read it. */
function entriesOf(zip: Uint8Array): Promise<{ name: string; mtime: Date; size: number; version: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(zip), { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      const out: { name: string; mtime: Date; size: number; version: number }[] = [];
      file.on("entry", (e: yauzl.Entry) => {
        out.push({ name: e.fileName, mtime: e.getLastModDate({ timezone: "UTC" } as never), size: e.uncompressedSize, version: e.versionNeededToExtract });
        file.readEntry();
      });
      file.on("end", () => resolve(out));
      file.on("error", reject);
      file.readEntry();
    });
  });
}

describe("the zip writer", () => {
  const at = new Date("2026-03-04T05:06:08.000Z");
  const members = () => {
    const big = random(300_000);
    return {
      big,
      list: [
        { name: "images/cat.png", modified: at, body: chunked(big, 65_536) },
        { name: "documents/Übersicht – 日本.md", modified: at, body: new TextEncoder().encode("# Hallo\n") },
        { name: "empty.txt", modified: new Date("1970-01-01T00:00:00Z"), body: new Uint8Array(0) },
        { name: "kbs/notes/empty-stream.md", modified: at, body: chunked(new Uint8Array(0), 10) },
      ] as ZipMember[],
    };
  };

  for (const force64 of [false, true]) {
    test(`${force64 ? "Zip64" : "classic"} records: every member's bytes, in order, with UTF-8 names and times, checked by a strict reader`, async () => {
      const { big, list } = members();
      const zip = await zipOf(list, { force64 });
      const read = await readZip(zip);
      expect(read.map((m) => m.name)).toEqual(["images/cat.png", "documents/Übersicht – 日本.md", "empty.txt", "kbs/notes/empty-stream.md"]);
      expect(read[0]!.bytes).toEqual(big);
      expect(new TextDecoder().decode(read[1]!.bytes)).toBe("# Hallo\n");
      expect(read[2]!.bytes.length).toBe(0);
      const entries = await entriesOf(zip);
      expect(entries[0]!.size).toBe(big.length);
      expect(entries.map((e) => e.version)).toEqual(force64 ? [45, 45, 45, 45] : [20, 20, 20, 20]);
      // MS-DOS times in UTC, to the even second; before 1980 they cannot be, and read as its first day.
      expect(entries[0]!.mtime.toISOString()).toBe(at.toISOString());
      expect(entries[2]!.mtime.toISOString()).toBe("1980-01-01T00:00:00.000Z");
    });
  }

  test("a member that errors mid-way errors the archive's stream (no archive is taken for whole)", async () => {
    async function* failing() {
      yield random(10);
      throw new Error("the store went away");
    }
    async function* list() {
      yield { name: "a.bin", modified: at, body: failing() } as ZipMember;
    }
    await expect(new Response(zipStream(zipChunks(list()))).arrayBuffer()).rejects.toThrow("the store went away");
  });

  test("an archive of no member is a valid empty zip", async () => {
    expect(await readZip(await zipOf([]))).toEqual([]);
  });
});
