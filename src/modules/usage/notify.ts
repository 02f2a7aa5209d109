// SPEC 6: the owner is e-mailed when a quota's counter goes past 80% (optional) and 100%
// of the plan's limit. The counter's move is compared before and after against the limit
// in memory, so the marks table (notifications) is only touched by a move that crosses
// one: an upload far from any mark costs nothing more. The message is queued in the
// transaction that moves the counter.
import type { DbOrTx } from "../../infra/db/index.ts";
import { type Crossing, tellCrossings } from "../notifications/public.ts";
import type { Dimension } from "./dimensions.ts";

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
  if (crossings.length) await tellCrossings(tx, crossings, now);
}
