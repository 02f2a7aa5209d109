// One import, from the archive on the worker's disk to the account's things: the archive
// and its manifest checked (archive.ts, manifest.ts), every member's bytes read once and
// checked against the manifest, the plan and the room for it (plan.ts), all before the
// first thing is stored. Then each item is made through its module's own rules, in the
// manifest's order (media first, so documents' links to them can follow a new id), and the
// collections once the last medium is made (collections.ts). What was made is recorded as
// it is made; when a step fails, everything made is taken back.
import { and, eq } from "drizzle-orm";
import { AppError } from "../../core/errors.ts";
import { refusalError } from "../../core/refusal.ts";
import { newId } from "../../infra/ids.ts";
import { ingestAudio, purgeAudio, trashAudio } from "../audio/public.ts";
import { deleteCollection } from "../collections/public.ts";
import { type ImageDeps, importImage, purgeImage, trashImage } from "../images/public.ts";
import { deleteDocument, importDocument, importKb, importKbFile, kbPathHolder, purgeDocument, purgeKb, trashKb } from "../library/public.ts";
import { ingestVideo, purgeVideo, trashOwnVideo } from "../videos/public.ts";
import { type Archive, memberStream, readAll } from "./archive.ts";
import { type HereIds, makeCollections, noteHere, planCollections } from "./collections.ts";
import type { Item, Manifest } from "./manifest.ts";
import { assertRoom, planSteps, type Step } from "./plan.ts";
import { rewriteLinks } from "./links.ts";
import { type MigrationReport, type MigrationRow, migrationItems, type ReportEntry } from "./table.ts";

/** The report's lists hold at most this many entries each (the counts are whole). */
const REPORT_MAX = 2_000;

export interface RunHooks {
  /** After each item: how many of the total are done. Throws to stop (the lease was lost). */
  progress(done: number, total: number): Promise<void>;
}

type Made = { kind: "image" | "video" | "audio" | "document" | "kb" | "collection"; id: string };

const MEDIA = new Set(["image", "video", "audio"]);

const FORMAT_EXT: Record<string, string> = { markdown: "md", typst: "typ" };

/** The filename a document is made with: the one it had, when it names a format; else from its path or title. */
function filenameOf(item: Item): string {
  const f = item.fields.filename;
  if (typeof f === "string" && /\.(md|markdown|typ)$/i.test(f) && f.length <= 255) return f;
  const last = item.kb?.path.split("/").pop();
  if (last && /\.(md|markdown|typ)$/i.test(last)) return last.slice(-255);
  const ext = FORMAT_EXT[String(item.fields.format)] ?? "md";
  return `${(item.name || "document").slice(0, 200)}.${ext}`;
}

const isMarkdown = (item: Item) => item.fields.format !== "typst" && !/\.typ$/i.test(item.kb?.path ?? "");

export async function runImport(deps: ImageDeps, row: MigrationRow, archive: Archive, manifest: Manifest, hooks: RunHooks): Promise<MigrationReport> {
  const userId = row.ownerId;
  const report: MigrationReport = {
    counts: { imported: 0, skipped: 0, revisions: 0, kbs: 0, collections: 0, rewrittenLinks: 0 },
    imported: [],
    skipped: [],
    error: null,
    truncated: false,
  };
  const note = (list: ReportEntry[], e: ReportEntry) => {
    if (list.length < REPORT_MAX) list.push(e);
    else report.truncated = true;
  };

  // Every member's bytes, read once and checked, before anything is stored.
  for (const item of manifest.items) {
    if (item.member) for await (const _ of archive.read(item.member, item)) void _;
    for (const r of item.revisions) for await (const _ of archive.read(r.member, r)) void _;
  }

  const steps = await planSteps(deps, userId, manifest);
  await assertRoom(deps, userId, steps);
  const collections = await planCollections(deps, userId, manifest.collections, steps);

  const made: Made[] = [];
  const changed = new Map<string, string>();
  const kbIds = new Map<string, string>();
  const here: HereIds = new Map();
  let lastMedium = -1;
  steps.forEach((s, i) => {
    if (MEDIA.has(s.item.kind)) lastMedium = i;
  });
  const collectionsStep = async () => {
    await makeCollections(deps, userId, row.id, collections, here, (id) => made.push({ kind: "collection", id }));
    report.counts.collections = collections.length;
  };
  let done = 0;
  try {
    for (const kb of manifest.kbs) {
      if (!steps.some((s) => !("skip" in s) && s.item.kb?.id === kb.id)) continue;
      const got = await importKb(deps, userId, kb);
      kbIds.set(kb.id, got.id);
      if (!got.existing) {
        made.push({ kind: "kb", id: got.id });
        report.counts.kbs++;
      }
    }
    for (const [i, step] of steps.entries()) {
      if (i === lastMedium + 1) await collectionsStep();
      const { item } = step;
      const entry: ReportEntry = { kind: item.kind, sourceId: item.id, id: null, name: item.name };
      if ("skip" in step) {
        if (step.here) noteHere(here, item.kind, item.id, step.here);
        report.counts.skipped++;
        note(report.skipped, { ...entry, reason: step.skip });
      } else {
        const taken = item.kb ? await pathTaken(deps, userId, kbIds.get(item.kb.id)!, item) : undefined;
        if (taken) {
          report.counts.skipped++;
          note(report.skipped, { ...entry, id: taken.id, reason: taken.reason });
          await hooks.progress(++done, steps.length);
          continue;
        }
        const { id, skip } = await makeItem(deps, row, archive, manifest, step, { made, changed, kbIds, report });
        if (id !== item.id) changed.set(item.id, id);
        noteHere(here, item.kind, item.id, id);
        if (skip) {
          report.counts.skipped++;
          note(report.skipped, { ...entry, id, reason: skip });
          await hooks.progress(++done, steps.length);
          continue;
        }
        await deps.db
          .insert(migrationItems)
          .values({
            ownerId: userId,
            kind: item.kind,
            sourceId: item.id,
            sha256: item.sha256 ?? "",
            targetId: id,
            migrationId: row.id,
            createdAt: deps.clock.now(),
          })
          .onConflictDoUpdate({
            target: [migrationItems.ownerId, migrationItems.kind, migrationItems.sourceId, migrationItems.sha256],
            set: { targetId: id, migrationId: row.id },
          });
        report.counts.imported++;
        const why = step.why ?? (id !== item.id && item.kind === "kb_file" ? "a KB file's link at its path is made with a new id" : undefined);
        note(report.imported, { ...entry, id, ...(why ? { reason: why } : {}) });
      }
      await hooks.progress(++done, steps.length);
    }
    if (lastMedium === steps.length - 1) await collectionsStep();
  } catch (err) {
    await takeBack(deps, userId, made);
    await deps.db.delete(migrationItems).where(and(eq(migrationItems.ownerId, userId), eq(migrationItems.migrationId, row.id)));
    throw err;
  }
  return report;
}

/**
 * A KB path that holds something already: the same bytes (a KB imported before under
 * another id) are there already; anything else is the account's own and is left as it is.
 */
async function pathTaken(deps: ImageDeps, userId: string, kbId: string, item: Item): Promise<{ id: string; reason: string } | undefined> {
  const held = await kbPathHolder(deps.db, userId, kbId, item.kb!.path);
  if (!held) return undefined;
  if (held.sha256 === item.sha256) return { id: held.id, reason: "already present (the same bytes at its path)" };
  return { id: held.id, reason: "its KB path holds another document or file of this account's, which is left as it is" };
}

interface Books {
  made: Made[];
  changed: Map<string, string>;
  kbIds: Map<string, string>;
  report: MigrationReport;
}

/** Makes one item through its module: its id here, and why it was skipped where its module found it there already. */
async function makeItem(
  deps: ImageDeps,
  row: MigrationRow,
  archive: Archive,
  manifest: Manifest,
  step: Extract<Step, { id: string | undefined }>,
  b: Books,
): Promise<{ id: string; skip?: string }> {
  const { item } = step;
  const userId = row.ownerId;
  const member = item.member!;
  const tags = item.tags.slice(0, 10);
  // Its own creation time, where the manifest's is one (videos take the import's: their transcode's reconciliation goes by it).
  const made = new Date(item.createdAt);
  const createdAt = Number.isNaN(made.getTime()) || made.getTime() > deps.clock.nowMs() ? undefined : made;
  const at = createdAt ? { createdAt } : {};
  const title = typeof item.fields.title === "string" && item.fields.title.trim() ? item.fields.title.slice(0, 255) : undefined;
  switch (item.kind) {
    case "image": {
      const release = await deps.budgets.uploadMemory.acquire(item.size);
      try {
        const bytes = await readAll(archive, member, item);
        const image = await importImage(deps, userId, {
          bytes,
          filename: item.name,
          tags,
          isPublic: item.isPublic,
          ...(step.id ? { id: step.id } : {}),
          ...at,
        });
        b.made.push({ kind: "image", id: image.id });
        return { id: image.id };
      } finally {
        release();
      }
    }
    case "video": {
      // Staged in the store, then moved into place by the video pipeline (which queues its transcode).
      const staged = `migrations/${userId}/${row.id}/staged-${newId()}`;
      try {
        await deps.storage.put(staged, memberStream(archive, member, item), { contentType: "application/octet-stream" });
        const video = await ingestVideo(
          deps,
          userId,
          {
            key: staged,
            size: item.size,
            filename: item.name,
            fields: { ...(title ? { title } : {}), tags, isPublic: item.isPublic },
            ...(step.id ? { id: step.id } : {}),
          },
          async () => {},
        );
        b.made.push({ kind: "video", id: video.id });
        return { id: video.id };
      } finally {
        await deps.storage.delete(staged).catch(() => {});
      }
    }
    case "audio": {
      const audio = await ingestAudio(
        deps,
        userId,
        {
          stream: memberStream(archive, member, item),
          filename: item.name,
          fields: { ...(title ? { title } : {}), isPublic: item.isPublic },
          ...(step.id ? { id: step.id } : {}),
          ...at,
        },
        async () => {},
      );
      b.made.push({ kind: "audio", id: audio.id });
      return { id: audio.id };
    }
    case "kb_file": {
      const kbId = b.kbIds.get(item.kb!.id)!;
      const name = item.kb!.path.split("/").pop() ?? item.name;
      const file = await importKbFile(deps, userId, kbId, item.kb!.path, {
        stream: memberStream(archive, member, item),
        size: item.size,
        sha256: item.sha256!,
        name,
      });
      return { id: file.id };
    }
    default: {
      const text = async (m: string, e: { size: number; sha256: string | null }) => {
        const raw = new TextDecoder().decode(await readAll(archive, m, e));
        if (!isMarkdown(item)) return raw;
        const out = rewriteLinks(raw, manifest.mediaUrl, row.mediaUrl, b.changed);
        b.report.counts.rewrittenLinks += out.count;
        return out.text;
      };
      const kb = item.kb ? { id: b.kbIds.get(item.kb.id)!, path: item.kb.path } : undefined;
      const base = { filename: filenameOf(item), ...(title ? { title } : {}), tags, isPublic: item.isPublic, ...(kb ? { kb } : {}), ...at };
      let id = step.id;
      // A KB path's earlier texts first, oldest first: each later one replaces it, so the
      // account's history holds them as its version settings keep history.
      for (const r of item.revisions) {
        const got = await importDocument(deps, userId, { ...base, content: await text(r.member, r), ...(id ? { id } : {}) });
        if (got.created) b.made.push({ kind: "document", id: got.id });
        id = got.id;
        b.report.counts.revisions++;
      }
      const got = await importDocument(deps, userId, { ...base, content: await text(member, item), ...(id ? { id } : {}) });
      if (got.created) b.made.push({ kind: "document", id: got.id });
      // Outside a KB the same text is one document (POST /v1/docs de-duplicates by hash).
      if (got.duplicate && !item.kb) return { id: got.id, skip: "already present (a document with the same text)" };
      return { id: got.id };
    }
  }
}

/**
 * Takes back what a failed import made, newest first; a KB it made goes with its documents
 * and files. Not to the trash: each item is trashed (the one way in) and purged at once, so
 * nothing of the failed import is left, counted, or offered for restore.
 */
async function takeBack(deps: ImageDeps, userId: string, made: Made[]) {
  for (const m of [...made].reverse()) {
    try {
      if (m.kind === "image") {
        await trashImage(deps, userId, m.id);
        await purgeImage(deps, userId, m.id);
      } else if (m.kind === "video") {
        await trashOwnVideo(deps, userId, m.id);
        await purgeVideo(deps, userId, m.id);
      } else if (m.kind === "audio") {
        await trashAudio(deps, userId, m.id);
        await purgeAudio(deps, userId, m.id);
      } else if (m.kind === "collection") {
        await deleteCollection(deps, userId, m.id);
      } else if (m.kind === "document") {
        await deleteDocument(deps, userId, m.id);
        await purgeDocument(deps, userId, m.id);
      } else {
        await trashKb(deps, userId, m.id, true);
        await purgeKb(deps, userId, m.id);
      }
    } catch (err) {
      // Already gone (a KB's document with its KB), or the store away: the orphan sweep and usage verify mend the rest.
      if (!(err instanceof AppError && err.code === "NOT_FOUND")) deps.log.error("import take-back failed", { userId, ...m, err: refusalError(err) ?? err });
    }
  }
}
