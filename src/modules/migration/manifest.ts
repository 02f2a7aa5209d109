// manifest.json of an account archive (the backup module writes it: docs/api.md, "Backup"),
// read with no trust: every field an import uses is checked for its type and shape, every
// member it names must be in the archive once, and every item's id must look like one.
import { IMAGE_ID_PATTERN, ID_PATTERN } from "../../infra/ids.ts";
import { type Archive, ArchiveRefusal, MANIFEST_MAX_BYTES, readAll } from "./archive.ts";

const MANIFEST_MEMBER = "manifest.json";

export type ItemKind = "image" | "video" | "audio" | "document" | "kb_document" | "kb_file";
const KINDS = new Set<ItemKind>(["image", "video", "audio", "document", "kb_document", "kb_file"]);

interface Revision {
  id: string;
  member: string;
  size: number;
  sha256: string;
  revNumber: number;
  createdAt: string;
}

export interface Item {
  id: string;
  kind: ItemKind;
  member: string | null;
  name: string;
  size: number;
  sha256: string | null;
  tags: string[];
  isPublic: boolean;
  createdAt: string;
  fields: Record<string, unknown>;
  kb?: { id: string; slug: string; path: string };
  revisions: Revision[];
}

interface Kb {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  isDefault: boolean;
}

export type MediaKind = "image" | "video" | "audio";
const MEDIA_KINDS = new Set<string>(["image", "video", "audio"]);

export interface CollectionEntry {
  id: string;
  title: string;
  description: string | null;
  cover: { kind: MediaKind; id: string } | null;
  createdAt: string;
  /** In order, by their ids in the archive. */
  items: { kind: MediaKind; id: string }[];
}

export interface Manifest {
  account: { id: string };
  mediaUrl: string;
  kbs: Kb[];
  items: Item[];
  /** Empty for an archive written before exports held collections. */
  collections: CollectionEntry[];
}

const imageId = new RegExp(IMAGE_ID_PATTERN);
const anyId = new RegExp(ID_PATTERN);
const HEX64 = /^[0-9a-f]{64}$/;

class Shape {
  constructor(private readonly at: string) {}
  fail(what: string): never {
    throw new ArchiveRefusal("MANIFEST_INVALID", `manifest.json: ${this.at} ${what}`, MANIFEST_MEMBER);
  }
  obj(v: unknown): Record<string, unknown> {
    if (typeof v !== "object" || v === null || Array.isArray(v)) this.fail("is not an object");
    return v as Record<string, unknown>;
  }
  str(o: Record<string, unknown>, k: string, max = 4096): string {
    const v = o[k];
    if (typeof v !== "string" || v.length > max) this.fail(`${k} is not a string of at most ${max} characters`);
    return v;
  }
  strOrNull(o: Record<string, unknown>, k: string, max = 4096): string | null {
    return o[k] === null || o[k] === undefined ? null : this.str(o, k, max);
  }
  int(o: Record<string, unknown>, k: string): number {
    const v = o[k];
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) this.fail(`${k} is not a whole number`);
    return v;
  }
  bool(o: Record<string, unknown>, k: string): boolean {
    if (typeof o[k] !== "boolean") this.fail(`${k} is not true or false`);
    return o[k] as boolean;
  }
  hash(o: Record<string, unknown>, k: string): string {
    const v = this.str(o, k, 64);
    if (!HEX64.test(v)) this.fail(`${k} is not a SHA-256 in hex`);
    return v;
  }
  arr(o: Record<string, unknown>, k: string): unknown[] {
    if (!Array.isArray(o[k])) this.fail(`${k} is not a list`);
    return o[k] as unknown[];
  }
}

/** Reads and checks manifest.json; every member it names is in `archive`, named once, with the size it says. */
export async function readManifest(archive: Archive): Promise<Manifest> {
  const entry = archive.entries.get(MANIFEST_MEMBER);
  if (!entry) throw new ArchiveRefusal("MANIFEST_INVALID", "the archive holds no manifest.json: it is not an account export", MANIFEST_MEMBER);
  if (entry.uncompressedSize > MANIFEST_MAX_BYTES)
    throw new ArchiveRefusal("ARCHIVE_TOO_LARGE", "manifest.json is larger than any export writes", MANIFEST_MEMBER);
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(await readAll(archive, MANIFEST_MEMBER, { size: entry.uncompressedSize })));
  } catch (err) {
    if (err instanceof ArchiveRefusal) throw err;
    throw new ArchiveRefusal("MANIFEST_INVALID", "manifest.json is not JSON", MANIFEST_MEMBER);
  }
  const top = new Shape("the manifest");
  const m = top.obj(raw);
  if (m.format !== "shelf-export" || m.version !== 1) top.fail("is not a shelf-export of version 1");
  const account = top.obj(m.account);
  const instance = top.obj(m.instance);
  const mediaUrl = top.str(instance, "mediaUrl", 2048);
  if (!/^https?:\/\/[^\s]+$/.test(mediaUrl)) top.fail("instance.mediaUrl is not an http(s) address");

  const kbs: Kb[] = top.arr(m, "kbs").map((v, i) => {
    const s = new Shape(`kbs[${i}]`);
    const k = s.obj(v);
    const id = s.str(k, "id", 64);
    if (!anyId.test(id)) s.fail("id is not an id");
    return { id, name: s.str(k, "name", 120), slug: s.str(k, "slug", 64), description: s.strOrNull(k, "description", 500), isDefault: k.isDefault === true };
  });
  const kbIds = new Set(kbs.map((k) => k.id));
  if (kbIds.size !== kbs.length) top.fail("lists a KB twice");

  const named = new Set<string>([MANIFEST_MEMBER]);
  const claim = (s: Shape, member: string, size: number) => {
    if (named.has(member)) s.fail(`names the member ${member}, which another entry names too`);
    named.add(member);
    const e = archive.entries.get(member);
    if (!e) throw new ArchiveRefusal("MANIFEST_INVALID", `the manifest names ${member}, which is not in the archive`, member);
    if (e.uncompressedSize !== size) {
      throw new ArchiveRefusal("ARCHIVE_SIZE_MISMATCH", `the manifest says ${member} holds ${size} bytes; the archive says ${e.uncompressedSize}`, member);
    }
  };
  const seen = new Set<string>();
  const items: Item[] = top.arr(m, "items").map((v, i) => {
    const s = new Shape(`items[${i}]`);
    const o = s.obj(v);
    const kind = s.str(o, "kind", 32) as ItemKind;
    if (!KINDS.has(kind)) s.fail(`kind ${kind} is not one an export writes`);
    const id = s.str(o, "id", 64);
    if (!(kind === "image" ? imageId : anyId).test(id)) s.fail("id is not an id");
    if (seen.has(`${kind}:${id}`)) s.fail("lists an item twice");
    seen.add(`${kind}:${id}`);
    const member = s.strOrNull(o, "member");
    const size = s.int(o, "size");
    const sha256 = member === null ? null : s.hash(o, "sha256");
    if (member !== null) claim(s, member, size);
    const tags = s.arr(o, "tags").map((t) => (typeof t === "string" ? t : s.fail("tags holds a non-string")));
    const fields = o.fields === undefined ? {} : s.obj(o.fields);
    let kb: Item["kb"];
    if (kind === "kb_document" || kind === "kb_file") {
      const k = s.obj(o.kb);
      kb = { id: s.str(k, "id", 64), slug: s.str(k, "slug", 64), path: s.str(k, "path", 4096) };
      if (!kbIds.has(kb.id)) s.fail("names a KB the manifest does not list");
    }
    const revisions: Revision[] = (o.revisions === undefined ? [] : s.arr(o, "revisions")).map((rv, j) => {
      const rs = new Shape(`items[${i}].revisions[${j}]`);
      const r = rs.obj(rv);
      const rev = {
        id: rs.str(r, "id", 64),
        member: rs.str(r, "member"),
        size: rs.int(r, "size"),
        sha256: rs.hash(r, "sha256"),
        revNumber: rs.int(r, "revNumber"),
        createdAt: rs.str(r, "createdAt", 64),
      };
      claim(rs, rev.member, rev.size);
      return rev;
    });
    return {
      id,
      kind,
      member,
      name: s.str(o, "name", 1024),
      size,
      sha256,
      tags,
      isPublic: s.bool(o, "isPublic"),
      createdAt: s.str(o, "createdAt", 64),
      fields,
      ...(kb ? { kb } : {}),
      revisions,
    };
  });
  return { account: { id: top.str(account, "id", 64) }, mediaUrl: mediaUrl.replace(/\/+$/, ""), kbs, items, collections: readCollections(top, m) };
}

/** A medium named by kind and id, as a collection names its items and cover. */
function mediaRef(s: Shape, v: unknown, what: string): { kind: MediaKind; id: string } {
  const o = s.obj(v);
  const kind = s.str(o, "kind", 32);
  if (!MEDIA_KINDS.has(kind)) s.fail(`${what} is not an image, a video or an audio file`);
  const id = s.str(o, "id", 64);
  if (!(kind === "image" ? imageId : anyId).test(id)) s.fail(`${what} has an id that is no id`);
  return { kind: kind as MediaKind, id };
}

/** The collections (absent from archives written before exports held them: none). Their limits are the plan's to check. */
function readCollections(top: Shape, m: Record<string, unknown>): CollectionEntry[] {
  if (m.collections === undefined) return [];
  const ids = new Set<string>();
  return top.arr(m, "collections").map((v, i) => {
    const s = new Shape(`collections[${i}]`);
    const c = s.obj(v);
    const id = s.str(c, "id", 64);
    if (!anyId.test(id)) s.fail("id is not an id");
    if (ids.has(id)) s.fail("lists a collection twice");
    ids.add(id);
    const seen = new Set<string>();
    const items = s.arr(c, "items").map((r, j) => {
      const ref = mediaRef(s, r, `items[${j}]`);
      if (seen.has(`${ref.kind}:${ref.id}`)) s.fail(`names ${ref.kind} ${ref.id} twice`);
      seen.add(`${ref.kind}:${ref.id}`);
      return ref;
    });
    return {
      id,
      title: s.str(c, "title", 4096),
      description: s.strOrNull(c, "description", 4096),
      cover: c.cover === null || c.cover === undefined ? null : mediaRef(s, c.cover, "cover"),
      createdAt: s.str(c, "createdAt", 64),
      items,
    };
  });
}
