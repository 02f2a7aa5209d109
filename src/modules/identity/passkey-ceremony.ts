// The WebAuthn ceremonies' shared rules (@simplewebauthn/server): who the relying party is,
// the challenges, and the check of an assertion against a stored passkey.
//
// The relying party ID is PASSKEY_RP_ID, else the host of CENTER_URL as the request sees it
// (with PUBLIC_URL unset, the address it came to); an answer is accepted from the origins of
// CENTER_URL and PUBLIC_URL (the dashboard, the consent and device pages) and no other.
//
// A challenge is 32 random bytes, stored in the kv (shared by every api node) for five
// minutes with what it is for (a registration, a sign-in, a second step) and whose it is;
// it is taken once: the first answer that names it marks it used by an atomic increment, so
// a replayed answer, or two racing, cannot both pass.
import { randomBytes } from "node:crypto";
import type { AuthenticationResponseJSON, verifyAuthenticationResponse } from "@simplewebauthn/server";
import { webauthn } from "./webauthn.ts";
import { and, eq, sql } from "drizzle-orm";
import type { Config } from "../../config.ts";
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import { passkeys } from "./table.ts";
import { sha256Hex } from "./tokens.ts";

export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
export const RP_NAME = "shelf";

export type CeremonyPurpose = "register" | "sign_in" | "second_factor";

export interface RelyingParty {
  rpId: string;
  origins: string[];
}

/** The relying party of a request's addresses (addressesOf). */
export function relyingPartyOf(config: Pick<Config, "PASSKEY_RP_ID">, addresses: { CENTER_URL: string; PUBLIC_URL: string }): RelyingParty {
  const center = new URL(addresses.CENTER_URL);
  const origins = [...new Set([center.origin, new URL(addresses.PUBLIC_URL).origin])];
  return { rpId: config.PASSKEY_RP_ID ?? center.hostname, origins };
}

export const passkeyInvalid = (reason: string, message = "this passkey's answer is not accepted: try again, or use another way to sign in") =>
  new AppError("PASSKEY_INVALID", message, { reason });

const unavailable = () => new AppError("SERVICE_UNAVAILABLE", "passkeys are briefly unavailable; try again shortly", {}, { "retry-after": "30" });

interface StoredCeremony {
  purpose: CeremonyPurpose;
  userId: string | null;
  expiresAtMs: number;
}

const keyOf = (challenge: string) => `passkey-challenge:${sha256Hex(challenge)}`;

/**
 * A new challenge for `purpose`, bound to `userId` when the ceremony is one account's: its
 * bytes, for the options (which carry them base64url, the form an answer names them in).
 */
export async function newChallenge(deps: Pick<Deps, "kv" | "clock">, purpose: CeremonyPurpose, userId: string | null): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = new Uint8Array(randomBytes(32));
  const challenge = Buffer.from(bytes).toString("base64url");
  const stored: StoredCeremony = { purpose, userId, expiresAtMs: deps.clock.nowMs() + PASSKEY_CHALLENGE_TTL_MS };
  try {
    await deps.kv.set(keyOf(challenge), JSON.stringify(stored), PASSKEY_CHALLENGE_TTL_MS);
  } catch {
    throw unavailable();
  }
  return bytes;
}

/**
 * Takes the challenge an answer names: true once, when it was issued for `purpose` (and
 * `userId`, when given), has not expired and was not taken before.
 */
export async function takeChallenge(deps: Pick<Deps, "kv" | "clock">, challenge: string, purpose: CeremonyPurpose, userId?: string): Promise<boolean> {
  if (typeof challenge !== "string" || challenge.length === 0 || challenge.length > 128) return false;
  const key = keyOf(challenge);
  try {
    const raw = await deps.kv.get(key);
    if (raw === null) return false;
    const stored = JSON.parse(raw) as StoredCeremony;
    if (stored.purpose !== purpose || stored.expiresAtMs <= deps.clock.nowMs()) return false;
    if (userId !== undefined && stored.userId !== userId) return false;
    const uses = await deps.kv.incr(`${key}:used`, 1, PASSKEY_CHALLENGE_TTL_MS);
    return uses === 1;
  } catch {
    throw unavailable();
  }
}

/** Why the library refused an answer, as a stable word for meta.reason. */
export function reasonOf(e: unknown): string {
  const m = e instanceof Error ? e.message : "";
  if (/challenge/i.test(m)) return "challenge";
  if (/origin/i.test(m)) return "origin";
  if (/RP ID/i.test(m)) return "rp_id";
  if (/counter/i.test(m)) return "counter";
  if (/user verif/i.test(m)) return "user_verification";
  if (/signature/i.test(m)) return "signature";
  return "malformed";
}

export type PasskeyRow = typeof passkeys.$inferSelect;

const passkeyByCredentialQuery = (db: DbOrTx) =>
  db
    .select()
    .from(passkeys)
    .where(eq(passkeys.credentialId, sql.placeholder("credentialId")))
    .limit(1)
    .prepare("passkey_by_credential");

/** The passkey of a credential id (a prepared statement: every passkey sign-in asks it). */
export async function passkeyByCredential(db: DbOrTx, credentialId: string): Promise<PasskeyRow | undefined> {
  const [row] = await prepared(db, "passkey_by_credential", passkeyByCredentialQuery).execute({ credentialId });
  return row;
}

/**
 * Checks an assertion: for `purpose` (its challenge taken once), from one of the relying
 * party's origins and for its RP ID, signed by a stored passkey (of `userId`, when given)
 * with a counter above the one last seen. The passkey, its counter and last use recorded;
 * 422 PASSKEY_INVALID (meta.reason) otherwise.
 */
export async function verifyAssertion(
  deps: Deps,
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  o: { purpose: CeremonyPurpose; userId?: string; requireUserVerification: boolean },
): Promise<PasskeyRow> {
  const passkey = typeof response?.id === "string" && response.id.length <= 1024 ? await passkeyByCredential(deps.db, response.id) : undefined;
  if (!passkey || (o.userId !== undefined && passkey.userId !== o.userId)) throw passkeyInvalid("credential", "this passkey is not one of this account's");
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await (await webauthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => takeChallenge(deps, challenge, o.purpose, o.purpose === "sign_in" ? undefined : passkey.userId),
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpId,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
        counter: passkey.counter,
        transports: passkey.transports as never,
      },
      requireUserVerification: o.requireUserVerification,
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw passkeyInvalid(reasonOf(e));
  }
  if (!verified.verified) throw passkeyInvalid("signature");
  const { newCounter, credentialBackedUp } = verified.authenticationInfo;
  // Conditional on the counter read: of two answers racing with the same counter, one passes.
  const [moved] = await deps.db
    .update(passkeys)
    .set({ counter: newCounter, backedUp: credentialBackedUp, lastUsedAt: deps.clock.now() })
    .where(and(eq(passkeys.id, passkey.id), eq(passkeys.counter, passkey.counter)))
    .returning({ id: passkeys.id });
  if (!moved) throw passkeyInvalid("counter");
  return passkey;
}
