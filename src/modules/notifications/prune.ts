// Keeps the notification tables bounded: settled messages are kept a while for operators
// (what was sent, what failed and why), and month marks only while their month can still
// be crossed.
import { and, isNotNull, isNull, lt, ne, or } from "drizzle-orm";
import { monthKey } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { notifications, outbox, quotaMarks } from "./table.ts";

/** Sent, failed and suppressed messages are deleted this long after they were queued. */
export const SETTLED_KEPT_DAYS = 90;

/** In-app notifications are deleted this long after they were told: read ones, unread ones. */
export const READ_KEPT_DAYS = 30;
export const UNREAD_KEPT_DAYS = 90;

/**
 * Deletes settled messages queued more than SETTLED_KEPT_DAYS ago, and the marks of months
 * before the current one: bandwidth is only told for the current month, so those can no
 * longer be crossed. "total" marks are kept. And the in-app notifications told more than
 * READ_KEPT_DAYS ago and read, or more than UNREAD_KEPT_DAYS ago.
 */
export async function pruneNotifications(db: DbOrTx, now: Date): Promise<{ messages: number; marks: number; inApp: number }> {
  const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000);
  const cutoff = daysAgo(SETTLED_KEPT_DAYS);
  const messages = await db
    .delete(outbox)
    .where(and(ne(outbox.status, "pending"), lt(outbox.createdAt, cutoff)))
    .returning({ id: outbox.id });
  const marks = await db
    .delete(quotaMarks)
    .where(and(ne(quotaMarks.period, "total"), lt(quotaMarks.period, monthKey(now))))
    .returning({ mark: quotaMarks.mark });
  const inApp = await db
    .delete(notifications)
    .where(
      or(
        and(isNotNull(notifications.readAt), lt(notifications.createdAt, daysAgo(READ_KEPT_DAYS))),
        and(isNull(notifications.readAt), lt(notifications.createdAt, daysAgo(UNREAD_KEPT_DAYS))),
      ),
    )
    .returning({ id: notifications.id });
  return { messages: messages.length, marks: marks.length, inApp: inApp.length };
}
