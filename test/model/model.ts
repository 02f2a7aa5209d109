// A reference model of KB sync (docs/sync.md; docs/decisions/sync.md, "Sync v2"): what
// the server holds for one KB and what each op must do to it, for v1 and v2, in default
// mode and with preserve_both. The model never invents a server value it cannot know (ids,
// stamps): those it takes from the server's answer once the answer has been checked
// against what the model expected. Pure: no I/O here.
import { sha256 } from "../kbs/fixtures.ts";
import type { Expected } from "./rules.ts";

export { sha256 };

/** One path per KB whatever its letter case (docs/decisions/sync.md, "Letter case in sync"). */
export const pathKey = (path: string) => path.normalize("NFC").toLowerCase();
/** Paths are stored NFC-normalized (the one relative-path rule). */
export const nfc = (path: string) => path.normalize("NFC");
export const ms = (iso: string) => Date.parse(iso);
const utf8Length = (text: string) => new TextEncoder().encode(text).length;

export interface MDoc {
  id: string;
  path: string;
  content: string;
  hash: string;
  /** The server's last stamp of this row: its updatedAt, or its deletedAt once deleted. */
  stamp: string;
  deletedAt: string | null;
  /** The deleted row a move leaves at its fromPath, until the server names its id. */
  placeholder?: boolean;
}

export interface MTombstone {
  docId: string;
  relativePath: string;
  sourceHash: string;
  deletedAt: string;
}

export interface MBranch {
  id: string;
  docId: string;
  hash: string;
  content: string;
  status: "pending" | "adopted" | "discarded";
}

/** Content the server took (applied, or kept as a branch): it must stay findable until explicitly deleted. */
export interface Kept {
  docId: string;
  hash: string;
  branchId?: string;
  /** Explicitly deleted: its document deleted by a client that saw it, or its branch discarded. */
  gone: boolean;
}

export type Version = 1 | 2;
export type Mode = "default" | "preserve_both";

export type Op =
  | { op: "upsert"; relativePath: string; content: string; sourceHash?: string; baseUpdatedAt?: string; baseHash?: string }
  | { op: "update"; docId: string; relativePath: string; content: string; sourceHash: string; baseUpdatedAt?: string; baseHash?: string }
  | { op: "delete"; relativePath: string; baseUpdatedAt?: string; baseHash?: string }
  | { op: "move"; fromPath: string; toPath: string; baseUpdatedAt?: string; baseHash?: string; sourceHash: string }
  | { op: "rename"; docId: string; newName: string; baseUpdatedAt?: string; baseHash?: string; sourceHash: string }
  | { op: "tombstone_ack"; docId: string; relativePath?: string };

type Move = Extract<Op, { op: "move" }>;

/** A rename is a move within its document's folder (docs/sync.md): the move it is, once its document is known. */
export function asMove(op: Extract<Op, { op: "rename" }>, row: MDoc): Move {
  const { op: _, docId: __, newName, ...rest } = op;
  return { op: "move", fromPath: row.path, toPath: row.path.slice(0, row.path.lastIndexOf("/") + 1) + newName, ...rest };
}

/** One op's outcome as the server answered it, whatever the wire format. */
export type Outcome =
  | { kind: "applied"; docId: string; updatedAt?: string; sourceHash?: string | null; relativePath?: string; fromPath?: string; tombstones?: number }
  | { kind: "conflict"; reason: string; currentMasterHash?: string | null; currentMasterUpdatedAt?: string | null }
  | { kind: "branch"; branchId: string; docId: string; currentMasterHash: string | null; currentMasterUpdatedAt: string | null }
  | { kind: "skipped"; reason: string };

export class ModelError extends Error {}

/** Pending branches a document may have (the plan's limit). */
export const BRANCHES_PER_DOC = 5;
/** Pending branches a user may have, over all their KBs (the model's user has this one). */
export const BRANCHES_PER_USER = 100;

export class KbModel {
  readonly docs = new Map<string, MDoc>();
  /** pathKey -> id of the row at that path (active or soft-deleted). */
  readonly byKey = new Map<string, string>();
  readonly tombstones: MTombstone[] = [];
  readonly branches = new Map<string, MBranch>();
  readonly kept: Kept[] = [];
  /** Documents whose master, revisions or branches changed since the last check. */
  readonly touched = new Set<string>();
  private lefts = 0;
  /** Counts every change of master (each moves the KB's high-water mark). */
  changes = 0;

  at(path: string): MDoc | undefined {
    const id = this.byKey.get(pathKey(path));
    return id ? this.docs.get(id) : undefined;
  }

  active(): MDoc[] {
    return [...this.docs.values()].filter((d) => !d.deletedAt);
  }

  /** How many branches are pending, over every document. */
  pendingCount(): number {
    let n = 0;
    for (const b of this.branches.values()) if (b.status === "pending") n++;
    return n;
  }

  pendingOf(docId: string): MBranch[] {
    return [...this.branches.values()].filter((b) => b.docId === docId && b.status === "pending");
  }

  /** The row an op addresses: an update by its document, the others by path. */
  target(op: Op): MDoc | undefined {
    if (op.op === "update" || op.op === "rename" || op.op === "tombstone_ack") return this.docs.get(op.docId);
    return this.at(op.op === "move" ? op.fromPath : op.relativePath);
  }

  /**
   * Checks the server's outcome against what the model allowed (rules.ts expectOp, before the op),
   * then applies it. Throws a ModelError naming the difference.
   */
  apply(op: Op, e: Expected, out: Outcome): void {
    if (op.op === "rename") {
      const doc = this.target(op);
      if (doc) {
        this.apply(asMove(op, doc), e, out);
        return;
      }
      if (out.kind === "skipped" && e.skips.includes(out.reason)) return;
      throw new ModelError(`${JSON.stringify(op)}: the KB has no document of this id; the server answered ${JSON.stringify(out)}`);
    }
    let row = this.target(op);
    if (row?.placeholder && out.kind === "applied") row = this.learnId(row, out.docId);
    const fail: (why: string) => never = (why) => {
      throw new ModelError(`${JSON.stringify(opBrief(op))}: ${why}; the model allowed ${JSON.stringify(e)}, the server answered ${JSON.stringify(out)}`);
    };
    if (out.kind === "skipped") {
      if (!e.skips.includes(out.reason)) fail("skipped");
      return;
    }
    if (out.kind === "conflict") {
      if (!e.conflicts.includes(out.reason)) fail(`conflict ${out.reason}`);
      if (e.branch === "must") fail("a conflict where preserve_both keeps a branch");
      // The master a refusal reports: the document at toPath when that is the obstacle.
      const master = out.reason === "MOVE_TARGET_EXISTS" && op.op === "move" ? this.at(op.toPath) : row;
      // What a refusal reports of master (v1: its `remote`): its hash and version, or for a
      // deleted master no hash (and its deletedAt, or null, as the version).
      if (master && out.currentMasterHash !== undefined) {
        const hash = master.deletedAt ? null : master.hash;
        const at: (string | null)[] = master.deletedAt ? [null, master.deletedAt] : [master.stamp];
        if (out.currentMasterHash !== hash || !at.includes(out.currentMasterUpdatedAt ?? null)) fail("the conflict reports another master");
      }
      return;
    }
    if (out.kind === "branch") {
      if (!e.branch || !row) fail("a branch");
      if (out.docId !== row.id) fail("a branch of another document");
      const masterHash = row.deletedAt ? null : row.hash;
      if (out.currentMasterHash !== masterHash) fail("currentMasterHash is not master's");
      if (![row.deletedAt ? null : row.stamp, row.deletedAt].includes(out.currentMasterUpdatedAt)) fail("currentMasterUpdatedAt is not master's");
      if (this.branches.has(out.branchId)) fail("a branch id given twice");
      if (this.pendingOf(row.id).length >= BRANCHES_PER_DOC) fail(`a pending branch past the ${BRANCHES_PER_DOC} of a document`);
      const content = (op as { content: string }).content;
      this.branches.set(out.branchId, { id: out.branchId, docId: row.id, hash: sha256(content), content, status: "pending" });
      this.kept.push({ docId: row.id, hash: sha256(content), branchId: out.branchId, gone: false });
      this.touched.add(row.id);
      return;
    }
    if (!e.applied) fail("applied");
    if (op.op === "tombstone_ack") {
      // An ack records; it changes nothing a manifest shows (analytics, not correctness).
      if (out.docId !== op.docId || out.tombstones !== this.tombstonesOf(op)) fail("the ack counts other tombstones");
      return;
    }
    const updatedAt = out.updatedAt ?? fail("no updatedAt");
    if (row && out.docId !== row.id) fail("applied to another document");
    if (row && !row.deletedAt && e.applied === "unchanged" && updatedAt !== row.stamp) fail("the same text moved updatedAt");
    if (row && e.applied !== "unchanged" && ms(updatedAt) <= ms(row.stamp)) fail("updatedAt did not move forward");

    if (op.op === "delete") {
      this.changes++;
      if (out.sourceHash !== null) fail("a deleted document reports a hash");
      this.remove(row!, updatedAt);
      return;
    }
    if (op.op === "move") {
      if (out.sourceHash !== row!.hash) fail("the moved document's hash changed");
      if (out.relativePath !== undefined && (out.relativePath !== nfc(op.toPath) || out.fromPath !== nfc(op.fromPath))) fail("the move reports other paths");
      this.changes++;
      this.touched.add(row!.id);
      // Another letter case of the same path is a rename in place: the path did not go away.
      if (pathKey(op.toPath) === pathKey(row!.path)) {
        Object.assign(row!, { path: nfc(op.toPath), stamp: updatedAt });
        return;
      }
      this.tombstones.push({ docId: row!.id, relativePath: row!.path, sourceHash: row!.hash, deletedAt: updatedAt });
      const over = this.at(op.toPath);
      if (over && over !== row) {
        // A soft-deleted row at toPath gives way; its pending branches (text pushed to that
        // path) go to the document that takes it.
        this.docs.delete(over.id);
        for (const b of this.branches.values()) if (b.docId === over.id && b.status === "pending") b.docId = row!.id;
        for (const k of this.kept) if (k.docId === over.id && k.branchId && !k.gone) k.docId = row!.id;
      }
      // The fromPath keeps a deleted row (its own id), so that a v1 manifest since an
      // instant shows the path went away: the spec is silent, the server does so.
      const left: MDoc = {
        id: `left-${++this.lefts}`,
        path: row!.path,
        content: "",
        hash: "",
        stamp: updatedAt,
        deletedAt: updatedAt,
        placeholder: true,
      };
      this.docs.set(left.id, left);
      this.byKey.set(pathKey(row!.path), left.id);
      this.byKey.set(pathKey(op.toPath), row!.id);
      row!.path = nfc(op.toPath);
      row!.stamp = updatedAt;
      this.touched.add(row!.id);
      return;
    }
    if (out.sourceHash !== sha256(op.content)) fail("the applied hash is not the content's");
    if (e.applied === "unchanged") return;
    this.changes++;
    const doc: MDoc = row ?? { id: out.docId, path: nfc(op.relativePath), content: "", hash: "", stamp: updatedAt, deletedAt: null };
    if (!row) {
      if (this.docs.has(out.docId)) fail("a new document under an id in use");
      this.docs.set(doc.id, doc);
      this.byKey.set(pathKey(op.relativePath), doc.id);
    }
    // A recreate takes the spelling the client sent.
    if (doc.deletedAt && op.op === "upsert") {
      this.byKey.set(pathKey(op.relativePath), doc.id);
      doc.path = nfc(op.relativePath);
    }
    Object.assign(doc, { content: op.content, hash: sha256(op.content), stamp: updatedAt, deletedAt: null });
    this.kept.push({ docId: doc.id, hash: doc.hash, gone: false });
    this.touched.add(doc.id);
  }

  /** The tombstones a tombstone_ack names: its document's in the KB (at its path, when it names one). */
  tombstonesOf(op: { docId: string; relativePath?: string }): number {
    return this.tombstones.filter((t) => t.docId === op.docId && (op.relativePath === undefined || t.relativePath === nfc(op.relativePath))).length;
  }

  /** A move's placeholder row takes the id the server gave it. */
  learnId(row: MDoc, id: string): MDoc {
    if (!row.placeholder) return row;
    this.docs.delete(row.id);
    row.id = id;
    row.placeholder = false;
    this.docs.set(id, row);
    this.byKey.set(pathKey(row.path), id);
    return row;
  }

  /** A document deleted by a client that saw its current version: its text and history go with it. */
  private remove(row: MDoc, at: string): void {
    this.tombstones.push({ docId: row.id, relativePath: row.path, sourceHash: row.hash, deletedAt: at });
    row.deletedAt = at;
    row.stamp = at;
    for (const k of this.kept) if (k.docId === row.id && !k.branchId) k.gone = true;
    this.touched.add(row.id);
  }

  /**
   * A pending branch adopted: it becomes master (the old master a revision; a deleted
   * master recreated at its path), at the stamp the server gave. A master that holds the
   * branch's text already only ends the branch.
   */
  adopt(branchId: string, updatedAt: string): string | undefined {
    const b = this.branches.get(branchId)!;
    const doc = this.docs.get(b.docId);
    if (!doc) return "the branch's document is gone";
    b.status = "adopted";
    this.touched.add(doc.id);
    // Adopted, the text is master's (also when master held it already): from here it goes
    // as master's does, a delete by a client that saw it included.
    for (const k of this.kept) if (k.branchId === branchId) k.branchId = undefined;
    if (!doc.deletedAt && doc.hash === b.hash) return updatedAt === doc.stamp ? undefined : "adopting the text master holds moved updatedAt";
    if (ms(updatedAt) <= ms(doc.stamp)) return "updatedAt did not move forward";
    this.changes++;
    Object.assign(doc, { content: b.content, hash: b.hash, stamp: updatedAt, deletedAt: null });
    this.kept.push({ docId: doc.id, hash: doc.hash, gone: false });
    return undefined;
  }

  discard(branchId: string): void {
    const b = this.branches.get(branchId)!;
    b.status = "discarded";
    for (const k of this.kept) if (k.branchId === branchId) k.gone = true;
    this.touched.add(b.docId);
  }

  /**
   * What a v2 manifest's ETag stands for: the KB's high-water mark (every change of master)
   * and which documents have pending branches (opening or resolving one moves no stamp).
   */
  etagState(): string {
    const pending = [...new Set([...this.branches.values()].filter((b) => b.status === "pending").map((b) => b.docId))].sort();
    return `${this.changes}|${pending.join(",")}`;
  }

  /**
   * Manifest entries, oldest change first; entries of one stamp (one batch) by
   * path, as `byStamp` puts the server's (their id order the model cannot know).
   */
  manifest(since?: string) {
    return [...this.docs.values()]
      .filter((d) => since === undefined || ms(d.stamp) > ms(since))
      .sort((a, b) => ms(a.stamp) - ms(b.stamp) || (a.path < b.path ? -1 : 1))
      .map((d) => ({
        relativePath: d.path,
        sourceHash: d.deletedAt ? null : d.hash,
        sizeBytes: d.deletedAt ? null : utf8Length(d.content),
        updatedAt: d.deletedAt ? null : d.stamp,
        deletedAt: d.deletedAt,
      }));
  }

  /**
   * The tombstones a manifest since `since` lists. One whose path holds an active document
   * changed after it is left out (the spec is silent; the server's choice, which a client
   * applying tombstones after entries needs): that document replaced what it says is gone.
   */
  tombstonesSince(since?: string): MTombstone[] {
    return this.tombstones.filter((t) => {
      const now = this.at(t.relativePath);
      if (now && !now.deletedAt && ms(now.stamp) > ms(t.deletedAt)) return false;
      return since === undefined || ms(t.deletedAt) > ms(since);
    });
  }

  /** The latest stamp the model knows of (the KB's, once any change was made). */
  lastStamp(): string | undefined {
    const all = [...[...this.docs.values()].map((d) => d.stamp), ...this.tombstones.map((t) => t.deletedAt)];
    return all.sort((a, b) => ms(a) - ms(b)).at(-1);
  }
}

type Entry = { relativePath: string; sourceHash: string | null; sizeBytes: number | null; updatedAt: string | null; deletedAt: string | null };

/**
 * A server's manifest entries in the model's order, with v1's fields only (v2's
 * docId and the like are checked on their own), or null when they are not in the
 * manifest's order (oldest change first).
 */
export function byStamp(entries: Entry[]): Entry[] | null {
  const at = (e: Entry) => ms((e.updatedAt ?? e.deletedAt)!);
  for (let i = 1; i < entries.length; i++) if (at(entries[i]!) < at(entries[i - 1]!)) return null;
  return [...entries]
    .sort((a, b) => at(a) - at(b) || (a.relativePath < b.relativePath ? -1 : 1))
    .map((e) => ({ relativePath: e.relativePath, sourceHash: e.sourceHash, sizeBytes: e.sizeBytes, updatedAt: e.updatedAt, deletedAt: e.deletedAt }));
}

/** An op without its text, for messages. */
function opBrief(op: Op): Record<string, unknown> {
  const { content, ...rest } = op as Op & { content?: string };
  return content === undefined ? rest : { ...rest, content: content.length > 40 ? `${content.slice(0, 40)}…` : content };
}
