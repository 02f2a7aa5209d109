// Simulated sync clients: each has local files and the master versions it last saw, edits
// its files, pulls (manifest v1 or v2, full or incremental, tombstones) and pushes (v1 or
// v2, default or preserve_both). Every answer is checked against the model before the
// client or the model takes it in (World.fail names the step).
import { BRANCHES_PER_DOC, BRANCHES_PER_USER, type KbModel, type Mode, type Op, type Outcome, pathKey, sha256, type Version } from "./model.ts";
import { expectOp, STALE } from "./rules.ts";
import { pull } from "./pull.ts";
import { push, type Wire } from "./wire.ts";

/** What the fuzz test shares with the clients: the server, the model, and what the server can do yet. */
export interface World {
  wire: Wire;
  model: KbModel;
  v2: boolean;
  /** preserve_both and the conflicts endpoints are there. */
  branches: boolean;
  /** The app's clock, and the plan's tombstone retention. */
  now(): number;
  retentionDays: number;
  /** Outcomes seen, by protocol and kind (printed: a run that never conflicts checks little). */
  seen: Map<string, number>;
  fail(message: string): never;
}

/** The master version a client's file was based on when it last saw it. */
export interface Known {
  docId?: string;
  hash: string;
  updatedAt: string;
  /** Seen deleted while the local file had changes: a push recreates it with the delete as base. */
  deleted?: boolean;
}

/** One local change to push: its ops (one per path) and what the client learns from their outcomes. */
interface Change {
  ops: Op[];
  take(outcomes: Outcome[]): void;
}

export interface PushChoice {
  version: Version;
  mode: Mode;
  /** Bit i set: the i-th pending change goes in this push (none set: the first). */
  pick: number;
  /** v2: add a tombstone_ack. */
  ack: boolean;
  /** v2: send baseHash beside baseUpdatedAt. */
  baseHash: boolean;
  /** v2: an edit of a document whose id is known goes as `update` (else `upsert` by path). */
  byId: boolean;
  /** v2: a move within a folder of a document whose id is known goes as `rename`. */
  rename: boolean;
  /** Send a wrong sourceHash on the first upsert or update (LOCAL_HASH_MISMATCH). */
  badHash: boolean;
}

export interface PullChoice {
  version: Version;
  full: boolean;
  /** A changed local file takes the remote version as its new base (keeping its own text). */
  rebase: boolean;
  limit: number;
  tombstones: boolean;
  /** v2: send the ETag of the last answer to the same question (If-None-Match). */
  conditional: boolean;
}

export class SimClient {
  /** Local path -> text. */
  readonly files = new Map<string, string>();
  /** Local path -> the server path it was renamed from, until a push tells the server. */
  readonly origin = new Map<string, string>();
  /** Server path -> the master version last seen there. */
  readonly known = new Map<string, Known>();
  /** The tombstones the client's pulls listed. */
  readonly tombstonesSeen: { docId: string; relativePath: string }[] = [];
  /** The last pull's `since` for each protocol, and the model's last stamp at that pull. */
  since: { v1?: string; v2?: string; at?: string } = {};
  /** The ETag of the last v2 answer to each question, and what it stood for in the model. */
  readonly etags = new Map<string, { etag: string; state: string }>();

  constructor(
    readonly name: string,
    readonly world: World,
  ) {}

  count(tag: string): void {
    this.world.seen.set(tag, (this.world.seen.get(tag) ?? 0) + 1);
  }

  serverPath = (local: string) => this.origin.get(local) ?? local;
  localAt = (sp: string) => [...this.files.keys()].find((f) => this.serverPath(f) === sp);
  private isOrigin = (p: string) => [...this.origin.values()].includes(p);

  create(path: string, text: string): boolean {
    if (this.files.has(path) || this.isOrigin(path)) return false;
    this.files.set(path, text);
    return true;
  }

  edit(local: string, text: string): boolean {
    if (!this.files.has(local)) return false;
    this.files.set(local, text);
    return true;
  }

  move(local: string, to: string): boolean {
    if (!this.files.has(local) || this.files.has(to) || this.known.has(to) || this.isOrigin(to)) return false;
    const text = this.files.get(local)!;
    const from = this.serverPath(local);
    this.files.delete(local);
    this.origin.delete(local);
    this.files.set(to, text);
    if (from !== to) this.origin.set(to, from);
    return true;
  }

  /** Reads the manifest, checks it against the model, and brings the local files up to it. */
  async pull(c: PullChoice): Promise<void> {
    await pull(this, c);
  }

  remove(local: string): boolean {
    if (!this.files.delete(local)) return false;
    this.origin.delete(local);
    return true;
  }

  /** The local changes, one Change each, in a stable order. */
  private changes(c: PushChoice): Change[] {
    const v2 = c.version === 2 && this.world.v2;
    // A rename whose source the server no longer has is a new file.
    for (const [f, sp] of this.origin) if (!this.known.get(sp) || this.known.get(sp)!.deleted) this.origin.delete(f);
    const out: Change[] = [];
    const baseOf = (k: Known) => ({ baseUpdatedAt: k.updatedAt, ...(v2 && c.baseHash && !k.deleted && { baseHash: k.hash }) });
    const learn = (path: string) => (o: Outcome) => {
      if (o.kind === "applied") this.known.set(path, { docId: o.docId, hash: o.sourceHash!, updatedAt: o.updatedAt! });
      // The text is kept beside master; the client now knows master and may push over it.
      if (o.kind === "branch" && o.currentMasterHash && o.currentMasterUpdatedAt) {
        this.known.set(path, { docId: o.docId, hash: o.currentMasterHash, updatedAt: o.currentMasterUpdatedAt });
      } else if (o.kind === "branch") {
        // Kept beside a deleted master: the client now knows of the delete.
        const k = this.known.get(path);
        if (k && o.currentMasterUpdatedAt) this.known.set(path, { ...k, updatedAt: o.currentMasterUpdatedAt, deleted: true });
        else this.known.delete(path);
      }
    };
    const write = (f: string, k: Known | undefined, text: string): Op => {
      if (v2 && c.byId && k?.docId && !k.deleted)
        return { op: "update", docId: k.docId, relativePath: f, content: text, sourceHash: sha256(text), ...baseOf(k) };
      return { op: "upsert", relativePath: f, content: text, sourceHash: sha256(text), ...(k && baseOf(k)) };
    };
    for (const [f, text] of [...this.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const sp = this.serverPath(f);
      const k = this.known.get(sp);
      if (sp === f) {
        if (k && !k.deleted && k.hash === sha256(text)) continue;
        out.push({ ops: [write(f, k, text)], take: ([o]) => learn(f)(o!) });
        continue;
      }
      const kk = k!;
      if (v2) {
        const folder = (p: string) => p.slice(0, p.lastIndexOf("/") + 1);
        const ops: Op[] = [
          c.rename && kk.docId && folder(sp) === folder(f)
            ? { op: "rename", docId: kk.docId, newName: f.slice(folder(f).length), sourceHash: kk.hash, baseUpdatedAt: kk.updatedAt }
            : { op: "move", fromPath: sp, toPath: f, sourceHash: kk.hash, baseUpdatedAt: kk.updatedAt },
        ];
        // Text changed too: an update after the move, on the hash (the move gave a new stamp).
        if (kk.hash !== sha256(text) && kk.docId)
          ops.push({ op: "update", docId: kk.docId, relativePath: f, content: text, sourceHash: sha256(text), baseHash: kk.hash });
        out.push({
          ops,
          take: ([moved, updated]) => {
            if (moved!.kind === "applied") {
              this.known.delete(sp);
              this.known.set(f, { ...kk, docId: moved!.docId, updatedAt: moved!.updatedAt! });
              this.origin.delete(f);
            } else if (
              (moved!.kind === "conflict" && (moved!.reason === "MOVE_SOURCE_MISSING" || moved!.reason === "MOVE_TARGET_EXISTS")) ||
              (moved!.kind === "skipped" && moved!.reason === "NOT_FOUND")
            ) {
              this.origin.delete(f); // give the rename up: a delete there and a new file here
            }
            if (updated) learn(f)(updated);
          },
        });
      } else {
        // v1 has no move: a delete of the old path and a new file at the new one.
        out.push({
          ops: [
            { op: "delete", relativePath: sp, ...baseOf(kk) },
            { op: "upsert", relativePath: f, content: text, sourceHash: sha256(text) },
          ],
          take: ([gone, made]) => {
            if (gone!.kind === "applied" || gone!.kind === "skipped") this.known.delete(sp);
            if (made!.kind === "applied") {
              learn(f)(made!);
              this.origin.delete(f);
            }
          },
        });
      }
    }
    for (const [sp, k] of [...this.known].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (this.localAt(sp) !== undefined || this.isOrigin(sp)) continue;
      if (k.deleted) {
        this.known.delete(sp);
        continue;
      }
      out.push({
        ops: [{ op: "delete", relativePath: sp, ...baseOf(k) }],
        take: ([o]) => {
          if (o!.kind === "applied" || o!.kind === "skipped") this.known.delete(sp);
        },
      });
    }
    return out;
  }

  /** Whether the batch's ops could open a branch past the per-document limit. */
  private atBranchLimit(ops: Op[]): boolean {
    const m = this.world.model;
    const docs = ops.flatMap((op) => (op.op === "upsert" || op.op === "update" ? [m.target(op)?.id] : [])).filter((id) => id !== undefined);
    return docs.some((id) => m.pendingOf(id).length + docs.filter((d) => d === id).length > BRANCHES_PER_DOC);
  }

  /** Whether the ops could open more branches than the user may still have pending (a long run gets there). */
  private atUserBranchLimit(ops: Op[]): boolean {
    const writes = ops.filter((op) => op.op === "upsert" || op.op === "update").length;
    return writes > 0 && this.world.model.pendingCount() + writes > BRANCHES_PER_USER;
  }

  /** Pushes the picked changes; checks every outcome against the model. False when there was nothing to push. */
  async push(c: PushChoice): Promise<boolean> {
    const version: Version = c.version === 2 && this.world.v2 ? 2 : 1;
    const mode: Mode = version === 2 && this.world.branches ? c.mode : "default";
    const all = this.changes(c);
    if (!all.length) return false;
    let picked = all.filter((_, i) => (c.pick >> i) & 1);
    if (!picked.length) picked = [all[0]!];
    if (version === 1) {
      // One op per path in a v1 batch: its answer is matched to the ops by path.
      const seen = new Set<string>();
      picked = picked.filter((ch) => {
        const paths = [...new Set(ch.ops.map((op) => pathKey((op as { relativePath: string }).relativePath)))];
        if (paths.some((p) => seen.has(p))) return false;
        for (const p of paths) seen.add(p);
        return true;
      });
    }
    const ops = picked.flatMap((ch) => ch.ops);
    // A tombstone the client took in, confirmed (or one of no document: NOT_FOUND).
    const t = this.tombstonesSeen[c.pick % Math.max(this.tombstonesSeen.length, 1)];
    if (version === 2 && c.ack)
      ops.push({ op: "tombstone_ack", docId: t?.docId ?? "x".repeat(21), ...(t && c.pick % 2 === 0 && { relativePath: t.relativePath }) });
    if (c.badHash) {
      const first = ops.find((op) => op.op === "upsert" || op.op === "update") as { sourceHash?: string; content: string } | undefined;
      if (first) first.sourceHash = sha256(`${first.content}.`);
    }
    const m = this.world.model;
    const answer = await push(this.world.wire, version, mode, ops);
    if (!answer.outcomes) {
      // A branch limit refuses the whole request (nothing written: the check after the step sees that).
      if (answer.status === 422 && answer.code === "CONFLICT_BRANCH_LIMIT_PER_DOC" && mode === "preserve_both" && this.atBranchLimit(ops)) {
        this.count("v2 push CONFLICT_BRANCH_LIMIT_PER_DOC");
        return true;
      }
      if (answer.status === 422 && answer.code === "CONFLICT_BRANCH_LIMIT_PER_USER" && mode === "preserve_both" && this.atUserBranchLimit(ops)) {
        this.count("v2 push CONFLICT_BRANCH_LIMIT_PER_USER");
        return true;
      }
      this.world.fail(`push ${JSON.stringify(ops)} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    let stale = false;
    let loose = false;
    for (const [i, op] of ops.entries()) {
      const e = expectOp(m, op, version, mode);
      const o = answer.outcomes[i]!;
      m.apply(op, e, o);
      this.count(`v${version} ${op.op} ${o.kind === "applied" ? "applied" : o.kind === "branch" ? "branch" : o.reason}`);
      if (o.kind === "conflict" && STALE.includes(o.reason)) {
        if (mode === "default") stale = true;
        else loose = true; // a stale delete or move has no text to keep: the spec gives no status for it
      }
      if (version === 2 && o.kind === "conflict" && !STALE.includes(o.reason)) loose = true;
    }
    if (version === 2 && !loose) {
      const want = stale ? 409 : 200;
      if (answer.status !== want)
        this.world.fail(`push of ${ops.length} ops answered ${answer.status}, the model expects ${want}: ${JSON.stringify(answer.body)}`);
    }
    if (version === 1 && answer.status !== 200) this.world.fail(`v1 push answered ${answer.status}`);
    let at = 0;
    for (const ch of picked) {
      ch.take(answer.outcomes.slice(at, at + ch.ops.length));
      at += ch.ops.length;
    }
    return true;
  }
}
