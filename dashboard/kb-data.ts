// What the knowledge-base screens read from the public API (a KB, its manifest, its pending
// conflict branches, a document's text) and the pieces they share: addresses in the
// fragment, dates, the breadcrumb.
import { LinkIndex } from "../src/modules/library/kbs/note-links.ts";
import { type Answer, call, callRaw } from "./api.ts";
import { bytes, h } from "./dom.ts";

export type Kb = Answer<"/v1/kbs/{id}", "get">;

type Manifest = Answer<"/v1/kbs/{id}/manifest", "get">;
type ManifestEntry = Manifest["items"][number];

/**
 * An active document of a KB. The manifest has one entry shape for live and deleted paths
 * alike, so its id (v2), size and time may be absent as far as the document says; an entry
 * is an Entry once `active` has seen them.
 */
export type Entry = ManifestEntry & { [K in "docId" | "sizeBytes" | "updatedAt"]: NonNullable<ManifestEntry[K]> };

const active = (e: ManifestEntry): e is Entry => e.deletedAt === null && e.docId !== undefined && e.sizeBytes !== null && e.updatedAt !== null;

/** A document's metadata (GET /v1/docs/{id}). */
export type Doc = Answer<"/v1/docs/{id}", "get">;

type Branches = Answer<"/v1/kbs/{id}/conflicts", "get">;
/** A pending conflict branch. */
export type Branch = Branches["items"][number];

/** "3 documents · 1.2 KB": what the API counts for a KB. */
export const kbFacts = (kb: Kb) => `${kb.docCount === 1 ? "1 document" : `${kb.docCount} documents`} · ${bytes(kb.sizeBytes)}`;

/** A path in the fragment: each segment encoded, so a name with "#", "%" or "?" survives. */
export const kbHref = (kbId: string, path = "") => `#/kbs/${kbId}${path ? `/${path.split("/").map(encodeURIComponent).join("/")}` : ""}`;

/** A date as the person's locale writes it. */
export const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

export const getKb = (id: string) => call<Kb>("GET", `/v1/kbs/${encodeURIComponent(id)}`);

/**
 * Every active document of a KB: the v2 manifest (it carries each document's id), page after
 * page; soft-deleted entries are left out. `syncVersion` is the query form of the version header.
 */
export async function kbEntries(kbId: string): Promise<Entry[]> {
  const out: Entry[] = [];
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams({ syncVersion: "2", limit: "1000", ...(cursor ? { cursor } : {}) });
    const page = await call<Manifest>("GET", `/v1/kbs/${kbId}/manifest?${q}`);
    out.push(...page.items.filter(active));
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/** A KB's pending conflict branches, oldest first, every page. */
export async function pendingBranches(kbId: string): Promise<Branch[]> {
  const out: Branch[] = [];
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams({ limit: "50", ...(cursor ? { cursor } : {}) });
    const page = await call<Branches>("GET", `/v1/kbs/${kbId}/conflicts?${q}`);
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/** Where the note at `path` sits among the KB's `entries`: what its links resolve against. */
/** Where a note is, as its rendering resolves links: its KB and path, and the KB's paths. */
export interface NotePlace {
  kbId: string;
  path: string;
  index: LinkIndex;
  /** The KB's documents' ids by path (an embedded note's text is read by id). */
  docIds: ReadonlyMap<string, string>;
}

export const notePlace = (kbId: string, path: string, entries: Entry[]): NotePlace => ({
  kbId,
  path,
  index: new LinkIndex(entries.map((e) => e.relativePath)),
  docIds: new Map(entries.map((e) => [e.relativePath, e.docId])),
});

/** A document's current text. */
export const docText = async (docId: string) => (await callRaw(`/v1/docs/${docId}/raw`)).text();

/** "Knowledge bases › Notes › guides › intro.md": each step a link but the last, which is this page. */
export function breadcrumb(kb: Pick<Kb, "id" | "name"> | null, path = "", last?: string) {
  const steps: [string, string | null][] = [["Knowledge bases", "#/kbs"]];
  if (kb) steps.push([kb.name, kbHref(kb.id)]);
  const segments = path ? path.split("/") : [];
  segments.forEach((s, i) => {
    steps.push([s, kb ? kbHref(kb.id, segments.slice(0, i + 1).join("/")) : null]);
  });
  if (last) steps.push([last, null]);
  const items = steps.map(([text, href], i) =>
    h("li", {}, i === steps.length - 1 ? h("span", { "aria-current": "page" }, text) : href ? h("a", { href }, text) : h("span", {}, text)),
  );
  return h("nav", { class: "crumbs", "aria-label": "Breadcrumb" }, h("ol", {}, ...items));
}

/** Words for a count: plural("conflict", 2) is "2 conflicts". */
export const plural = (word: string, n: number) => `${n} ${word}${n === 1 ? "" : "s"}`;
