// Conflict branches from the outside (docs/sync.md, "Conflict branches"; the list
// endpoint is the server's own, the spec names none): the pending ones the server lists,
// and a user resolving one (read it back, then accept or discard), checked against the model.
import { call, callJson } from "../helpers/context.ts";
import type { World } from "./clients.ts";
import type { Wire } from "./wire.ts";

/** The pending branches the server lists for the KB: branchId -> docId and hash. */
export async function pendingBranches(w: Wire): Promise<Map<string, { docId: string; sourceHash: string }>> {
  const out = new Map<string, { docId: string; sourceHash: string }>();
  let cursor: string | null = null;
  do {
    const q: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
    const res = await callJson("GET", `/v1/kbs/${w.kbId}/conflicts${q}`, { app: w.app, token: w.key });
    if (res.status !== 200) throw new Error(`GET conflicts answered ${res.status}: ${JSON.stringify(res.body)}`);
    const data = (res.body as any).data;
    for (const b of data.items) out.set(b.branchId, { docId: b.docId, sourceHash: b.sourceHash });
    cursor = data.nextCursor ?? null;
  } while (cursor);
  return out;
}

/**
 * Resolves the `pick`-th pending branch (by id): reads it back (its text must be what was
 * pushed), then accepts it (it becomes master) or discards it. False when none is pending.
 */
export async function resolve(world: World, pick: number, accept: boolean): Promise<boolean> {
  const m = world.model;
  const pending = [...m.branches.values()].filter((b) => b.status === "pending").sort((a, b) => (a.id < b.id ? -1 : 1));
  if (!world.branches || !pending.length) return false;
  const b = pending[pick % pending.length]!;
  const at = `/v1/kbs/${world.wire.kbId}/conflicts/${b.id}`;
  const opts = { app: world.wire.app, token: world.wire.key };
  const read = await callJson("GET", at, opts);
  const got = (read.body as any).data;
  if (read.status !== 200 || got.content !== b.content || got.sourceHash !== b.hash || got.docId !== b.docId) {
    world.fail(`GET ${at}: ${read.status} ${JSON.stringify(read.body).slice(0, 300)}, the model's branch holds ${JSON.stringify(b.content)}`);
  }
  if (!accept) {
    const res = await call("DELETE", at, opts);
    if (res.status !== 204) world.fail(`DELETE ${at} answered ${res.status}`);
    m.discard(b.id);
    return true;
  }
  const res = await callJson("POST", `${at}/accept`, opts);
  const data = (res.body as any).data;
  if (res.status !== 200 || data.status !== "adopted" || data.docId !== b.docId || data.sourceHash !== b.hash) {
    world.fail(`POST ${at}/accept answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  }
  const problem = m.adopt(b.id, data.updatedAt);
  if (problem) world.fail(`POST ${at}/accept: ${problem} (${JSON.stringify(data)})`);
  return true;
}
