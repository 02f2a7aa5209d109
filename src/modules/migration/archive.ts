// Reading an account archive for an import, with the refusals of a hostile one. The zip is
// read by yauzl (a strict, well-kept reader: it checks the central directory against each
// local header, inflates within the declared sizes and refuses `..`, absolute and
// backslashed names) from a file of the worker's own, one member at a time: neither the
// archive nor a member is held in memory. What it adds: every name checked once more and
// against links and duplicates, the sizes held to caps (a zip bomb), and each member's
// bytes counted and hashed as they are read, against what the manifest says.
import type { Readable } from "node:stream";
import yauzl from "yauzl";

/** Why an archive is refused, as the report says it (docs/api.md, "Migration"). */
export type RefusalCode =
  | "ARCHIVE_INVALID"
  | "ARCHIVE_UNSAFE_NAME"
  | "ARCHIVE_LINK"
  | "ARCHIVE_DUPLICATE_NAME"
  | "ARCHIVE_TOO_LARGE"
  | "ARCHIVE_SIZE_MISMATCH"
  | "ARCHIVE_CHECKSUM_MISMATCH"
  | "MANIFEST_INVALID";

export class ArchiveRefusal extends Error {
  override name = "ArchiveRefusal";
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly member?: string,
  ) {
    super(message);
  }
}

/** A member may unpack to at most this many times its compressed size (past a first MiB). */
const MAX_RATIO = 100;
/** All members together unpack to at most this many times the archive. */
const MAX_TOTAL_RATIO = 10;
const MAX_ENTRIES = 500_000;
/** manifest.json is read whole: at most this much. */
export const MANIFEST_MAX_BYTES = 256 * 1024 * 1024;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

export interface Archive {
  /** The members by name (directories left out). */
  entries: Map<string, yauzl.Entry>;
  /** A member's bytes, checked as they pass: past `size` or short of it ARCHIVE_SIZE_MISMATCH, another hash ARCHIVE_CHECKSUM_MISMATCH. */
  read(name: string, expect: { size: number; sha256?: string | null }): AsyncGenerator<Uint8Array>;
  close(): void;
}

/** A name as an unpacking tool would write it: relative, no `.`/`..` or empty segment, no control character, no drive. */
function assertSafeName(name: string) {
  const bad = (why: string) => new ArchiveRefusal("ARCHIVE_UNSAFE_NAME", `the member name ${JSON.stringify(name.slice(0, 200))} ${why}`, name.slice(0, 200));
  if (!name || name.length > 4096) throw bad("is empty or too long");
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) throw bad("is absolute");
  if (name.includes("\\")) throw bad("holds a backslash");
  if (/[\u0000-\u001f\u007f]/.test(name)) throw bad("holds a control character");
  const segments = name.replace(/\/$/, "").split("/");
  if (segments.some((s) => s === ".." || s === "." || s === "")) throw bad("leaves its folder or has an empty segment");
}

/** yauzl's own refusals of a name, as ours. */
function refusalOf(err: unknown): ArchiveRefusal {
  if (err instanceof ArchiveRefusal) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/^(invalid characters in fileName|absolute path|invalid relative path)/.test(message)) {
    return new ArchiveRefusal("ARCHIVE_UNSAFE_NAME", `an unsafe member name: ${message.slice(0, 200)}`);
  }
  if (/too many bytes|not enough bytes|expected uncompressed size/i.test(message)) {
    return new ArchiveRefusal("ARCHIVE_SIZE_MISMATCH", `a member's bytes are not the size its header says: ${message.slice(0, 200)}`);
  }
  return new ArchiveRefusal("ARCHIVE_INVALID", `the file is not a zip archive that can be read: ${message.slice(0, 200)}`);
}

/**
 * Opens the zip at `path` (`size` bytes) and checks its directory before a byte of a member
 * is read: names (safe, unique case-folded, no link), types (regular files stored or
 * deflated, not encrypted), the entry count and the sizes it declares (a zip bomb).
 */
export async function openArchive(path: string, size: number): Promise<Archive> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true, decodeStrings: true });
  } catch (err) {
    throw refusalOf(err);
  }
  const entries = new Map<string, yauzl.Entry>();
  try {
    if (zip.entryCount > MAX_ENTRIES)
      throw new ArchiveRefusal("ARCHIVE_TOO_LARGE", `the archive has ${zip.entryCount} members; at most ${MAX_ENTRIES} are read`);
    const folded = new Set<string>();
    let total = 0;
    const totalCap = size * MAX_TOTAL_RATIO + 1024 * 1024;
    for await (const e of zip.eachEntry()) {
      const name = e.fileName;
      assertSafeName(name);
      const madeBy = e.versionMadeBy >> 8;
      const mode = madeBy === 3 ? (e.externalFileAttributes >>> 16) & S_IFMT : 0;
      if (mode && mode !== S_IFREG && mode !== S_IFDIR)
        throw new ArchiveRefusal("ARCHIVE_LINK", `the member ${name} is a link or a special file, not a file`, name);
      const key = name.normalize("NFC").toLowerCase();
      if (folded.has(key)) throw new ArchiveRefusal("ARCHIVE_DUPLICATE_NAME", `the member name ${name} is in the archive twice`, name);
      folded.add(key);
      if (name.endsWith("/") || mode === S_IFDIR) continue;
      if (e.generalPurposeBitFlag & 1) throw new ArchiveRefusal("ARCHIVE_INVALID", `the member ${name} is encrypted`, name);
      if (e.compressionMethod !== 0 && e.compressionMethod !== 8)
        throw new ArchiveRefusal("ARCHIVE_INVALID", `the member ${name} is compressed by a method not read here`, name);
      if (e.uncompressedSize > 1024 * 1024 && e.uncompressedSize > e.compressedSize * MAX_RATIO) {
        throw new ArchiveRefusal("ARCHIVE_TOO_LARGE", `the member ${name} unpacks to more than ${MAX_RATIO} times its size (a zip bomb)`, name);
      }
      total += e.uncompressedSize;
      if (total > totalCap)
        throw new ArchiveRefusal("ARCHIVE_TOO_LARGE", `the archive unpacks to more than ${MAX_TOTAL_RATIO} times its size (a zip bomb)`, name);
      entries.set(name, e);
    }
  } catch (err) {
    zip.close();
    throw refusalOf(err);
  }

  async function* read(name: string, expect: { size: number; sha256?: string | null }): AsyncGenerator<Uint8Array> {
    const entry = entries.get(name);
    if (!entry) throw new ArchiveRefusal("MANIFEST_INVALID", `the manifest names ${name}, which is not in the archive`, name);
    if (entry.uncompressedSize !== expect.size) {
      throw new ArchiveRefusal(
        "ARCHIVE_SIZE_MISMATCH",
        `the manifest says ${name} holds ${expect.size} bytes; the archive says ${entry.uncompressedSize}`,
        name,
      );
    }
    let stream: Readable;
    try {
      stream = await zip.openReadStreamPromise(entry);
    } catch (err) {
      const r = refusalOf(err);
      throw new ArchiveRefusal(r.code, r.message, name);
    }
    const hasher = new Bun.CryptoHasher("sha256");
    let seen = 0;
    try {
      for await (const chunk of stream) {
        const bytes = chunk as Buffer;
        seen += bytes.length;
        // yauzl stops an inflate past the declared size too; this holds even a stored member to it.
        if (seen > expect.size) throw new ArchiveRefusal("ARCHIVE_SIZE_MISMATCH", `${name} holds more bytes than the manifest says`, name);
        hasher.update(bytes);
        yield new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
      }
    } catch (err) {
      stream.destroy();
      const r = refusalOf(err);
      throw new ArchiveRefusal(r.code, r.message, name);
    }
    if (seen !== expect.size) throw new ArchiveRefusal("ARCHIVE_SIZE_MISMATCH", `${name} holds ${seen} bytes; the manifest says ${expect.size}`, name);
    if (expect.sha256 && hasher.digest("hex") !== expect.sha256) {
      throw new ArchiveRefusal("ARCHIVE_CHECKSUM_MISMATCH", `the bytes of ${name} are not the ones the manifest's sha256 names`, name);
    }
  }

  return { entries, read, close: () => zip.close() };
}

/** A member's bytes whole (a manifest, a document's text, an image): at most `max`. */
export async function readAll(archive: Archive, name: string, expect: { size: number; sha256?: string | null }): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of archive.read(name, expect)) parts.push(c);
  return new Uint8Array(Buffer.concat(parts));
}

/** A member's bytes as a stream, checked as they pass (the error ends the stream). */
export function memberStream(archive: Archive, name: string, expect: { size: number; sha256?: string | null }): ReadableStream<Uint8Array> {
  const it = archive.read(name, expect);
  return new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        try {
          const { done, value } = await it.next();
          if (done) c.close();
          else c.enqueue(value);
        } catch (err) {
          c.error(err);
        }
      },
      async cancel() {
        await it.return(undefined).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}

/** Whether these first bytes start a zip (a local header, or the end record of an empty one). */
export const looksLikeZip = (first: Uint8Array) =>
  first.length >= 4 && first[0] === 0x50 && first[1] === 0x4b && ((first[2] === 3 && first[3] === 4) || (first[2] === 5 && first[3] === 6));
