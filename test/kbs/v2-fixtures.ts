// Sync v2 fixtures: pushes and manifests with Service-Sync-Version: 2, and v2-shaped ops.
import { callJson, type CallOptions } from "../helpers/context.ts";
import { sha256 } from "./fixtures.ts";

export const V2 = { "service-sync-version": "2" };

type Base = { baseUpdatedAt?: string; baseHash?: string };

export const upsert2 = (relativePath: string, content: string, base: Base = {}) => ({
  op: "upsert",
  relativePath,
  content,
  sourceHash: sha256(content),
  ...base,
});
export const update2 = (docId: string, content: string, base: Base = {}) => ({ op: "update", docId, content, sourceHash: sha256(content), ...base });
export const delete2 = (relativePath: string, base: Base = {}) => ({ op: "delete", relativePath, ...base });
export const rename2 = (docId: string, newName: string, held: string, base: Base = {}) => ({ op: "rename", docId, newName, sourceHash: sha256(held), ...base });
export const move2 = (fromPath: string, toPath: string, held: string, base: Base = {}) => ({ op: "move", fromPath, toPath, sourceHash: sha256(held), ...base });

export interface OpResult {
  opIndex: number;
  op: string;
  status: string;
  docId: string | null;
  relativePath?: string;
  fromPath?: string;
  kind?: "document" | "file";
  updatedAt?: string;
  change?: "created" | "updated" | "unchanged";
  sourceHash?: string | null;
  reason?: string;
  currentMasterHash?: string | null;
  currentMasterUpdatedAt?: string | null;
  meta?: Record<string, unknown>;
}

export async function sync2(token: string, kbId: string, ops: unknown[], opts: CallOptions & { query?: string } = {}) {
  const { query, ...rest } = opts;
  return await callJson("POST", `/v1/kbs/${kbId}/sync${query ? `?${query}` : ""}`, { token, json: { ops }, ...rest, headers: { ...V2, ...rest.headers } });
}

/** A v2 push that must answer 200; its results and serverTime. */
export async function pushed2(token: string, kbId: string, ops: unknown[], opts: CallOptions = {}) {
  const res = await sync2(token, kbId, ops, opts);
  if (res.status !== 200) throw new Error(`v2 sync answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as { results: OpResult[]; serverTime: string };
}

interface Tombstone {
  docId: string;
  relativePath: string;
  sourceHash: string;
  kind: "document" | "file";
  deletedAt: string;
}

export async function manifest2(token: string, kbId: string, params: Record<string, string> = {}, opts: CallOptions = {}) {
  const q = new URLSearchParams(params).toString();
  return await callJson("GET", `/v1/kbs/${kbId}/manifest${q ? `?${q}` : ""}`, { token, ...opts, headers: { ...V2, ...opts.headers } });
}

/** Every page of a v2 manifest: its entries, the last page's sinceCursor and tombstones. */
export async function walk2(token: string, kbId: string, params: Record<string, string> = {}, opts: CallOptions = {}) {
  const items: { relativePath: string; docId: string; sourceHash: string | null; updatedAt: string | null; deletedAt: string | null }[] = [];
  let cursor: string | null = null;
  let last: any;
  do {
    const res = await manifest2(token, kbId, { ...params, ...(cursor && { cursor }) }, opts);
    if (res.status !== 200) throw new Error(`v2 manifest answered ${res.status}: ${JSON.stringify(res.body)}`);
    last = res.body.data;
    items.push(...last.items);
    cursor = last.nextCursor;
    if (cursor) assertNotLast(last);
  } while (cursor);
  return { items, sinceCursor: last.sinceCursor as string, tombstones: (last.tombstones ?? []) as Tombstone[], serverTime: last.serverTime as string };
}

/** Only the last page of a walk carries sinceCursor and tombstones. */
function assertNotLast(page: Record<string, unknown>) {
  if ("sinceCursor" in page || "tombstones" in page) throw new Error("a page before the last carries sinceCursor or tombstones");
}
