// Two factors: a TOTP secret (RFC 6238, the otpauth library) and single-use recovery codes.
//
// The secret is sealed at rest with AES-256-GCM under a key derived from JWT_SECRET (HKDF,
// its own label), so a copy of the database or a backup alone does not give the codes;
// rotating JWT_SECRET turns every account's two factors off in effect (docs/security.md).
// A code is accepted once: the step it belongs to is stored, and a code of that step or an
// earlier one is refused, decided by one conditional update so two uses racing cannot both
// pass. Recovery codes are stored as their SHA-256 (each is 50 random bits, shown once) and
// removed as they are used, again by a conditional update.
//
// Wrong codes on the signed-in routes (confirm, turn off, new recovery codes) are counted per
// account: past MAX_CODE_FAILURES in a window they are refused, so a stolen session cannot
// guess the code that would turn two factors off.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import QRCode from "qrcode";
import type { Deps } from "../../core/deps.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { AppError, rateLimited, validationError } from "../../core/errors.ts";
import { passkeys, users } from "./table.ts";
import type { Tell } from "./tell.ts";
import { sha256Hex } from "./tokens.ts";
import { requireUser, type User } from "./users.ts";
import { passwordMatches } from "./password.ts";

const RECOVERY_CODE_COUNT = 10;
const PERIOD_S = 30;
/** A code of the step before or after the server's is accepted too: clocks drift. */
const WINDOW_STEPS = 1;
const MAX_CODE_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;
const ISSUER = "shelf";

function keyOf(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", jwtSecret, "shelf", "totp-secret-seal", 32));
}

/** The base32 secret sealed: "v1.<iv>.<tag>.<ciphertext>", base64url parts. */
function sealSecret(jwtSecret: string, base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(jwtSecret), iv);
  const body = Buffer.concat([cipher.update(base32, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

function openSecret(jwtSecret: string, sealed: string): string {
  const [, iv, tag, body] = sealed.split(".");
  const decipher = createDecipheriv("aes-256-gcm", keyOf(jwtSecret), Buffer.from(iv ?? "", "base64url"));
  decipher.setAuthTag(Buffer.from(tag ?? "", "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body ?? "", "base64url")), decipher.final()]).toString("utf8");
}

export const totpOf = (base32: string, label: string) =>
  new OTPAuth.TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: PERIOD_S, secret: OTPAuth.Secret.fromBase32(base32) });

/** The time step a code belongs to at `nowMs`, or null when it is no code of the secret near then. */
function stepOf(base32: string, code: string, nowMs: number): number | null {
  const token = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(base32, "x").validate({ token, timestamp: nowMs, window: WINDOW_STEPS });
  return delta === null ? null : Math.floor(nowMs / 1000 / PERIOD_S) + delta;
}

const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");

export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = OTPAuth.Secret.fromHex(randomBytes(7).toString("hex")).base32.slice(0, 10).toLowerCase();
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  return { codes, hashes: codes.map((c) => sha256Hex(normalizeRecovery(c))) };
}

/**
 * Spends a TOTP code of the account's secret in force: true when it is right and of a step
 * later than any accepted before (the step is then recorded), false otherwise.
 */
export async function spendTotp(deps: Deps, user: User, code: string): Promise<boolean> {
  if (!user.totpSecret) return false;
  const step = stepOf(openSecret(deps.config.JWT_SECRET, user.totpSecret), code, deps.clock.nowMs());
  if (step === null) return false;
  const [spent] = await deps.db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return spent !== undefined;
}

/** Spends a recovery code: true when it was one of the account's unused ones (it is used now). */
export async function spendRecoveryCode(deps: Deps, userId: string, code: string): Promise<{ left: number } | null> {
  const hash = sha256Hex(normalizeRecovery(code));
  const [spent] = await deps.db
    .update(users)
    .set({ recoveryCodes: sql`array_remove(${users.recoveryCodes}, ${hash})` })
    .where(and(eq(users.id, userId), sql`${hash} = any(${users.recoveryCodes})`))
    .returning({ codes: users.recoveryCodes });
  return spent ? { left: spent.codes.length } : null;
}

/** Counts a wrong code on a signed-in route; 429 past MAX_CODE_FAILURES in the window. */
async function assertCodeTriesLeft(deps: Deps, userId: string, failed: boolean) {
  const key = `2fa-fail:${userId}:${Math.floor(deps.clock.nowMs() / FAILURE_WINDOW_MS)}`;
  let n: number;
  try {
    n = failed ? await deps.kv.incr(key, 1, 2 * FAILURE_WINDOW_MS) : Number((await deps.kv.get(key)) ?? 0);
  } catch {
    throw new AppError("SERVICE_UNAVAILABLE", "this is briefly unavailable; try again shortly", {}, { "retry-after": "30" });
  }
  if (n > MAX_CODE_FAILURES || (!failed && n >= MAX_CODE_FAILURES)) {
    throw rateLimited(
      "too many wrong codes; try again later",
      { type: "two_factor_codes", limit: MAX_CODE_FAILURES },
      { limit: MAX_CODE_FAILURES, resetMs: FAILURE_WINDOW_MS },
    );
  }
}

const wrongCode = () => validationError("body.code", "this code is not right: enter the code your authenticator app shows now");

/** A code of the account's secret in force, else 422 (counted). */
async function requireCode(deps: Deps, user: User, code: string) {
  await assertCodeTriesLeft(deps, user.id, false);
  if (await spendTotp(deps, user, code)) return;
  await assertCodeTriesLeft(deps, user.id, true);
  throw wrongCode();
}

/** A new secret, pending until a code of it is confirmed: 409 when two factors are on already. */
export async function enrolTotp(deps: Deps, userId: string): Promise<{ secret: string; otpauthUrl: string; qrCode: string }> {
  const user = await requireUser(deps.db, userId);
  if (user.totpSecret) throw new AppError("CONFLICT", "two-factor authentication is on already; turn it off first to enrol another authenticator");
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await deps.db
    .update(users)
    .set({ totpPendingSecret: sealSecret(deps.config.JWT_SECRET, secret), updatedAt: deps.clock.now() })
    .where(eq(users.id, userId));
  const otpauthUrl = totpOf(secret, user.email).toString();
  // An SVG drawn here, so the dashboard ships no QR encoder and an <img> shows it (no markup inserted).
  const svg = await QRCode.toString(otpauthUrl, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return { secret, otpauthUrl, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

/** A code of the pending secret puts it in force; the new recovery codes, shown this once. */
export async function confirmTotp(deps: Deps, userId: string, code: string, tell: Tell): Promise<{ recoveryCodes: string[] }> {
  const user = await requireUser(deps.db, userId);
  if (!user.totpPendingSecret) throw new AppError("CONFLICT", "there is no authenticator waiting for its first code: enrol one first");
  await assertCodeTriesLeft(deps, userId, false);
  const step = stepOf(openSecret(deps.config.JWT_SECRET, user.totpPendingSecret), code, deps.clock.nowMs());
  if (step === null) {
    await assertCodeTriesLeft(deps, userId, true);
    throw wrongCode();
  }
  const { codes, hashes } = newRecoveryCodes();
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [done] = await tx
      .update(users)
      .set({ totpSecret: user.totpPendingSecret, totpPendingSecret: null, totpLastStep: step, recoveryCodes: hashes, updatedAt: now })
      .where(and(eq(users.id, userId), eq(users.totpPendingSecret, user.totpPendingSecret!)))
      .returning({ id: users.id });
    if (!done) throw new AppError("CONFLICT", "the authenticator changed meanwhile; enrol again");
    await tell(tx, [{ kind: "two_factor_enabled", userId, payload: {} }], now);
  });
  return { recoveryCodes: codes };
}

/**
 * The owner asked again before a change to their factors: the password (401 when wrong) or
 * a current TOTP code (422 when wrong, counted); 422 when neither is given.
 */
export async function requireFreshProof(deps: Deps, user: User, proof: { password?: string; code?: string }): Promise<void> {
  if (proof.password !== undefined) {
    if (!(await passwordMatches(proof.password, user.passwordHash))) throw new AppError("UNAUTHORIZED", "wrong password");
  } else if (proof.code !== undefined) await requireCode(deps, user, proof.code);
  else throw validationError("body", "give the password or a current code");
}

/** Turns two factors off with the password or a current code: 401 for a wrong password, 422 for a wrong code. */
export async function disableTwoFactor(deps: Deps, userId: string, proof: { password?: string; code?: string }, tell: Tell): Promise<void> {
  const user = await requireUser(deps.db, userId);
  if (!user.totpSecret && !user.totpPendingSecret) return;
  await requireFreshProof(deps, user, proof);
  const now = deps.clock.now();
  // With a passkey left, two factors stay on through it, and so do the recovery codes.
  const keepCodes = await hasPasskey(deps.db, userId);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null, ...(keepCodes ? {} : { recoveryCodes: [] }), updatedAt: now })
      .where(eq(users.id, userId));
    if (user.totpSecret) await tell(tx, [{ kind: "two_factor_disabled", userId, payload: {} }], now);
  });
}

/** New recovery codes for a current code; the old ones stop working. */
export async function regenerateRecoveryCodes(deps: Deps, userId: string, code: string): Promise<{ recoveryCodes: string[] }> {
  const user = await requireUser(deps.db, userId);
  if (!user.totpSecret) throw new AppError("CONFLICT", "two-factor authentication is off: there are no recovery codes to replace");
  await requireCode(deps, user, code);
  const { codes, hashes } = newRecoveryCodes();
  await deps.db.update(users).set({ recoveryCodes: hashes, updatedAt: deps.clock.now() }).where(eq(users.id, userId));
  return { recoveryCodes: codes };
}

/** Whether the account has a passkey (it counts as a second factor). */
async function hasPasskey(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1);
  return row !== undefined;
}
