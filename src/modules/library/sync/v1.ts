// The v1 wire format of sync: `ops[]` of upsert and delete in, `applied[]`,
// `conflicts[]`, `skipped[]` and `serverTime` out. Everything v1-shaped is here; the
// rules are the sync service's.
import { AppError, validationError } from "../../../core/errors.ts";
import { iso, isoOrNull } from "../../../infra/clock.ts";
import { PLAN_EXPIRY_RULE, parsePlanExpiry } from "../../identity/public.ts";
import type { SyncBody, SyncV1Result } from "../kbs/model.ts";
import type { SyncOp, SyncResult } from "./service.ts";
import { baseValue, contentValue, pathValue, perOp } from "./values.ts";

type V1Op = Extract<SyncOp, { kind: "upsert" | "delete" | "refused" }>;
const V2_FIELDS = ["docId", "fromPath", "toPath", "newName", "baseHash", "kind"] as const;

const V1_MAX_OPS = 100;

/**
 * An instant a client sent (a manifest's since): a real calendar instant the database can
 * hold, else 422 at `path`. The date-time format alone lets 2026-02-30 through (which a
 * Date rolls over into March) and years Postgres refuses.
 */
export function instantOf(text: string, path: string): Date {
  const at = parsePlanExpiry(text);
  if (!at) throw validationError(path, `not an ISO 8601 instant: ${PLAN_EXPIRY_RULE}`);
  return at;
}

/**
 * The body's ops as SyncOps. The request's shape refuses it whole (422): a batch of the
 * wrong size (INVALID_OP_BATCH_SIZE), a v2 op or field, an op without the relativePath or
 * content it carries. Its values (the path, the content, the base) refuse their op alone
 * (values.ts).
 */
export function readV1(body: SyncBody): V1Op[] {
  const n = body.ops.length;
  if (n < 1 || n > V1_MAX_OPS) {
    throw new AppError("INVALID_OP_BATCH_SIZE", `a v1 sync request carries 1 to ${V1_MAX_OPS} ops`, { max: V1_MAX_OPS, count: n });
  }
  return body.ops.map((op, i): V1Op => {
    const at = `body.ops.${i}`;
    // The body schema is both versions'; v1 knows two ops and their fields only.
    if (op.op !== "upsert" && op.op !== "delete")
      throw validationError(`${at}.op`, `${op.op} is a v2 op (send Service-Sync-Version: 2); v1 has upsert and delete`);
    for (const f of V2_FIELDS) if (op[f] !== undefined) throw validationError(`${at}.${f}`, `${f} is a v2 field (send Service-Sync-Version: 2)`);
    const { relativePath, content } = op;
    if (relativePath === undefined) throw validationError(`${at}.relativePath`, "an op carries the relativePath");
    if (op.op === "upsert" && content === undefined) throw validationError(`${at}.content`, "an upsert carries the content");
    return perOp(op, () => {
      const p = pathValue(relativePath, `${at}.relativePath`);
      const { base } = baseValue(op, at);
      if (op.op === "delete") return { kind: "delete" as const, path: p.path, pathKey: p.key, base };
      return { kind: "upsert" as const, path: p.path, pathKey: p.key, content: contentValue(content!, `${at}.content`), sourceHash: op.sourceHash, base };
    });
  });
}

export function writeV1(ops: readonly V1Op[], result: SyncResult): SyncV1Result {
  const out: SyncV1Result = { applied: [], conflicts: [], skipped: [], serverTime: iso(result.serverTime) };
  result.outcomes.forEach((o, opIndex) => {
    const op = ops[opIndex]!;
    // A v1 op, refused or not, is an upsert or a delete at a path (readV1 sees to it).
    const head = { opIndex, op: (op.kind === "refused" ? op.op : op.kind) as "upsert" | "delete", relativePath: op.path! };
    if (o.kind === "applied") {
      out.applied.push({ ...head, id: o.doc.id, updatedAt: iso(o.doc.updatedAt), sourceHash: o.doc.deletedAt ? null : o.doc.sourceHash });
    } else if (o.kind === "conflict") {
      const r = o.remote;
      const active = r && !r.deletedAt;
      out.conflicts.push({
        ...head,
        // v1 ops meet only the v1 reasons (the move ones are v2's).
        reason: o.reason as SyncV1Result["conflicts"][number]["reason"],
        remote: {
          sourceHash: active ? r.sourceHash : null,
          sizeBytes: active ? r.sizeBytes : null,
          updatedAt: active ? iso(r.updatedAt) : null,
          deletedAt: isoOrNull(r?.deletedAt),
          relativePath: r?.relativePath ?? null,
        },
      });
    } else if (o.kind === "skipped") {
      out.skipped.push({ ...head, reason: o.reason, message: o.message, ...(o.meta && { meta: o.meta }) });
    }
  });
  return out;
}
