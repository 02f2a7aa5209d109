// Writes one export's archive: a zip streamed into the object store as it is made, member
// after member, each original streamed from the store through a SHA-256 and byte count on
// its way in (zip.ts). Neither an original nor the archive is ever held in memory: what is
// held is one chunk in flight, a central record per member and the member names taken so
// far (to resolve clashes), about 200 bytes an item; the manifest's entries are spooled to a
// file of the worker's (manifest.ts) and streamed into manifest.json, written last.
import type { Deps } from "../../core/deps.ts";
import type { ExportBody, ExportItem, ExportPage } from "../../core/export-source.ts";
import { audioForExport } from "../audio/public.ts";
import { getUser } from "../identity/public.ts";
import { imagesForExport } from "../images/public.ts";
import { documentsForExport, kbEntriesForExport, kbsForExport, type RevisionExport, revisionsForExport } from "../library/public.ts";
import { videosForExport } from "../videos/public.ts";
import { exportCollections } from "./collections.ts";
import { type Copied, type ItemKind, MANIFEST_MEMBER, type ManifestItem, manifestChunks, manifestItem, manifestKb, openSpool } from "./manifest.ts";
import { MemberNames, safeSegment, withExt } from "./names.ts";
import { type ZipMember, zipChunks, zipStream } from "./zip.ts";
import type { ExportRow } from "./table.ts";

const PAGE = 200;
const COLLECT_EVERY = 32 * 1024 * 1024;
const TELL_EVERY_MS = 1_000;

/** Why an export cannot be made, as its owner is told (failureReason): it is not retried. */
export class ExportFailure extends Error {
  override name = "ExportFailure";
}

export interface ArchiveHooks {
  /** After each member is in: what has been copied so far. Throws to stop (the lease was lost). */
  progress(done: { items: number; bytes: number }): Promise<void>;
}

type Member = ZipMember;

/** A member this large or larger is written with Zip64 sizes from its start. */
const LARGE = 0xffff0000;

export const archiveKey = (row: Pick<ExportRow, "ownerId" | "id">) => `exports/${row.ownerId}/${row.id}.zip`;

/** The archive's file name as offered for download. */
export const archiveFilename = (row: Pick<ExportRow, "createdAt">) => `shelf-export-${row.createdAt.toISOString().slice(0, 10)}.zip`;

/** Writes the archive of `row` to the store; its size. Throws ExportFailure for what a retry would not mend. */
export async function writeArchive(deps: Deps, row: ExportRow, hooks: ArchiveHooks): Promise<number> {
  const names = new MemberNames();
  const spool = await openSpool();
  const kbEntries: ReturnType<typeof manifestKb>[] = [];
  const done = { items: 0, bytes: 0 };
  const kinds = new Set(row.kinds);
  const collections = await exportCollections(deps.db, row.ownerId, row.kinds);

  /** A member whose bytes are counted and hashed as the zip reads them; `settled` once read to the end. */
  async function member(name: string, item: { id: string; updatedAt: Date; size?: number }, body: ExportBody, what: string) {
    let copied: (c: Copied) => void = () => {};
    const settled = new Promise<Copied>((resolve) => (copied = resolve));
    if ("text" in body) {
      const bytes = new TextEncoder().encode(body.text);
      await copiedBytes(bytes.length);
      copied({ member: name, size: bytes.length, sha256: new Bun.CryptoHasher("sha256").update(bytes).digest("hex") });
      return { m: { name, modified: item.updatedAt, body: bytes } satisfies ZipMember, settled };
    }
    const stream = body.key ? await deps.storage.get(body.key) : null;
    if (!stream) throw new ExportFailure(`the bytes of ${what} ${item.id} are missing from the object store`);
    async function* hashed() {
      const hasher = new Bun.CryptoHasher("sha256");
      let size = 0;
      for await (const chunk of stream!) {
        hasher.update(chunk);
        size += chunk.length;
        yield chunk;
        await copiedBytes(chunk.length);
      }
      copied({ member: name, size, sha256: hasher.digest("hex") });
    }
    return { m: { name, modified: item.updatedAt, body: hashed(), large: (item.size ?? 0) >= LARGE } satisfies ZipMember, settled };
  }

  async function* pages<T>(read: (after: string | null) => Promise<ExportPage<T>>): AsyncGenerator<T> {
    let after: string | null = null;
    do {
      const page: ExportPage<T> = await read(after);
      yield* page.items;
      after = page.next;
    } while (after !== null);
  }

  let sinceCollect = 0;
  let lastTold = performance.now();
  /**
   * Counts copied bytes as they pass, and tells them at most every TELL_EVERY_MS: a long
   * member (a 2 GB video) moves the progress and renews the lease while it is copied, as the
   * copy keeps the event loop too busy for a timer to do it.
   */
  async function copiedBytes(n: number) {
    done.bytes += n;
    // The chunks the store's reads hand over are held outside the collector's heap, which
    // does not count them, and a worker that keeps copying never idles for it to run: the
    // bench's node grew by the size of the archive (550 MB for 550 MB). Asked to collect
    // every COLLECT_EVERY bytes, it stays flat, for a pause of milliseconds each time.
    sinceCollect += n;
    if (sinceCollect >= COLLECT_EVERY) {
      sinceCollect = 0;
      Bun.gc(false);
    }
    if (performance.now() - lastTold >= TELL_EVERY_MS) {
      lastTold = performance.now();
      await hooks.progress({ ...done });
    }
  }

  /** One more item is in the archive (its bytes were counted as they passed). */
  async function tick() {
    done.items++;
    await hooks.progress({ ...done });
  }

  // Media: one folder per kind, each original under the name it was uploaded with.
  const media: [ExportKindName, ItemKind, string, (after: string | null) => Promise<ExportPage>][] = [
    ["images", "image", "images", (after) => imagesForExport(deps.db, row.mediaUrl, row.ownerId, after, PAGE)],
    ["videos", "video", "videos", (after) => videosForExport(deps.db, row.mediaUrl, row.ownerId, after, PAGE)],
    ["audio", "audio", "audio", (after) => audioForExport(deps.db, row.mediaUrl, row.ownerId, after, PAGE)],
  ];

  /** A document and its revisions (under revisions/<its member>/<n>.<ext>). */
  async function* documentMembers(kind: ItemKind, item: ExportItem, path: string, revisions: RevisionExport[], kb?: ManifestItem["kb"]) {
    const { m, settled } = await member(path, item, item.body ?? { text: "" }, "document");
    yield m;
    const copied = await settled;
    await tick();
    const revs = [];
    for (const r of revisions) {
      const revPath = names.reserve(`revisions/${path}/${r.revNumber}.${item.ext}`);
      const rev = await member(revPath, { id: r.id, updatedAt: r.createdAt }, r.body, "revision");
      yield rev.m;
      const c = await rev.settled;
      await tick();
      revs.push({ ...c, id: r.id, revNumber: r.revNumber, origin: r.origin, sourceHash: r.sourceHash, createdAt: r.createdAt.toISOString() });
    }
    spool.add(manifestItem(kind, item, copied, { ...(kb ? { kb } : {}), revisions: revs }));
  }

  async function* members(): AsyncGenerator<Member> {
    for (const [name, kind, folder, read] of media) {
      if (!kinds.has(name)) continue;
      for await (const item of pages(read)) {
        collections.listed(kind, item.id);
        if (!item.body) {
          spool.add(manifestItem(kind, item, null));
          await tick();
          continue;
        }
        const path = names.claim(folder, withExt(safeSegment(item.name, `${kind}-${item.id}`), item.ext));
        const { m, settled } = await member(path, item, item.body, kind);
        yield m;
        const copied = await settled;
        spool.add(manifestItem(kind, item, copied));
        await tick();
      }
    }
    if (kinds.has("documents")) {
      for await (const page of pageLists((after) => documentsForExport(deps.db, row.publicUrl, row.ownerId, after, PAGE))) {
        const revisions = await revisionsForExport(
          deps.db,
          row.ownerId,
          page.map((d) => d.id),
        );
        for (const doc of page) {
          const path = names.claim("documents", withExt(safeSegment(doc.name, `document-${doc.id}`), doc.ext));
          yield* documentMembers("document", doc, path, revisions.get(doc.id) ?? []);
        }
      }
    }
    if (kinds.has("kbs")) {
      for (const kb of await kbsForExport(deps.db, row.ownerId, row.kbIds)) {
        const folder = `kbs/${safeSegment(kb.slug, kb.id)}`;
        kbEntries.push(manifestKb(kb, folder));
        for await (const page of pageLists((after) => kbEntriesForExport(deps.db, row.publicUrl, row.ownerId, kb.id, after, PAGE))) {
          const revisions = await revisionsForExport(
            deps.db,
            row.ownerId,
            page.filter((e) => e.entry === "document").map((e) => e.id),
          );
          for (const entry of page) {
            const path = names.reserve(`${folder}/${entry.relativePath}`);
            const at = { id: kb.id, slug: kb.slug, path: entry.relativePath };
            if (entry.entry === "document") {
              yield* documentMembers("kb_document", entry, path, revisions.get(entry.id) ?? [], at);
              continue;
            }
            const { m, settled } = await member(path, entry, entry.body ?? { text: "" }, "KB file");
            yield m;
            const copied = await settled;
            spool.add(manifestItem("kb_file", entry, copied, { kb: at }));
            await tick();
          }
        }
      }
    }
    const user = await getUser(deps.db, row.ownerId);
    const account = { id: row.ownerId, email: user?.email ?? null, nickname: user?.nickname ?? null };
    yield { name: MANIFEST_MEMBER, modified: deps.clock.now(), body: manifestChunks(row, account, deps.clock.now(), kbEntries, collections.manifest(), spool) };
  }

  async function* pageLists<T>(read: (after: string | null) => Promise<ExportPage<T>>): AsyncGenerator<T[]> {
    let after: string | null = null;
    do {
      const page: ExportPage<T> = await read(after);
      if (page.items.length) yield page.items;
      after = page.next;
    } while (after !== null);
  }

  // The zip pulls the members as the store takes its bytes. A failure inside the members
  // (a missing object, a lost lease) errors the zip's stream and so the store's write; the
  // first one is what the export is failed with.
  let failure: unknown;
  const source = members();
  const guarded: AsyncGenerator<Member> = (async function* () {
    try {
      yield* source;
    } catch (err) {
      failure ??= err;
      throw err;
    }
  })();
  try {
    const { size } = await deps.storage.put(archiveKey(row), zipStream(zipChunks(guarded)), { contentType: "application/zip" });
    return size;
  } catch (err) {
    throw failure ?? err;
  } finally {
    await spool.remove();
  }
}

type ExportKindName = ExportRow["kinds"][number];
