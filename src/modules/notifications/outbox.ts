// Telling a user about an event: one event, two channels. notify writes, in the caller's
// transaction (so it is recorded exactly when what it reports is committed), the in-app
// item and the outbox row of the e-mail, each as the user's per-kind choice says.
import { and, eq, lte } from "drizzle-orm";
import type { DbOrTx } from "../../infra/db/index.ts";
import { newId } from "../../infra/ids.ts";
import { getUser, notificationChoice, type User } from "../identity/public.ts";
import { notifications, outbox, quotaMarks } from "./table.ts";
import { summarize } from "./templates.ts";

interface Message {
  /** A kind of identity's catalog (notification-settings.ts), e.g. quota_80, video_ready. */
  kind: string;
  userId: string;
  payload: Record<string, unknown>;
}

/** Records events for their users, in the transaction of the change they report. */
export async function notify(db: DbOrTx, messages: readonly Message[], now: Date): Promise<void> {
  if (!messages.length) return;
  const users = new Map<string, User | undefined>();
  for (const m of messages) if (!users.has(m.userId)) users.set(m.userId, await getUser(db, m.userId));
  const inApp: (typeof notifications.$inferInsert)[] = [];
  const mail: (typeof outbox.$inferInsert)[] = [];
  for (const m of messages) {
    const user = users.get(m.userId);
    if (!user) continue; // the account is gone: nobody to tell
    const choice = notificationChoice(user, m.kind);
    const item = choice.inApp ? summarize(m.kind, m.payload) : null;
    if (item) inApp.push({ id: newId(), userId: m.userId, kind: m.kind, ...item, data: m.payload, createdAt: now });
    if (choice.email) mail.push({ id: newId(), kind: m.kind, userId: m.userId, payload: m.payload, createdAt: now, nextAttemptAt: now });
  }
  if (inApp.length) await db.insert(notifications).values(inApp);
  if (mail.length) await db.insert(outbox).values(mail);
}

/** A threshold a counter just went past, and the message that tells it. */
export interface Crossing extends Message {
  dimension: string;
  /** "total" or the month "YYYY-MM" the counter is of. */
  period: string;
  /** Percent of the limit. */
  mark: number;
}

/**
 * A storage ("total") mark is told again when its counter goes past it again after at
 * least this long: a counter can only go past a mark from below, so usage went back
 * under it meanwhile, and a week keeps someone deleting and uploading around the mark
 * from getting a message each time.
 */
const RETELL_TOTAL_AFTER_MS = 7 * 86_400_000;

/**
 * Queues the message of each crossing whose mark is not recorded yet (or, for a "total"
 * period, was recorded more than RETELL_TOTAL_AFTER_MS ago), in the caller's transaction.
 * The mark's key decides: of transactions that see the same crossing, the one whose
 * insert wins queues the message; the others queue nothing. Returns the crossings told.
 */
export async function tellCrossings<C extends Crossing>(tx: DbOrTx, crossings: readonly C[], now: Date): Promise<C[]> {
  const key = (c: Pick<Crossing, "userId" | "dimension" | "period" | "mark">) => `${c.userId}\n${c.dimension}\n${c.period}\n${c.mark}`;
  // One statement may not upsert a key twice.
  const unique = [...new Map(crossings.map((c) => [key(c), c])).values()];
  if (!unique.length) return [];
  const retellBefore = new Date(now.getTime() - RETELL_TOTAL_AFTER_MS);
  const won = await tx
    .insert(quotaMarks)
    .values(unique.map((c) => ({ userId: c.userId, dimension: c.dimension, period: c.period, mark: c.mark, markedAt: now })))
    .onConflictDoUpdate({
      target: [quotaMarks.userId, quotaMarks.dimension, quotaMarks.period, quotaMarks.mark],
      set: { markedAt: now },
      setWhere: and(eq(quotaMarks.period, "total"), lte(quotaMarks.markedAt, retellBefore)),
    })
    .returning({ userId: quotaMarks.userId, dimension: quotaMarks.dimension, period: quotaMarks.period, mark: quotaMarks.mark });
  const told = new Set(won.map(key));
  const out = unique.filter((c) => told.delete(key(c)));
  await notify(tx, out, now);
  return out;
}
