// The v2 wire format of sync (SPEC 4.6, 9; issue 12): `ops[]` of upsert, update, delete,
// move and tombstone_ack in; `results[]` (one per op: opIndex, status, docId) and
// `serverTime` out. sourceHash is the SHA-256 hex of content (upsert, update) or of the
// text the client holds at fromPath (move), and is required on each of them. Everything
// v2-shaped is here; the rules are the sync service's.
import { AppError, validationError } from "../../../http/errors.ts";
import { iso } from "../../../infra/clock.ts";
import { normalizePath, pathProblemText } from "../../documents/public.ts";
import type { SyncBody, SyncV2OpResult } from "../model.ts";
import type { SyncOp, SyncResult } from "./service.ts";
import { instantOf } from "./v1.ts";

const V2_MAX_OPS = 200;
const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

type WireOp = SyncBody["ops"][number];

function pathAt(text: string | undefined, at: string): { path: string; key: string } {
  if (text === undefined) throw validationError(at, "this op carries this path");
  const p = normalizePath(text);
  if (!p.ok) throw validationError(at, pathProblemText(p.problem));
  return p;
}

function contentAt(text: string | undefined, at: string): string {
  if (text === undefined) throw validationError(at, "this op carries the content");
  if (text.includes("\u0000")) throw validationError(at, "the content may not contain NUL characters");
  // Its UTF-8, which the hash is taken of and which is stored, must be the text itself.
  if (!text.isWellFormed()) throw validationError(at, "the content is not well-formed Unicode (it holds a lone surrogate)");
  return text;
}

function hashAt(op: WireOp, at: string): string {
  if (op.sourceHash === undefined) {
    throw new AppError("SYNC_HASH_REQUIRED", `a v2 ${op.op} carries sourceHash (SHA-256 hex of the content)`, { path: `${at}.sourceHash`, op: op.op });
  }
  return op.sourceHash;
}

function baseOf(op: WireOp, at: string) {
  if (op.baseHash !== undefined && !SHA256_HEX.test(op.baseHash)) throw validationError(`${at}.baseHash`, "baseHash is a SHA-256 hex (64 characters)");
  return {
    base: op.baseUpdatedAt ? instantOf(op.baseUpdatedAt, `${at}.baseUpdatedAt`) : null,
    ...(op.baseHash !== undefined && { baseHash: op.baseHash }),
  };
}

function docIdAt(op: WireOp, at: string): string {
  if (op.docId === undefined || op.docId === "") throw validationError(`${at}.docId`, `a ${op.op} names its document by docId`);
  return op.docId;
}

/**
 * The body's ops as SyncOps. 422 INVALID_OP_BATCH_SIZE outside 1..200; 409
 * SYNC_VERSION_MISMATCH for a v1 body (upserts and deletes, no sourceHash anywhere); 422
 * SYNC_HASH_REQUIRED for an upsert, update or move without one; 422 VALIDATION_ERROR at
 * the op's field for anything else that breaks the rules.
 */
export function readV2(body: SyncBody): SyncOp[] {
  const n = body.ops.length;
  if (n < 1 || n > V2_MAX_OPS) {
    throw new AppError("INVALID_OP_BATCH_SIZE", `a v2 sync request carries 1 to ${V2_MAX_OPS} ops`, { max: V2_MAX_OPS, count: n });
  }
  const v1Shaped = body.ops.every((op) => op.op === "upsert" || op.op === "delete") && body.ops.some((op) => op.op === "upsert");
  if (v1Shaped && body.ops.every((op) => op.sourceHash === undefined)) {
    throw new AppError("SYNC_VERSION_MISMATCH", "a v2 request carries sourceHash on its upserts; this body is v1-shaped (send it as v1, or add the hashes)", {
      version: 2,
    });
  }
  return body.ops.map((op, i): SyncOp => {
    const at = `body.ops.${i}`;
    switch (op.op) {
      case "upsert": {
        const p = pathAt(op.relativePath, `${at}.relativePath`);
        const sourceHash = hashAt(op, at);
        return { kind: "upsert", path: p.path, pathKey: p.key, content: contentAt(op.content, `${at}.content`), sourceHash, ...baseOf(op, at) };
      }
      case "update": {
        const sourceHash = hashAt(op, at);
        return { kind: "update", docId: docIdAt(op, at), content: contentAt(op.content, `${at}.content`), sourceHash, ...baseOf(op, at) };
      }
      case "delete": {
        const p = pathAt(op.relativePath, `${at}.relativePath`);
        return { kind: "delete", path: p.path, pathKey: p.key, ...baseOf(op, at) };
      }
      case "move": {
        const from = pathAt(op.fromPath, `${at}.fromPath`);
        const to = pathAt(op.toPath, `${at}.toPath`);
        const sourceHash = hashAt(op, at);
        return { kind: "move", path: from.path, pathKey: from.key, toPath: to.path, toKey: to.key, sourceHash, ...baseOf(op, at) };
      }
      default: {
        const path = op.relativePath === undefined ? undefined : pathAt(op.relativePath, `${at}.relativePath`).path;
        return { kind: "tombstone_ack", docId: docIdAt(op, at), ...(path !== undefined && { path }) };
      }
    }
  });
}

/** The v2 answer: one result per op, and whether any op was refused as a conflict (the answer is then 409 SYNC_CONFLICT). */
export function writeV2(ops: readonly SyncOp[], result: SyncResult): { results: SyncV2OpResult[]; serverTime: string; conflicted: boolean } {
  let conflicted = false;
  const results = result.outcomes.map((o, opIndex): SyncV2OpResult => {
    const op = ops[opIndex]!;
    const head = { opIndex, op: op.kind };
    if (o.kind === "applied") {
      const d = o.doc;
      return {
        ...head,
        status: "applied",
        docId: d.id,
        relativePath: d.relativePath!,
        ...(op.kind === "move" && { fromPath: op.path }),
        updatedAt: iso(d.updatedAt),
        sourceHash: d.deletedAt ? null : d.sourceHash,
      };
    }
    if (o.kind === "acknowledged") return { ...head, status: "applied", docId: op.kind === "tombstone_ack" ? op.docId : null, meta: { tombstones: o.count } };
    const path = "path" in op && op.path !== undefined ? { relativePath: op.path } : {};
    if (o.kind === "skipped") {
      return {
        ...head,
        status: "skipped",
        docId: op.kind === "update" ? op.docId : null,
        ...path,
        reason: o.reason,
        message: o.message,
        ...(o.meta && { meta: o.meta }),
      };
    }
    if (o.kind === "branched") {
      const r = o.remote;
      return {
        ...head,
        status: "conflict_branch_created",
        docId: r.id,
        ...path,
        branchId: o.branchId,
        currentMasterHash: r.deletedAt ? null : r.sourceHash,
        currentMasterUpdatedAt: iso(r.deletedAt ?? r.updatedAt),
      };
    }
    conflicted = true;
    const r = o.remote;
    const active = r && !r.deletedAt;
    return {
      ...head,
      status: "conflict",
      docId: r?.id ?? null,
      ...path,
      reason: o.reason,
      currentMasterHash: active ? r.sourceHash : null,
      currentMasterUpdatedAt: r ? iso(r.deletedAt ?? r.updatedAt) : null,
    };
  });
  return { results, serverTime: iso(result.serverTime), conflicted };
}
