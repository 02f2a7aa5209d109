// What a share link may open, read through the owning modules' public surfaces: whether the
// caller owns the target (creating a link), and what its page shows (viewing one). One
// reader per kind; a collection, when it exists, is one more.
import type { Deps } from "../../core/deps.ts";
import { AppError, notFound, validationError } from "../../core/errors.ts";
import { IMAGE_ID_PATTERN } from "../../infra/ids.ts";
import { ownedAudioCard } from "../audio/public.ts";
import { getImage, toImageItem } from "../images/public.ts";
import { getDocument, getKb, listFolder, normalizePath, pathProblemText, readContent } from "../library/public.ts";
import { ownedVideoCard } from "../videos/public.ts";
import type { ShareTarget } from "./model.ts";
import type { ShareKind } from "./table.ts";

const IMAGE_ID = new RegExp(IMAGE_ID_PATTERN);

/** A 404 of the target's own module becomes null: a link to a missing item opens nothing (nor a folder path that names none). */
const orNull = <T>(p: Promise<T>): Promise<T | null> =>
  p.catch((e: unknown) => {
    if (e instanceof AppError && (e.code === "NOT_FOUND" || e.code === "VALIDATION_ERROR")) return null;
    throw e;
  });

/** The target as stored: its id checked against its kind, a KB's folder normalized ("" is the whole KB). */
export function storedTarget(target: ShareTarget): { kind: ShareKind; id: string; path: string | null } {
  const isImageId = IMAGE_ID.test(target.id);
  if ((target.kind === "image") !== isImageId) {
    throw validationError("body.target.id", target.kind === "image" ? "an image id has 11 characters" : `a ${target.kind} id has 21 characters`);
  }
  if (target.kind !== "kb") {
    if (target.path !== undefined) throw validationError("body.target.path", "only a kb target takes a path");
    return { kind: target.kind, id: target.id, path: null };
  }
  const trimmed = (target.path ?? "").replace(/\/+$/, "");
  if (trimmed === "") return { kind: "kb", id: target.id, path: "" };
  const p = normalizePath(trimmed);
  if (!p.ok) throw validationError("body.target.path", pathProblemText(p.problem));
  return { kind: "kb", id: target.id, path: p.path };
}

/** 404 unless the caller owns the target (a KB folder: one with something in it). */
export async function assertOwnedTarget(deps: Deps, ownerId: string, t: { kind: ShareKind; id: string; path: string | null }): Promise<void> {
  switch (t.kind) {
    case "image":
      await getImage(deps.db, { userId: ownerId, id: t.id });
      return;
    case "video":
      if (!(await ownedVideoCard(deps, ownerId, t.id))) throw notFound("video");
      return;
    case "audio":
      if (!(await ownedAudioCard(deps, ownerId, t.id))) throw notFound("audio");
      return;
    case "document":
      await getDocument(deps.db, { userId: ownerId, id: t.id });
      return;
    case "kb":
      await getKb(deps.db, { userId: ownerId, id: t.id });
      if (t.path) await listFolder(deps, ownerId, t.id, { prefix: t.path, limit: 1 });
      return;
  }
}

/** What a link's page shows, read for its owner; null when the item is gone. */
export type Shown =
  | { kind: "image"; title: string; file: string; width: number; height: number; placeholder: string | null; svg: boolean }
  | { kind: "video"; id: string; title: string; ready: boolean; height: number; poster: string | null }
  | { kind: "audio"; title: string; file: string; contentType: string; cover: string }
  | { kind: "document"; title: string; format: "markdown" | "typst" | "other"; text: string }
  | { kind: "kb"; title: string; path: string; entries: KbEntry[] };

interface KbEntry {
  kind: "folder" | "document" | "file";
  name: string;
  path: string;
  id?: string;
}

/** At most this many entries of a KB folder on its page (one page of its listing). */
const KB_PAGE = 200;

export async function shownTarget(deps: Deps, ownerId: string, t: { kind: ShareKind; id: string; path: string | null }): Promise<Shown | null> {
  switch (t.kind) {
    case "image": {
      const row = await orNull(getImage(deps.db, { userId: ownerId, id: t.id }));
      if (!row) return null;
      const item = toImageItem(deps.config.MEDIA_URL, row);
      const file = item.url.slice(deps.config.MEDIA_URL.length + 1);
      return { kind: "image", title: row.filename, file, width: row.width, height: row.height, placeholder: item.placeholder, svg: row.format === "svg" };
    }
    case "video": {
      const v = await ownedVideoCard(deps, ownerId, t.id);
      return (
        v && { kind: "video", id: v.id, title: v.title, ready: v.ready, height: v.height, poster: v.thumbnailFile ? `v/${v.id}/${v.thumbnailFile}` : null }
      );
    }
    case "audio": {
      const a = await ownedAudioCard(deps, ownerId, t.id);
      return a && { kind: "audio", title: a.title, file: a.file, contentType: a.contentType, cover: a.cover };
    }
    case "document": {
      const row = await orNull(getDocument(deps.db, { userId: ownerId, id: t.id }));
      if (!row) return null;
      const format = row.format === "markdown" ? "markdown" : row.format === "typst" ? "typst" : "other";
      return { kind: "document", title: row.title, format, text: await readContent(deps, row) };
    }
    case "kb": {
      const kb = await orNull(getKb(deps.db, { userId: ownerId, id: t.id }));
      if (!kb) return null;
      const page = await orNull(listFolder(deps, ownerId, t.id, { prefix: t.path ?? "", limit: KB_PAGE }));
      if (!page) return null;
      const entries = page.items.map((i): KbEntry => ({ kind: i.kind, name: i.name, path: i.path, ...("id" in i ? { id: i.id } : {}) }));
      return { kind: "kb", title: t.path ? `${kb.name} / ${t.path}` : kb.name, path: t.path ?? "", entries };
    }
  }
}
