// How identity tells its user about a security event (an API key created or revoked, the
// password changed) without importing the notifications module, which reads identity's
// users: the wiring hands identity's routes the notifications module's notify (services.ts),
// and identity calls it in the transaction of the change.
import type { DbOrTx } from "../../infra/db/index.ts";
import type { AccountMailKind, NotificationKind } from "./notification-settings.ts";

interface Notice {
  kind: NotificationKind | AccountMailKind;
  userId: string;
  payload: Record<string, unknown>;
}

/** Records notices in the caller's transaction (notifications' notify). */
export type Tell = (tx: DbOrTx, notices: readonly Notice[], now: Date) => Promise<unknown>;

/**
 * Starts work the request does not wait for (identity.ts): a mail whose writing would, by the
 * answer's time, tell whether an address has an account.
 */
export type AfterAnswer = (what: string, work: () => Promise<void>) => void;
