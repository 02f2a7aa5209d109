// Revoked credentials are announced to every node, which drops its cached copy at once
//. The messages are `<kind>:<id>` on one channel; nodes of two versions
// running side by side during a deploy must keep understanding each other.
import type { Deps } from "../../core/deps.ts";
import { broadcast, type Listening, listen } from "../../infra/broadcast.ts";

const REVOCATIONS = "auth:revocations";

/**
 * "key": an API key, by its hash; "session": a JWT session, by its id; "user": a deleted
 * account, by its id: every token of it, of every kind (OAuth's too, which identity does
 * not list). A node of an older version ignores the kind it does not know; the account's
 * keys and sessions are still announced one by one for it.
 */
export type RevokedKind = "key" | "session" | "user";

export const announceRevoked = (deps: Pick<Deps, "kv" | "log">, kind: RevokedKind, id: string) => broadcast(deps, REVOCATIONS, `${kind}:${id}`);

/** Calls `forget[kind](id)` for every revocation announced here or on another node, until closed. */
export function onRevoked(deps: Pick<Deps, "kv" | "log">, forget: Record<RevokedKind, (id: string) => void>): Listening {
  return listen(deps, REVOCATIONS, (message) => {
    const [kind, id] = message.split(":");
    if (id && (kind === "key" || kind === "session" || kind === "user")) forget[kind](id);
  });
}
