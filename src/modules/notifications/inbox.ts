// The in-app list: a user's notifications, newest first, read and marked read. Every query
// filters by the owner; another user's notification is 404 like one that does not exist.
import { and, count, eq, isNull, sql } from "drizzle-orm";
import { keysetPage } from "../../core/cursor.ts";
import { notFound } from "../../core/errors.ts";
import { iso, isoOrNull } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { notifications } from "./table.ts";

type Row = typeof notifications.$inferSelect;

const toItem = (r: Row) => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  body: r.body,
  data: r.data as Record<string, unknown>,
  createdAt: iso(r.createdAt),
  readAt: isoOrNull(r.readAt),
});

const owned = () => eq(notifications.userId, sql.placeholder("userId"));
const unreadOwned = () => and(owned(), isNull(notifications.readAt));

/** How many of the user's notifications are unread (the badge). */
export async function unreadCount(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row!.n;
}

/** A page of the user's notifications (unread only if asked), with how many are unread in all. */
export async function listNotifications(db: DbOrTx, userId: string, q: { cursor?: string; limit: number; unread?: boolean }) {
  const page = await keysetPage(
    db,
    {
      from: notifications,
      shape: q.unread ? "unread" : "all",
      where: q.unread ? unreadOwned : owned,
      params: { userId },
      sort: ["createdAt", "id"],
      cursor: q.cursor,
      limit: q.limit,
    },
    toItem,
  );
  return { ...page, unreadCount: await unreadCount(db, userId) };
}

/** Marks one notification read (a second time keeps the first readAt); 404 when it is not the user's. */
export async function markRead(db: DbOrTx, userId: string, id: string, now: Date) {
  const mine = and(eq(notifications.id, id), eq(notifications.userId, userId));
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(mine, isNull(notifications.readAt)));
  const [row] = await db.select().from(notifications).where(mine);
  if (!row) throw notFound("notification");
  return toItem(row);
}

/** Marks every unread notification of the user read; how many were. */
export async function markAllRead(db: DbOrTx, userId: string, now: Date): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}
