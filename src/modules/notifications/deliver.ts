// The deliverer: drains the outbox through a mail transport. A batch of due rows is
// claimed in one statement (FOR UPDATE SKIP LOCKED: two deliverers never take the same
// row; the claim moves nextAttemptAt to the end of a lease and records a token), each
// message is rendered and sent, and only the claimer settles it: sent, retried after a
// backoff, failed after MAX_ATTEMPTS, or suppressed (the user turned that kind's e-mail
// off since it was queued: notificationChoice). A deliverer that dies mid-send leaves its
// rows to be taken again when the lease ends: sending is at least once at the SMTP
// boundary, and once between deliverers.
import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { newId } from "../../infra/ids.ts";
import type { Mailer } from "../../infra/mail.ts";
import { getUser, isAccountMail, notificationChoice } from "../identity/public.ts";
import { outbox, type OutboxRow } from "./table.ts";
import { render } from "./templates.ts";

/** Longer than a send may take (the SMTP transport's timeouts are a minute each). */
const LEASE_MS = 10 * 60_000;
/** Rows claimed per statement. */
const BATCH = 20;
/** Tries before a message is given up (the waits between them add up to about 8.5 hours). */
export const MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 6 * 3_600_000;

/** The wait after the n-th failed try: 1 minute, doubling, at most 6 hours. */
export const retryDelayMs = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);

export interface Delivered {
  sent: number;
  retried: number;
  failed: number;
  suppressed: number;
}

type DeliverDeps = Pick<Deps, "db" | "clock" | "config" | "log">;

async function claim(deps: DeliverDeps, token: string): Promise<OutboxRow[]> {
  const now = deps.clock.now();
  const due = deps.db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.status, "pending"), lte(outbox.nextAttemptAt, now)))
    .orderBy(outbox.nextAttemptAt, outbox.createdAt)
    .limit(BATCH)
    .for("update", { skipLocked: true });
  return deps.db
    .update(outbox)
    .set({ attempts: sql`${outbox.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + LEASE_MS), claimToken: token })
    .where(inArray(outbox.id, due))
    .returning();
}

type Outcome = keyof Delivered;

/** The account's address, or for account mail the one it names (the new address to prove, the old one to tell). */
function recipientOf(row: OutboxRow, accountEmail: string): string {
  const to = (row.payload as { to?: unknown }).to;
  return isAccountMail(row.kind) && typeof to === "string" ? to : accountEmail;
}

async function deliverOne(deps: DeliverDeps, mailer: Mailer, row: OutboxRow, token: string): Promise<Outcome> {
  const settle = async (set: Partial<typeof outbox.$inferInsert>) => {
    await deps.db
      .update(outbox)
      .set({ ...set, claimToken: null })
      .where(and(eq(outbox.id, row.id), eq(outbox.claimToken, token)));
  };
  const fail = async (error: string): Promise<Outcome> => {
    const now = deps.clock.now();
    if (row.attempts >= MAX_ATTEMPTS) {
      await settle({ status: "failed", lastError: error });
      deps.log.error("mail given up", { id: row.id, kind: row.kind, attempts: row.attempts, error });
      return "failed";
    }
    await settle({ nextAttemptAt: new Date(now.getTime() + retryDelayMs(row.attempts)), lastError: error });
    deps.log.warn("mail not sent; will retry", { id: row.id, kind: row.kind, attempts: row.attempts, error });
    return "retried";
  };

  // The recipient is read at send time: the address and the choice of the user now.
  const user = await getUser(deps.db, row.userId);
  if (!user) return "suppressed"; // deleted meanwhile: the row went with the user
  // The choice may have changed since the row was queued: the one now decides.
  if (!notificationChoice(user, row.kind).email) {
    await settle({ status: "suppressed" });
    return "suppressed";
  }
  const message = render(row.kind, row.payload, { centerUrl: deps.config.CENTER_URL, nickname: user.nickname });
  if (!message) {
    await settle({ status: "failed", lastError: `no template can render a ${row.kind} message with this payload` });
    deps.log.error("mail has no template", { id: row.id, kind: row.kind });
    return "failed";
  }
  try {
    await mailer.send({ to: recipientOf(row, user.email), ...message });
  } catch (err) {
    return fail(String((err as Error)?.message ?? err).slice(0, 1000));
  }
  await settle({ status: "sent", sentAt: deps.clock.now(), lastError: null });
  return "sent";
}

/**
 * Sends every message due now, batch after batch, until none is left or `signal` is
 * aborted. Safe to run on any number of nodes at once.
 */
export async function deliverOutbox(deps: DeliverDeps, mailer: Mailer, signal?: AbortSignal): Promise<Delivered> {
  const done: Delivered = { sent: 0, retried: 0, failed: 0, suppressed: 0 };
  const token = newId();
  while (!signal?.aborted) {
    const rows = await claim(deps, token);
    for (const row of rows) done[await deliverOne(deps, mailer, row, token)]++;
    if (rows.length < BATCH) break;
  }
  return done;
}
