// An account's passkeys (WebAuthn credentials, @simplewebauthn/server): adding one (options,
// then the authenticator's answer checked), listing, renaming and removing them.
//
// A passkey signs in alone (a discoverable credential with user verification: something
// held and something known or been) or is the second step after the password (sign-in.ts).
// The first factor an account adds beyond its password brings recovery codes, as turning on
// TOTP does, so losing the one authenticator does not lock the owner out; removing the last
// factor takes them away, and the password alone signs in again.
import type { RegistrationResponseJSON, verifyRegistrationResponse } from "@simplewebauthn/server";
import { webauthn } from "./webauthn.ts";
import { and, count, eq, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { keysetPage } from "../../core/cursor.ts";
import { AppError, notFound, validationError } from "../../core/errors.ts";
import { iso, isoOrNull } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { newId } from "../../infra/ids.ts";
import { newChallenge, PASSKEY_CHALLENGE_TTL_MS, passkeyInvalid, RP_NAME, reasonOf, type RelyingParty, takeChallenge } from "./passkey-ceremony.ts";
import { passkeys, users } from "./table.ts";
import type { Tell } from "./tell.ts";
import { newRecoveryCodes, requireFreshProof } from "./two-factor.ts";
import { requireUser } from "./users.ts";

/** At most this many passkeys per account. */
const MAX_PASSKEYS = 20;

type Row = typeof passkeys.$inferSelect;

const toPasskeyItem = (r: Pick<Row, "id" | "name" | "deviceType" | "backedUp" | "createdAt" | "lastUsedAt">) => ({
  id: r.id,
  name: r.name,
  deviceType: r.deviceType,
  backedUp: r.backedUp,
  createdAt: iso(r.createdAt),
  lastUsedAt: isoOrNull(r.lastUsedAt),
});

/** The credential ids (and transports) of an account's passkeys, for an assertion's allow list. */
export async function passkeysOf(db: DbOrTx, userId: string): Promise<{ id: string; transports: string[] }[]> {
  return db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, userId));
}

async function countOf(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return Number(row?.n ?? 0);
}

/** Options for navigator.credentials.create(): a discoverable credential for this account, its own passkeys excluded. */
export async function registrationOptions(deps: Deps, rp: RelyingParty, userId: string) {
  const user = await requireUser(deps.db, userId);
  const existing = await passkeysOf(deps.db, userId);
  if (existing.length >= MAX_PASSKEYS) throw new AppError("CONFLICT", `an account holds at most ${MAX_PASSKEYS} passkeys: remove one first`);
  const challenge = await newChallenge(deps, "register", userId);
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpId,
    userName: user.email,
    userDisplayName: user.nickname ?? user.email,
    userID: new TextEncoder().encode(user.id),
    challenge,
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    supportedAlgorithmIDs: [-7, -257, -8],
  });
  return { options };
}

/**
 * Checks the authenticator's answer to registrationOptions and stores the passkey under
 * `name`; tells the owner (passkey_added). The recovery codes, when this passkey is the
 * account's first factor beyond the password (shown this once), else null. 422
 * PASSKEY_INVALID for an answer that does not verify.
 */
export async function addPasskey(deps: Deps, rp: RelyingParty, userId: string, body: { name: string; response: RegistrationResponseJSON }, tell: Tell) {
  const user = await requireUser(deps.db, userId);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await (await webauthn()).verifyRegistrationResponse({
      response: body.response,
      expectedChallenge: (challenge) => takeChallenge(deps, challenge, "register", userId),
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpId,
      requireUserVerification: false,
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw passkeyInvalid(reasonOf(e), "this passkey could not be added: its answer is not accepted; try again");
  }
  if (!verified.verified) throw passkeyInvalid("signature", "this passkey could not be added: its answer is not accepted; try again");
  const info = verified.registrationInfo;
  const now = deps.clock.now();
  const row: Row = {
    id: newId(),
    userId,
    credentialId: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
    counter: info.credential.counter,
    transports: (info.credential.transports ?? []).slice(0, 8),
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    name: body.name.trim(),
    createdAt: now,
    lastUsedAt: null,
  };
  const firstFactor = !user.totpSecret && user.recoveryCodes.length === 0;
  const recovery = firstFactor ? newRecoveryCodes() : null;
  await deps.db.transaction(async (tx) => {
    if ((await countOf(tx, userId)) >= MAX_PASSKEYS) throw new AppError("CONFLICT", `an account holds at most ${MAX_PASSKEYS} passkeys: remove one first`);
    const [added] = await tx.insert(passkeys).values(row).onConflictDoNothing().returning({ id: passkeys.id });
    if (!added) throw new AppError("CONFLICT", "this passkey is added already");
    if (recovery) await tx.update(users).set({ recoveryCodes: recovery.hashes, updatedAt: now }).where(eq(users.id, userId));
    await tell(tx, [{ kind: "passkey_added", userId, payload: { name: row.name } }], now);
  });
  return { passkey: toPasskeyItem(row), recoveryCodes: recovery?.codes ?? null };
}

/** A page of the account's passkeys, newest first. */
export function listPasskeys(deps: Deps, userId: string, q: { cursor?: string; limit: number }) {
  return keysetPage(
    deps.db,
    {
      from: passkeys,
      columns: ["id", "name", "deviceType", "backedUp", "createdAt", "lastUsedAt"],
      shape: "by_user",
      where: () => eq(passkeys.userId, sql.placeholder("userId")),
      params: { userId },
      sort: ["createdAt", "id"],
      cursor: q.cursor,
      limit: q.limit,
    },
    toPasskeyItem,
  );
}

export async function renamePasskey(deps: Deps, userId: string, id: string, name: string) {
  const [row] = await deps.db
    .update(passkeys)
    .set({ name: name.trim() })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  if (!row) throw notFound("passkey");
  return toPasskeyItem(row);
}

/**
 * Removes a passkey with the password or a current TOTP code (as turning TOTP off asks);
 * tells the owner (passkey_removed). When it was the account's last factor beyond the
 * password, the recovery codes go with it: the password alone signs in again.
 */
export async function removePasskey(deps: Deps, userId: string, id: string, proof: { password?: string; code?: string }, tell: Tell): Promise<void> {
  const user = await requireUser(deps.db, userId);
  const [row] = await deps.db
    .select({ id: passkeys.id, name: passkeys.name })
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)));
  if (!row) throw notFound("passkey");
  if (proof.password === undefined && proof.code === undefined) throw validationError("body", "give the password or a current code");
  await requireFreshProof(deps, user, proof);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning({ id: passkeys.id });
    if (!gone) throw notFound("passkey");
    const last = (await countOf(tx, userId)) === 0;
    if (last && !user.totpSecret) await tx.update(users).set({ recoveryCodes: [], updatedAt: now }).where(eq(users.id, userId));
    await tell(tx, [{ kind: "passkey_removed", userId, payload: { name: row.name, lastFactor: last && !user.totpSecret } }], now);
  });
}
