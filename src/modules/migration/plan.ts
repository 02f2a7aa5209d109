// What an import will do with each item of a checked manifest, decided before anything is
// stored: skip it (already here, or nothing to bring), or make it, with its own id where
// no one holds that id and a new one otherwise. And whether the account has room for all
// it will make: the same refusals as each kind's upload, asked for the whole at once.
import { and, eq, inArray } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import { refusalError } from "../../core/refusal.ts";
import { audioIdOwners, precheckAudioFile } from "../audio/public.ts";
import { requireUser } from "../identity/public.ts";
import { imageIdOwners, precheckImageUpload } from "../images/public.ts";
import { documentIdOwners } from "../library/public.ts";
import { assertFits, snapshotUsage } from "../usage/public.ts";
import { precheckVideoFile, videoIdOwners } from "../videos/public.ts";
import type { Item, ItemKind, Manifest } from "./manifest.ts";
import { migrationItems } from "./table.ts";

/** A step skipped with `here` names the thing this account holds already for the item (a collection of it names that). */
export type Step = { item: Item; skip: string; here?: string } | { item: Item; id: string | undefined; why?: string };

type Owners = Map<string, { ownerId: string; size?: number; sha256?: string | null; active?: boolean }>;

const CHUNK = 500;

async function chunked<T>(ids: string[], read: (ids: string[]) => Promise<Map<string, T>>): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  for (let i = 0; i < ids.length; i += CHUNK) for (const [k, v] of await read(ids.slice(i, i + CHUNK))) out.set(k, v);
  return out;
}

const isDocument = (k: ItemKind) => k === "document" || k === "kb_document" || k === "kb_file";

async function ownersOf(deps: Deps, kind: ItemKind, ids: string[]): Promise<Owners> {
  if (kind === "image") return chunked(ids, (c) => imageIdOwners(deps.db, c));
  if (kind === "video") return chunked(ids, (c) => videoIdOwners(deps.db, c));
  if (kind === "audio") return chunked(ids, (c) => audioIdOwners(deps.db, c));
  return chunked(ids, (c) => documentIdOwners(deps.db, c));
}

/** The same thing, for a re-run: the same size (media) or the same text's hash (documents, files). */
function sameThing(item: Item, held: { size?: number; sha256?: string | null; active?: boolean }): boolean {
  if (isDocument(item.kind)) return held.active === true && held.sha256 === item.sha256;
  return held.size === item.size;
}

/** One step per item, in the manifest's order. */
export async function planSteps(deps: Deps, userId: string, manifest: Manifest): Promise<Step[]> {
  const byKind = new Map<ItemKind, Item[]>();
  for (const item of manifest.items) byKind.set(item.kind, [...(byKind.get(item.kind) ?? []), item]);
  // What earlier imports made of these items in this account.
  const earlier = new Map<string, string>();
  const sourceIds = manifest.items.map((i) => i.id);
  for (let i = 0; i < sourceIds.length; i += CHUNK) {
    const rows = await deps.db
      .select()
      .from(migrationItems)
      .where(and(eq(migrationItems.ownerId, userId), inArray(migrationItems.sourceId, sourceIds.slice(i, i + CHUNK))));
    for (const r of rows) earlier.set(`${r.kind}:${r.sourceId}:${r.sha256}`, r.targetId);
  }
  const held = new Map<ItemKind, Owners>();
  for (const [kind, items] of byKind) {
    const ids = new Set(items.map((i) => i.id));
    for (const i of items) {
      const t = earlier.get(`${kind}:${i.id}:${i.sha256 ?? ""}`);
      if (t) ids.add(t);
    }
    held.set(kind, await ownersOf(deps, kind, [...ids]));
  }

  return manifest.items.map((item): Step => {
    if (item.member === null) return { item, skip: "the archive holds no bytes of it (a video whose original was gone)" };
    if (item.kind === "document" && item.revisions.length) {
      // Not a case an export writes (history is kept per KB path); its current text is imported.
      item.revisions = [];
    }
    const owners = held.get(item.kind)!;
    const before = earlier.get(`${item.kind}:${item.id}:${item.sha256 ?? ""}`);
    const target = before ? owners.get(before) : undefined;
    if (before && target?.ownerId === userId && (!isDocument(item.kind) || target.active))
      return { item, skip: "already present (imported before)", here: before };
    const holder = owners.get(item.id);
    if (!holder) return { item, id: item.id };
    if (holder.ownerId === userId && sameThing(item, holder)) return { item, skip: "already present", here: item.id };
    return {
      item,
      id: undefined,
      why:
        holder.ownerId === userId ? "its id is taken in this account by something else: it has a new id" : "its id is taken on this instance: it has a new id",
    };
  });
}

/** What the steps that make things will count. */
function needsOf(steps: Step[]) {
  const need = { imageBytes: 0, mediaBytes: 0, docs: 0, uploads: 0, images: 0 };
  for (const s of steps) {
    if ("skip" in s) continue;
    const { kind, size } = s.item;
    if (kind === "image") {
      need.imageBytes += size;
      need.uploads++;
      need.images++;
    } else if (kind === "video" || kind === "audio") {
      need.mediaBytes += size;
      need.uploads++;
    } else {
      need.imageBytes += size;
      if (kind !== "kb_file") need.docs++;
    }
  }
  return need;
}

/**
 * The refusals the import would meet item by item, asked before the first is stored: each
 * kind's own (a plan without video, a file past the plan's size) and the room for all of
 * it. Throws the AppError an upload would answer.
 */
export async function assertRoom(deps: Deps, userId: string, steps: Step[]): Promise<void> {
  const user = await requireUser(deps.db, userId);
  const limits = deps.plans[user.plan];
  const making = steps.filter((s) => !("skip" in s));
  const seen = new Set<ItemKind>();
  for (const s of making) {
    const { kind } = s.item;
    // One ask per kind with its largest item: the plan's rules and its size limit.
    if (seen.has(kind)) continue;
    seen.add(kind);
    const largest = Math.max(...making.filter((m) => m.item.kind === kind).map((m) => m.item.size));
    if (kind === "video") await precheckVideoFile(deps, userId, largest);
    if (kind === "audio") await precheckAudioFile(deps, userId, largest);
    if (kind === "image") await precheckImageUpload(deps, userId, largest);
    if ((kind === "document" || kind === "kb_document") && limits.docMaxFileBytes >= 0 && largest > limits.docMaxFileBytes) {
      throw new AppError("DOC_FILE_TOO_LARGE", `a document may have at most ${limits.docMaxFileBytes} bytes on this plan`, {
        limit: limits.docMaxFileBytes,
        size: largest,
      });
    }
  }
  const now = deps.clock.now();
  const usage = await snapshotUsage(deps.db, userId, now);
  try {
    assertFits(userId, usage, limits, needsOf(steps), now);
  } catch (e) {
    throw refusalError(e) ?? e;
  }
}
