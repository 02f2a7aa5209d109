// A simulated client's pull: the manifest (v1 or v2; whole, since an instant or a
// sinceCursor; with tombstones; conditional), checked against the model, then taken into
// the client's files: a clean file follows master, a changed one keeps its text (and, with
// `rebase`, takes master's version as its base).
import type { Known, PullChoice, SimClient } from "./clients.ts";
import { byStamp, sha256, type Version } from "./model.ts";
import { type ManifestEntry, manifest, type Pulled, raw, type TombstoneEntry } from "./wire.ts";

/** Reads the manifest (and what changed), checks it against the model, and brings the local files up to it. */
export async function pull(cl: SimClient, c: PullChoice): Promise<void> {
  const version: Version = c.version === 2 && cl.world.v2 ? 2 : 1;
  const m = cl.world.model;
  const sinceParam = c.full ? undefined : version === 2 ? cl.since.v2 : cl.since.v1;
  const sinceAt = sinceParam === undefined ? undefined : cl.since.at;
  const tombstones = version === 2 && c.tombstones;
  const query = `${version}|${sinceParam ?? ""}|${c.limit}|${tombstones}`;
  const prior = version === 2 && c.conditional ? cl.etags.get(query) : undefined;
  const got = await manifest(cl.world.wire, version, { since: sinceParam, limit: c.limit, tombstones, ifNoneMatch: prior?.etag });
  const what = `manifest v${version} since ${sinceParam} (${sinceAt})${tombstones ? " with tombstones" : ""}`;

  // A since older than the plan's tombstone retention (docs/sync.md): 200 and no items, or
  // 410 when tombstones were asked for; the client reads it all again.
  const expired = version === 2 && sinceAt !== undefined && Date.parse(sinceAt) < cl.world.now() - cl.world.retentionDays * 86_400_000;
  if (expired) {
    const ok = tombstones ? got.status === 410 && got.code === "TOMBSTONE_CURSOR_EXPIRED" : got.status === 200 && got.expired && !got.items.length;
    if (!ok || (!tombstones && got.retentionDays !== cl.world.retentionDays)) cl.world.fail(`${what}: not answered as expired (${got.status} ${got.code})`);
    cl.count(`v2 pull expired ${got.status}`);
    return await pull(cl, { ...c, full: true, conditional: false });
  }
  if (got.status === 304) {
    if (!prior || prior.state !== m.etagState()) cl.world.fail(`${what}: 304 though the KB changed`);
    cl.count("v2 pull 304");
    return;
  }
  if (got.status !== 200 || got.expired) cl.world.fail(`${what} answered ${got.status} ${got.code}${got.expired ? " expired" : ""}`);
  if (prior && prior.state === m.etagState()) cl.world.fail(`${what}: 200 to If-None-Match ${prior.etag} though nothing changed`);
  cl.count(`v${version} pull ${sinceParam === undefined ? "full" : "since"}${prior ? " conditional 200" : ""}`);
  if (version === 2 && got.etag) cl.etags.set(query, { etag: got.etag, state: m.etagState() });
  checkPulled(cl, got, version, sinceAt, tombstones);

  const byId = new Map(got.items.filter((e) => e.docId).map((e) => [e.docId!, e]));
  for (const e of got.items) await take(cl, e, c.rebase);
  cl.tombstonesSeen.push(...got.tombstones);
  for (const t of got.tombstones) {
    // A tombstone of a document that lives on at another path is the old path of a move.
    if (!byId.has(t.docId) || byId.get(t.docId)!.deletedAt) gone(cl, t.relativePath, t, c.rebase);
  }
  if (c.full) {
    const listed = new Set(got.items.map((e) => e.relativePath));
    for (const sp of [...cl.known.keys()]) if (!listed.has(sp)) gone(cl, sp, undefined, c.rebase);
  }
  cl.since = { v1: got.serverTime, v2: version === 2 ? got.sinceCursor : got.serverTime, at: got.serverTime };
}

function checkPulled(cl: SimClient, got: Pulled, version: Version, sinceAt: string | undefined, tombstones: boolean): void {
  const m = cl.world.model;
  const want = m.manifest(sinceAt);
  const items = byStamp(got.items);
  if (JSON.stringify(items) !== JSON.stringify(want)) {
    cl.world.fail(`manifest v${version} since ${sinceAt}: got ${JSON.stringify(items)}, the model has ${JSON.stringify(want)}`);
  }
  if (version === 2) {
    for (const e of got.items) {
      const doc = m.at(e.relativePath);
      if (doc?.placeholder && e.docId) m.learnId(doc, e.docId);
      if (doc?.id !== e.docId) cl.world.fail(`manifest v2 gives ${e.relativePath} the id ${e.docId}, the model ${m.at(e.relativePath)?.id}`);
      if (cl.world.branches && doc && e.hasPendingBranches !== m.pendingOf(doc.id).length > 0) {
        cl.world.fail(`manifest v2 says ${e.relativePath} has pending branches: ${e.hasPendingBranches}, the model has ${m.pendingOf(doc.id).length}`);
      }
    }
  }
  if (tombstones) {
    const order = (ts: TombstoneEntry[]) => JSON.stringify([...ts].sort((a, b) => (a.deletedAt + a.docId < b.deletedAt + b.docId ? -1 : 1)));
    const wantTs = m.tombstonesSince(sinceAt).map((t) => ({ docId: t.docId, relativePath: t.relativePath, sourceHash: t.sourceHash, deletedAt: t.deletedAt }));
    const gotTs = got.tombstones.map((t) => ({ docId: t.docId, relativePath: t.relativePath, sourceHash: t.sourceHash, deletedAt: t.deletedAt }));
    // Without since the manifest is the whole state: the spec ("tombstones since the
    // cursor") does not say whether any come with it; those that do must be real.
    const fits = sinceAt === undefined ? gotTs.every((t) => wantTs.some((w) => JSON.stringify(w) === JSON.stringify(t))) : order(gotTs) === order(wantTs);
    if (!fits) cl.world.fail(`tombstones since ${sinceAt}: got ${order(gotTs)}, the model has ${order(wantTs)}`);
  }
  const last = m.lastStamp();
  if (last && got.serverTime && Date.parse(got.serverTime) < Date.parse(last)) cl.world.fail(`serverTime ${got.serverTime} is before the last change ${last}`);
}

/** The text at a path, checked against the model. */
async function fetch(cl: SimClient, sp: string, e: ManifestEntry): Promise<string> {
  const r = await raw(cl.world.wire, sp);
  const doc = cl.world.model.at(sp);
  if (r.status !== 200 || r.sourceHash !== e.sourceHash || r.updatedAt !== e.updatedAt || r.content !== doc?.content) {
    cl.world.fail(`raw ${sp}: ${r.status} ${r.sourceHash} ${r.updatedAt}, the manifest said ${e.sourceHash} ${e.updatedAt}`);
  }
  return r.content;
}

async function take(cl: SimClient, e: ManifestEntry, rebase: boolean): Promise<void> {
  const sp = e.relativePath;
  if (e.deletedAt) return gone(cl, sp, e, rebase);
  const entry: Known = { docId: e.docId, hash: e.sourceHash!, updatedAt: e.updatedAt! };
  // A document this client knows at another path was moved there.
  const movedFrom = e.docId ? [...cl.known].find(([p, k]) => k.docId === e.docId && p !== sp)?.[0] : undefined;
  if (movedFrom !== undefined && !cl.known.has(sp) && !cl.files.has(sp) && cl.files.has(movedFrom) && !cl.origin.has(movedFrom)) {
    const k = cl.known.get(movedFrom)!;
    if (k.hash === sha256(cl.files.get(movedFrom)!)) {
      cl.files.delete(movedFrom);
      cl.known.delete(movedFrom);
      cl.files.set(sp, await fetch(cl, sp, e));
      cl.known.set(sp, entry);
      return;
    }
  }
  const k = cl.known.get(sp);
  if (k && !k.deleted && k.hash === e.sourceHash) {
    cl.known.set(sp, { ...entry, docId: e.docId ?? k.docId });
    return;
  }
  const local = cl.localAt(sp);
  if (local === undefined) {
    if (!k && !cl.files.has(sp)) {
      cl.files.set(sp, await fetch(cl, sp, e));
      cl.known.set(sp, entry);
    } else if (k && rebase) cl.known.set(sp, entry);
    return;
  }
  const clean = k && !k.deleted && sha256(cl.files.get(local)!) === k.hash;
  if (clean) {
    cl.files.set(local, await fetch(cl, sp, e));
    cl.known.set(sp, entry);
  } else if (rebase) cl.known.set(sp, entry);
}

/** The server has nothing active at `sp` any more (deleted, or moved away). */
function gone(cl: SimClient, sp: string, e: { deletedAt: string | null } | undefined, rebase: boolean): void {
  const k = cl.known.get(sp);
  if (!k || k.deleted) return;
  const local = cl.localAt(sp);
  if (local === undefined || sha256(cl.files.get(local)!) === k.hash) {
    if (local !== undefined) cl.remove(local);
    cl.known.delete(sp);
  } else if (rebase) {
    if (e?.deletedAt) cl.known.set(sp, { ...k, updatedAt: e.deletedAt, deleted: true });
    else cl.known.delete(sp);
  }
}
