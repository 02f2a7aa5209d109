// The owner is e-mailed when a quota's counter goes past 80% (optional) and 100%
// of the plan's limit. The counter's move is compared before and after against the limit
// in memory, so the marks table (notifications) is only touched by a move that crosses
// one: an upload far from any mark costs nothing more. The message is queued in the
// transaction that moves the counter.
// An upload that would go past the limit is refused and its transaction rolls back, so
// the user who hits the wall would never be told by a crossing: the refusal tells the
// same 100% mark instead, in a transaction of its own (tellRefusal).
import type { Db, DbOrTx } from "../../infra/db/index.ts";
import type { LimitRefusal } from "../../core/refusal.ts";
import { type Crossing, tellCrossings } from "../notifications/public.ts";
import { emitEvents } from "../webhooks/public.ts";
import { DIMENSIONS, type Dimension, PERIODS } from "./dimensions.ts";

/** A counter that just moved from `before` to `after` under `limit` (-1: no cap). */
export interface Move {
  userId: string;
  dimension: Dimension;
  /** The counter's period key: "total" or "YYYY-MM". */
  period: string;
  limit: number;
  before: number;
  after: number;
}

/** The message kind of a quota mark, e.g. quota_80 (its template is the notifications module's). */
const quotaKind = (mark: number) => `quota_${mark}`;

/**
 * The marks a move went past: reached (used >= mark% of the limit) after, not before.
 * A limit of 0 allows nothing to be used, so nothing is ever told for it.
 */
export function crossedMarks(m: Move): number[] {
  if (m.limit <= 0 || m.after <= m.before) return [];
  return (m.dimension.warnAt ?? []).filter((mark) => {
    const at = (m.limit * mark) / 100;
    return m.before < at && m.after >= at;
  });
}

/** Queues the messages of the marks these moves crossed and that were not told yet. */
export async function tellQuotaCrossings(tx: DbOrTx, moves: readonly Move[], now: Date): Promise<void> {
  const crossings: Crossing[] = moves.flatMap((m) =>
    crossedMarks(m).map((mark) => ({
      userId: m.userId,
      dimension: m.dimension.name,
      period: m.period,
      mark,
      kind: quotaKind(mark),
      payload: { dimension: m.dimension.name, period: m.period, mark, used: m.after, limit: m.limit },
    })),
  );
  if (crossings.length) await emitCrossings(tx, await tellCrossings(tx, crossings, now), now);
}

/** A told crossing of 80 or 100% is a quota.threshold event too. */
export async function emitCrossings(tx: DbOrTx, told: readonly Crossing[], now: Date): Promise<void> {
  const events = told
    .filter((c) => c.mark === 80 || c.mark === 100)
    .map((c) => ({ ownerId: c.userId, type: "quota.threshold" as const, data: { dimension: c.dimension, period: c.period, mark: c.mark, ...c.payload } }));
  if (events.length) await emitEvents(tx, events, now);
}

/** The mark a full quota is told under: a refusal tells the one a crossing to the limit tells. */
const FULL = 100;

/**
 * A need refused by a quota with a 100% mark (storage, documents) tells its owner
 * that mark, at most once as a crossing would (the marks table decides, with its re-arm
 * rule). Call it after the refused transaction rolled back: it writes in its own. Rate
 * counts (429) and limits without marks tell nothing. The payload's `used` is the counter
 * the refusal saw, and `refused` lets the message say an upload was turned away.
 * Only a quota already at its first mark (80%) is told full: below it the need was refused
 * for its own size (a file larger than all that is left), the quota is far from full, and
 * the refusal's answer (used and limit) says so to the one who sent it.
 */
export async function tellRefusal(deps: { db: Db }, refusal: LimitRefusal): Promise<void> {
  const d: Dimension | undefined = DIMENSIONS.find((x) => x.name === refusal.dimension);
  if (d?.refused !== "quota" || refusal.retryAt || !d.warnAt?.includes(FULL) || refusal.planLimit <= 0) return;
  if (refusal.used * 100 < refusal.planLimit * Math.min(...d.warnAt)) return;
  const period = PERIODS[d.period].key(refusal.at);
  // Measured against the plan's own limit, as crossings are (not a branch's overage).
  const { userId, used, planLimit: limit } = refusal;
  await deps.db.transaction((tx) =>
    tellCrossings(
      tx,
      [
        {
          userId,
          dimension: d.name,
          period,
          mark: FULL,
          kind: quotaKind(FULL),
          payload: { dimension: d.name, period, mark: FULL, used, limit, refused: true },
        },
      ],
      refusal.at,
    ),
  );
}
