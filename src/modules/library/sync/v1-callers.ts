// Who still speaks sync protocol v1, and the one reminder they get before it ends (the
// v1 sunset schedule: deprecation headers, then a final reminder e-mail, then 410). A v1
// manifest or sync call records its account's last use (before it answers): at most one write an hour per
// account and node, so a busy v1 client costs nearly nothing. The reminder goes once per
// account (the row's remindedAt is claimed by one update, whichever node runs it), by
// e-mail and in the user's in-app list (notifications' notify: one event, two channels).
import { and, inArray, isNull } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import type { Principal } from "../../../core/principal.ts";
import { notify } from "../../notifications/public.ts";
import { syncV1Callers } from "../kbs/table.ts";

const WRITE_EVERY_MS = 60 * 60_000;
const REMEMBERED = 50_000;
/** Accounts claimed and queued per transaction. */
const BATCH = 100;
const V1_REMINDER_KIND = "sync_v1_final_reminder";

/** The recorder of v1 calls, one per process: remembers whom it wrote in the last hour. */
export function v1CallRecorder(deps: Pick<Deps, "db" | "clock" | "log">) {
  const written = new Map<string, number>();
  return async function noteV1Call(principal: Principal): Promise<void> {
    const now = deps.clock.nowMs();
    const last = written.get(principal.userId);
    if (last !== undefined && now - last < WRITE_EVERY_MS) return;
    if (written.size >= REMEMBERED) written.clear();
    written.set(principal.userId, now);
    const row = {
      lastSeenAt: new Date(now),
      via: principal.via,
      keyId: principal.keyId ?? null,
      clientId: principal.clientId ?? null,
    };
    try {
      await deps.db
        .insert(syncV1Callers)
        .values({ userId: principal.userId, ...row })
        .onConflictDoUpdate({ target: syncV1Callers.userId, set: row });
    } catch (e) {
      // A record of use never fails the call it records.
      written.delete(principal.userId);
      deps.log.warn("could not record a sync v1 call", { userId: principal.userId, error: (e as Error).message });
    }
  };
}

export interface ReminderRun {
  reminded: number;
  /** Why nothing was sent: before the reminder date, or the sunset already passed. */
  skipped?: "before_reminder_date" | "after_sunset";
}

/**
 * Mails every account that called v1 and was not reminded yet, once: on or after
 * SYNC_V1_REMINDER_AT and before SYNC_V1_SUNSET_AT, or at any time with `force` (the
 * operator's command). Each account's row is claimed and its message queued in one
 * transaction, so two runs at once, or a run after a crash, never send twice.
 */
export async function remindV1Callers(deps: Pick<Deps, "db" | "clock" | "config">, opts: { force?: boolean } = {}): Promise<ReminderRun> {
  const now = deps.clock.now();
  const sunset = new Date(deps.config.SYNC_V1_SUNSET_AT);
  if (!opts.force) {
    if (now < new Date(deps.config.SYNC_V1_REMINDER_AT)) return { reminded: 0, skipped: "before_reminder_date" };
    if (now >= sunset) return { reminded: 0, skipped: "after_sunset" };
  }
  let reminded = 0;
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const claimed = await tx
        .update(syncV1Callers)
        .set({ remindedAt: now })
        .where(
          and(
            isNull(syncV1Callers.remindedAt),
            inArray(
              syncV1Callers.userId,
              tx
                .select({ userId: syncV1Callers.userId })
                .from(syncV1Callers)
                .where(isNull(syncV1Callers.remindedAt))
                .limit(BATCH)
                .for("update", { skipLocked: true }),
            ),
          ),
        )
        .returning({ userId: syncV1Callers.userId, lastSeenAt: syncV1Callers.lastSeenAt });
      await notify(
        tx,
        claimed.map((c) => ({
          kind: V1_REMINDER_KIND,
          userId: c.userId,
          payload: { sunsetAt: sunset.toISOString(), lastSeenAt: c.lastSeenAt.toISOString() },
        })),
        now,
      );
      return claimed.length;
    });
    if (batch === 0) return { reminded };
    reminded += batch;
  }
}
