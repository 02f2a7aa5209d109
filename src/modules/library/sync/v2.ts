// The v2 wire format of sync (docs/sync.md): `ops[]` of upsert, update, delete,
// move, rename and tombstone_ack in; `results[]` (one per op: opIndex, status, docId) and
// `serverTime` out. sourceHash is the SHA-256 hex of content (upsert, update) or of the
// text the client holds at fromPath (move) or of the document (rename), and is required
// on each of them. Everything
// v2-shaped is here; the rules are the sync service's.
import { AppError, validationError } from "../../../core/errors.ts";
import { iso } from "../../../infra/clock.ts";
import type { SyncBody, SyncV2OpResult } from "../kbs/model.ts";
import type { SyncOp, SyncResult } from "./service.ts";
import { baseValue, contentValue, docIdValue, nameValue, overwriteValue, pathValue, perOp } from "./values.ts";
import { isFileRow } from "../documents/table.ts";

const V2_MAX_OPS = 200;

type WireOp = SyncBody["ops"][number];

/** A field the op's kind carries; without it the request is malformed (422 at the field). */
function required<T>(value: T | undefined, at: string, what: string): T {
  if (value === undefined) throw validationError(at, what);
  return value;
}

function hashAt(op: WireOp, at: string): string {
  if (op.sourceHash === undefined) {
    throw new AppError("SYNC_HASH_REQUIRED", `a v2 ${op.op} carries sourceHash (SHA-256 hex of the content)`, { path: `${at}.sourceHash`, op: op.op });
  }
  return op.sourceHash;
}

function docIdAt(op: WireOp, at: string): string {
  if (op.docId === undefined || op.docId === "") throw validationError(`${at}.docId`, `a ${op.op} names its document by docId`);
  return op.docId;
}

/**
 * An upsert's or update's text, or null for a file (kind `file`), which carries none: its
 * sourceHash names the bytes (a hash that is no SHA-256 hex names none: FILE_MISSING).
 */
function contentAt(op: WireOp, at: string): string | null {
  if (op.kind === "file") {
    if (op.content !== undefined)
      throw validationError(`${at}.content`, `a ${op.op} of a file carries no content: its sourceHash names the bytes stored by PUT`);
    return null;
  }
  return required(op.content, `${at}.content`, `an ${op.op} of a document carries the content`);
}

/**
 * One op: first its shape (the fields its kind carries; a missing one refuses the
 * request), then its values, which refuse the op alone (values.ts).
 */
function readOp(op: WireOp, at: string): SyncOp {
  if (op.kind !== undefined && op.op !== "upsert" && op.op !== "update") {
    throw validationError(`${at}.kind`, `kind is an upsert's or update's (a ${op.op} works on whatever the path holds)`);
  }
  switch (op.op) {
    case "upsert": {
      const path = required(op.relativePath, `${at}.relativePath`, "an upsert carries the relativePath");
      const content = contentAt(op, at);
      const sourceHash = hashAt(op, at);
      return perOp(op, () => {
        const p = pathValue(path, `${at}.relativePath`);
        return {
          kind: "upsert",
          path: p.path,
          pathKey: p.key,
          content: content === null ? null : contentValue(content, `${at}.content`),
          sourceHash: content === null ? sourceHash.toLowerCase() : sourceHash,
          ...baseValue(op, at),
          ...overwriteValue(op, at),
        };
      });
    }
    case "update": {
      const docId = docIdAt(op, at);
      const content = contentAt(op, at);
      const sourceHash = hashAt(op, at);
      return perOp(op, () => ({
        kind: "update",
        docId: docIdValue(docId, "update"),
        content: content === null ? null : contentValue(content, `${at}.content`),
        sourceHash: content === null ? sourceHash.toLowerCase() : sourceHash,
        ...baseValue(op, at),
      }));
    }
    case "delete": {
      const path = required(op.relativePath, `${at}.relativePath`, "a delete carries the relativePath");
      return perOp(op, () => {
        const p = pathValue(path, `${at}.relativePath`);
        return { kind: "delete", path: p.path, pathKey: p.key, ...baseValue(op, at) };
      });
    }
    case "move": {
      const fromPath = required(op.fromPath, `${at}.fromPath`, "a move carries the fromPath");
      const toPath = required(op.toPath, `${at}.toPath`, "a move carries the toPath");
      const sourceHash = hashAt(op, at);
      return perOp(op, () => {
        const from = pathValue(fromPath, `${at}.fromPath`);
        const to = pathValue(toPath, `${at}.toPath`);
        return { kind: "move", path: from.path, pathKey: from.key, toPath: to.path, toKey: to.key, sourceHash, ...baseValue(op, at) };
      });
    }
    case "rename": {
      const docId = docIdAt(op, at);
      const newName = required(op.newName, `${at}.newName`, "a rename carries the newName");
      const sourceHash = hashAt(op, at);
      return perOp(op, () => ({
        kind: "rename",
        docId: docIdValue(docId, "rename"),
        newName: nameValue(newName, `${at}.newName`),
        at,
        sourceHash,
        ...baseValue(op, at),
      }));
    }
    default: {
      const docId = docIdAt(op, at);
      return perOp(op, () => {
        const path = op.relativePath === undefined ? undefined : pathValue(op.relativePath, `${at}.relativePath`).path;
        return { kind: "tombstone_ack", docId: docIdValue(docId, "tombstone_ack"), ...(path !== undefined && { path }) };
      });
    }
  }
}

/**
 * The body's ops as SyncOps. The request is refused whole for its shape: 422
 * INVALID_OP_BATCH_SIZE outside 1..200; 409 SYNC_VERSION_MISMATCH for a v1 body (upserts
 * and deletes, no sourceHash anywhere); 422 SYNC_HASH_REQUIRED for an upsert, update,
 * move or rename without one; 422 VALIDATION_ERROR at a field an op's kind carries and it lacks. A
 * value that breaks a rule (a path, the content, a base) refuses its op alone.
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
  return body.ops.map((op, i) => readOp(op, `body.ops.${i}`));
}

/** The v2 answer: one result per op, and whether any op was refused as a conflict (the answer is then 409 SYNC_CONFLICT). */
export function writeV2(ops: readonly SyncOp[], result: SyncResult): { results: SyncV2OpResult[]; serverTime: string; conflicted: boolean } {
  let conflicted = false;
  const results = result.outcomes.map((o, opIndex): SyncV2OpResult => {
    const op = ops[opIndex]!;
    const head = { opIndex, op: op.kind === "refused" ? op.op : op.kind };
    if (o.kind === "applied") {
      const d = o.doc;
      return {
        ...head,
        status: "applied",
        docId: d.id,
        relativePath: d.relativePath!,
        ...(op.kind === "move" && { fromPath: op.path }),
        ...(op.kind === "rename" && o.fromPath !== undefined && { fromPath: o.fromPath }),
        kind: isFileRow(d) ? "file" : "document",
        ...(o.change !== undefined && { change: o.change }),
        updatedAt: iso(d.updatedAt),
        sourceHash: d.deletedAt ? null : d.sourceHash,
      };
    }
    if (o.kind === "acknowledged") return { ...head, status: "applied", docId: op.kind === "tombstone_ack" ? op.docId : null, meta: { tombstones: o.count } };
    // A rename's path is its document's, known once the batch reached it (the outcome's fromPath).
    const named = "path" in op ? op.path : o.fromPath;
    const path = named !== undefined ? { relativePath: named } : {};
    if (o.kind === "skipped") {
      return {
        ...head,
        status: "skipped",
        docId: op.kind === "update" || op.kind === "rename" || op.kind === "refused" ? (op.docId ?? null) : null,
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
