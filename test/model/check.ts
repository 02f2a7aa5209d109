// After every step: the server's whole manifest is the model's, and no content it ever took
// is lost: each is master, a revision or a pending (or adopted) branch of its document, or
// was explicitly deleted (its document deleted by a client that saw it, its branch discarded).
import { pendingBranches } from "./branches.ts";
import { byStamp, type KbModel, sha256 } from "./model.ts";
import { manifest, raw, revisionContent, revisions, type Wire } from "./wire.ts";

export interface CheckOptions {
  v2: boolean;
  branches: boolean;
  /** Every document's history, not only those the step touched. */
  all: boolean;
}

/** The differences between the server and the model (empty when they agree). */
export async function differences(w: Wire, m: KbModel, o: CheckOptions): Promise<string[]> {
  const problems: string[] = [];
  const full = await manifest(w, o.v2 ? 2 : 1, { limit: 1000 });
  if (o.v2) {
    for (const e of full.items) {
      const doc = m.at(e.relativePath);
      if (doc?.placeholder && e.docId) m.learnId(doc, e.docId);
      if (doc?.id !== e.docId) problems.push(`manifest v2: ${e.relativePath} has the id ${e.docId}, the model's is ${doc?.id}`);
      if (o.branches && doc && e.hasPendingBranches !== m.pendingOf(doc.id).length > 0) {
        problems.push(`manifest v2: ${e.relativePath} hasPendingBranches ${e.hasPendingBranches}, the model has ${m.pendingOf(doc.id).length}`);
      }
    }
  }
  const items = byStamp(full.items);
  const want = m.manifest();
  if (JSON.stringify(items) !== JSON.stringify(want)) problems.push(`manifest: server ${JSON.stringify(full.items)}, model ${JSON.stringify(want)}`);

  let pending = new Map<string, { docId: string; sourceHash: string }>();
  if (o.branches) {
    pending = await pendingBranches(w);
    const modelPending = [...m.branches.values()].filter((b) => b.status === "pending");
    const server = [...pending].map(([id, b]) => `${id}:${b.docId}:${b.sourceHash}`).sort();
    const model = modelPending.map((b) => `${b.id}:${b.docId}:${b.hash}`).sort();
    if (JSON.stringify(server) !== JSON.stringify(model)) problems.push(`pending branches: server ${server}, model ${model}`);
  }

  const docs = o.all ? [...m.docs.keys()] : [...m.touched];
  m.touched.clear();
  for (const docId of docs) {
    const doc = m.docs.get(docId);
    const needed = m.kept.filter((k) => k.docId === docId && !k.gone);
    if (!needed.length) continue;
    const found = new Set<string>();
    if (doc && !doc.deletedAt) {
      found.add(doc.hash);
      for (const r of await revisions(w, docId)) {
        // At the end of a run the texts themselves, not only the hashes listed for them.
        if (o.all && sha256(await revisionContent(w, docId, r.id)) !== r.sourceHash) problems.push(`revision ${r.id} of ${docId}: its text is not its hash's`);
        found.add(r.sourceHash);
      }
      if (o.all) {
        const master = await raw(w, doc.path);
        if (master.content !== doc.content || master.sourceHash !== doc.hash) problems.push(`master of ${doc.path}: the server's text is not the model's`);
      }
    }
    for (const k of needed) {
      const branch = k.branchId ? m.branches.get(k.branchId) : undefined;
      if (branch?.status === "pending") {
        if (pending.get(branch.id)?.sourceHash !== k.hash) problems.push(`lost: pending branch ${branch.id} of ${docId} (${k.hash})`);
      } else if (!found.has(k.hash)) {
        problems.push(`lost: ${k.hash} of ${docId}${k.branchId ? ` (from branch ${k.branchId})` : ""} is neither master, a revision nor a branch`);
      }
    }
  }
  return problems;
}
