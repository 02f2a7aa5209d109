// The requests the randomized sync test makes, through an app's handler (held to the
// OpenAPI document by `callJson`), with each answer turned into the model's terms.
import { call, callJson } from "../helpers/context.ts";
import type { Handler } from "../helpers/contract.ts";
import type { Mode, Op, Outcome, Version } from "./model.ts";

export interface Wire {
  app: Handler;
  key: string;
  kbId: string;
}

const versioned = (version: Version): Record<string, string> => (version === 2 ? { "service-sync-version": "2" } : {});

export interface Pushed {
  status: number;
  code?: string;
  /** One per op, in op order (absent when the whole request was refused). */
  outcomes?: Outcome[];
  body: unknown;
}

/**
 * A v1 answer's three lists back in op order: each entry is the first not yet taken with
 * the op's kind and (NFC) path, so two ops on one path (a rename to another spelling is a
 * delete and an upsert there) each find their own.
 */
function v1Outcomes(ops: Op[], data: any): Outcome[] {
  const taken = new Set<unknown>();
  const find = (list: any[], op: Op) => {
    const path = (op as { relativePath: string }).relativePath.normalize("NFC");
    const hit = list.find((x) => !taken.has(x) && x.op === op.op && x.relativePath === path);
    if (hit) taken.add(hit);
    return hit;
  };
  return ops.map((op): Outcome => {
    const a = find(data.applied, op);
    if (a) return { kind: "applied", docId: a.id, updatedAt: a.updatedAt, sourceHash: a.sourceHash };
    const c = find(data.conflicts, op);
    if (c) return { kind: "conflict", reason: c.reason, currentMasterHash: c.remote.sourceHash, currentMasterUpdatedAt: c.remote.updatedAt };
    const s = find(data.skipped, op);
    if (s) return { kind: "skipped", reason: s.reason };
    throw new Error(`the v1 answer has no outcome for ${JSON.stringify(op).slice(0, 200)}: ${JSON.stringify(data)}`);
  });
}

function v2Outcomes(n: number, results: any[]): Outcome[] {
  if (results.length !== n) throw new Error(`${n} ops, ${results.length} results: ${JSON.stringify(results)}`);
  return results.map((r, i): Outcome => {
    if (r.opIndex !== i) throw new Error(`results out of op order: ${JSON.stringify(results)}`);
    if (r.status === "applied") {
      if (r.op === "tombstone_ack") return { kind: "applied", docId: r.docId, tombstones: r.meta?.tombstones };
      return { kind: "applied", docId: r.docId, updatedAt: r.updatedAt, sourceHash: r.sourceHash ?? null, relativePath: r.relativePath, fromPath: r.fromPath };
    }
    if (r.status === "conflict_branch_created") {
      return {
        kind: "branch",
        branchId: r.branchId,
        docId: r.docId,
        currentMasterHash: r.currentMasterHash ?? null,
        currentMasterUpdatedAt: r.currentMasterUpdatedAt ?? null,
      };
    }
    if (r.status === "conflict")
      return { kind: "conflict", reason: r.reason, currentMasterHash: r.currentMasterHash, currentMasterUpdatedAt: r.currentMasterUpdatedAt };
    return { kind: "skipped", reason: r.reason };
  });
}

/** The body of an op as each protocol sends it (v1 knows upsert and delete only). */
function wireOp(op: Op): Record<string, unknown> {
  return Object.fromEntries(Object.entries(op).filter(([, v]) => v !== undefined));
}

export async function push(w: Wire, version: Version, mode: Mode, ops: Op[]): Promise<Pushed> {
  const query = version === 2 && mode === "preserve_both" ? "?conflictResolution=preserve_both" : "";
  const res = await callJson("POST", `/v1/kbs/${w.kbId}/sync${query}`, {
    app: w.app,
    token: w.key,
    headers: versioned(version),
    json: { ops: ops.map(wireOp) },
  });
  const body = res.body as any;
  if (res.status === 200) return { status: 200, outcomes: version === 1 ? v1Outcomes(ops, body.data) : v2Outcomes(ops.length, body.data.results), body };
  if (res.status === 409 && body.code === "SYNC_CONFLICT" && Array.isArray(body.meta?.results)) {
    return { status: 409, code: body.code, outcomes: v2Outcomes(ops.length, body.meta.results), body };
  }
  return { status: res.status, code: body.code, body };
}

export interface ManifestEntry {
  relativePath: string;
  docId?: string;
  /** v2: the document has pending conflict branches. */
  hasPendingBranches?: boolean;
  sourceHash: string | null;
  sizeBytes: number | null;
  updatedAt: string | null;
  deletedAt: string | null;
}

export interface TombstoneEntry {
  docId: string;
  relativePath: string;
  sourceHash: string;
  deletedAt: string;
}

export interface Pulled {
  status: number;
  code?: string;
  items: ManifestEntry[];
  tombstones: TombstoneEntry[];
  serverTime?: string;
  sinceCursor?: string;
  expired?: boolean;
  retentionDays?: number;
  /** The first page's ETag (v2). */
  etag?: string;
  pages: number;
}

/** Every page of a manifest read (`since` and `include` as given), or the refusal of its first page. */
export async function manifest(
  w: Wire,
  version: Version,
  opts: { since?: string; limit?: number; tombstones?: boolean; ifNoneMatch?: string },
): Promise<Pulled> {
  const out: Pulled = { status: 200, items: [], tombstones: [], pages: 0 };
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams();
    if (opts.since !== undefined) q.set("since", opts.since);
    if (cursor) q.set("cursor", cursor);
    if (opts.limit) q.set("limit", String(opts.limit));
    if (opts.tombstones) q.set("include", "tombstones");
    const headers = { ...versioned(version), ...(opts.ifNoneMatch && !cursor && { "if-none-match": opts.ifNoneMatch }) };
    const res = await call("GET", `/v1/kbs/${w.kbId}/manifest?${q}`, { app: w.app, token: w.key, headers });
    const text = await res.text();
    if (res.status === 304) {
      if (cursor || text !== "") throw new Error(`a 304 manifest answer ${cursor ? "to a later page" : "with a body"}`);
      return { ...out, status: 304, etag: res.headers.get("etag") ?? undefined };
    }
    const body = JSON.parse(text);
    if (!cursor) out.etag = res.headers.get("etag") ?? undefined;
    if (res.status !== 200) {
      if (out.pages > 0) throw new Error(`manifest page ${out.pages + 1} answered ${res.status}: ${JSON.stringify(body)}`);
      return { ...out, status: res.status, code: body.code };
    }
    out.pages++;
    const data = body.data;
    out.items.push(...data.items);
    out.tombstones.push(...(data.tombstones ?? []));
    out.serverTime = data.serverTime;
    out.sinceCursor = data.sinceCursor;
    if (data.tombstoneCursorExpired) {
      out.expired = true;
      out.retentionDays = data.retentionDays;
    }
    cursor = data.nextCursor;
  } while (cursor);
  return out;
}

/** The text at a path with the hash and version the server gives it (GET /v1/kbs/:id/raw). */
export async function raw(w: Wire, path: string): Promise<{ status: number; content: string; sourceHash: string | null; updatedAt: string | null }> {
  const res = await call("GET", `/v1/kbs/${w.kbId}/raw?path=${encodeURIComponent(path)}`, { app: w.app, token: w.key });
  return { status: res.status, content: await res.text(), sourceHash: res.headers.get("x-source-hash"), updatedAt: res.headers.get("x-updated-at") };
}

/** A document's revisions, newest first (GET /v1/docs/:id/revisions). */
export async function revisions(w: Wire, docId: string): Promise<{ id: string; sourceHash: string }[]> {
  const res = await callJson("GET", `/v1/docs/${docId}/revisions`, { app: w.app, token: w.key });
  if (res.status !== 200) throw new Error(`revisions of ${docId} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return (res.body as any).data.revisions;
}

/** One revision's content (GET /v1/docs/:id/revisions/:revId). */
export async function revisionContent(w: Wire, docId: string, revId: string): Promise<string> {
  const res = await callJson("GET", `/v1/docs/${docId}/revisions/${revId}`, { app: w.app, token: w.key });
  if (res.status !== 200) throw new Error(`revision ${revId} of ${docId} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return (res.body as any).data.content;
}
