// Keeps the notification tables bounded: settled messages are kept a while for operators
// (what was sent, what failed and why), and month marks only while their month can still
// be crossed.
import { and, lt, ne } from "drizzle-orm";
import { monthKey } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { outbox, quotaMarks } from "./table.ts";

/** Sent, failed and suppressed messages are deleted this long after they were queued. */
export const SETTLED_KEPT_DAYS = 90;

/**
 * Deletes settled messages queued more than SETTLED_KEPT_DAYS ago, and the marks of months
 * before the current one: bandwidth is only told for the current month, so those can no
 * longer be crossed. "total" marks are kept.
 */
export async function pruneNotifications(db: DbOrTx, now: Date): Promise<{ messages: number; marks: number }> {
  const cutoff = new Date(now.getTime() - SETTLED_KEPT_DAYS * 86_400_000);
  const messages = await db
    .delete(outbox)
    .where(and(ne(outbox.status, "pending"), lt(outbox.createdAt, cutoff)))
    .returning({ id: outbox.id });
  const marks = await db
    .delete(quotaMarks)
    .where(and(ne(quotaMarks.period, "total"), lt(quotaMarks.period, monthKey(now))))
    .returning({ mark: quotaMarks.mark });
  return { messages: messages.length, marks: marks.length };
}
