// Signing in with an email and a password, wherever the form is (the API's /v1/auth/login,
// the server-rendered pages): the attempt is counted (login-limit.ts) before the password
// is checked, a success opens a session and hands the browser a fresh device proof, and a
// failure past the account's threshold tells the owner, once per window.
//
// With two factors on, the right password opens no session: it is answered 401
// TWO_FACTOR_REQUIRED with a challenge (meta.challenge), a random token stored in the kv for
// five minutes and bound to the account. The challenge and a code (or a recovery code) then
// complete the sign-in (completeSignIn). Every caller of signInWithPassword, the API and the
// server-rendered pages alike, thus gets no session from the password alone. The password's
// attempt stays counted in the login limiter until the code is right, each code tried is
// counted there too, and a challenge takes at most MAX_CHALLENGE_TRIES codes.
//
// A passkey counts as a second factor: with one on the account the challenge's answer
// offers it (meta.methods, meta.passkey: the options for navigator.credentials.get), and
// an assertion of one of the account's passkeys completes the sign-in as a code does. A
// passkey also signs in alone (signInWithPasskey), with the same limits, cookies, notices
// and session as a password and its second step.
import { randomBytes } from "node:crypto";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { webauthn } from "./webauthn.ts";
import type { Deps } from "../../core/deps.ts";
import { AppError, rateLimited } from "../../core/errors.ts";
import { deviceOf, issueDeviceProof } from "./device-proof.ts";
import { deviceName, familiarDevice } from "./devices.ts";
import { type CountedAttempt, createLoginLimiter, LOGIN_WINDOW_MS } from "./login-limit.ts";
import { login, type SessionGrant, verifyCredentials } from "./sessions.ts";
import type { Tell } from "./tell.ts";
import type { TokenSigner } from "./tokens.ts";
import { sha256Hex } from "./tokens.ts";
import { newChallenge, PASSKEY_CHALLENGE_TTL_MS, passkeyByCredential, type RelyingParty, verifyAssertion } from "./passkey-ceremony.ts";
import { passkeysOf } from "./passkeys.ts";
import { spendRecoveryCode, spendTotp } from "./two-factor.ts";
import { getUser, getUserByEmail, normalizeEmail, type User } from "./users.ts";

const CHALLENGE_TTL_MS = 5 * 60_000;
export const MAX_CHALLENGE_TRIES = 5;

export interface SignInInput {
  email: string;
  password: string;
  ip: string;
  /** The browser's User-Agent, recorded with the session. */
  userAgent?: string;
  /** The device cookie the browser sent, if any. */
  deviceProof?: string;
  /** The relying party passkeys answer for at this request's address (passkey-ceremony.ts). */
  rp: RelyingParty;
}

/**
 * 401 UNAUTHORIZED for a wrong email or password, 429 over the login limits, 503 when they
 * cannot be counted. `deviceProof` of the answer is the browser's new device cookie.
 */
export async function signInWithPassword(deps: Deps, signer: TokenSigner, input: SignInInput, tell: Tell): Promise<SessionGrant & { deviceProof: string }> {
  const limiter = createLoginLimiter(deps.kv, deps.clock);
  const email = normalizeEmail(input.email);
  const secret = deps.config.JWT_SECRET;
  const device = deviceOf(secret, email, input.deviceProof);
  const counted = await limiter.countAttempt({ email, ip: input.ip, device });
  let user: User;
  try {
    user = await verifyCredentials(deps, email, input.password);
  } catch (e) {
    if (e instanceof AppError && e.code === "UNAUTHORIZED") await tellOwner(deps, limiter, counted, email, tell);
    throw e;
  }
  if (user.mustVerifyEmail) {
    await limiter.recordSuccess(counted);
    throw new AppError("EMAIL_NOT_VERIFIED", "confirm your e-mail address first: open the link mailed to it, or ask for a new one");
  }
  await askSecondStep(deps, user, { email, count: async () => counted, rp: input.rp });
  await limiter.recordSuccess(counted);
  return openSignedIn(deps, signer, user, { email, device, userAgent: input.userAgent, ip: input.ip }, tell);
}

/**
 * With two factors on (an authenticator app, passkeys, or both), no session yet: 401
 * TWO_FACTOR_REQUIRED with a challenge, the methods the account has, and a passkey's
 * options when it has one; completeSignIn completes it. Nothing when two factors are off.
 */
async function askSecondStep(deps: Deps, user: User, c: { email: string; count: () => Promise<CountedAttempt>; rp: RelyingParty }): Promise<void> {
  const keys = await passkeysOf(deps.db, user.id);
  if (!user.totpSecret && keys.length === 0) return;
  const challenge = await issueChallenge(deps, { userId: user.id, email: c.email, counted: await c.count() });
  const methods = [...(user.totpSecret ? ["totp"] : []), ...(keys.length > 0 ? ["passkey"] : []), ...(user.recoveryCodes.length > 0 ? ["recovery_code"] : [])];
  const passkey =
    keys.length > 0
      ? await (await webauthn()).generateAuthenticationOptions({
          rpID: c.rp.rpId,
          challenge: await newChallenge(deps, "second_factor", user.id),
          allowCredentials: keys.map((k) => ({ id: k.id, transports: k.transports as never })),
          userVerification: "preferred",
          timeout: PASSKEY_CHALLENGE_TTL_MS,
        })
      : null;
  throw new AppError(
    "TWO_FACTOR_REQUIRED",
    user.totpSecret
      ? "enter the code of your authenticator app, use a passkey, or one of your recovery codes"
      : "use your passkey, or one of your recovery codes",
    { challenge, expiresIn: CHALLENGE_TTL_MS / 1000, methods, passkey },
  );
}

/**
 * Signs in an account whose owner the instance's OpenID provider vouched for (the oidc
 * module's callback): no password, and no login limit to count, as no secret was guessed
 * here. Two factors on, the provider's sign-in is the first factor only: the answer is
 * 401 TWO_FACTOR_REQUIRED with a challenge, as after a right password, and completeSignIn
 * completes it (docs/decisions/oidc-sign-in.md).
 */
export async function signInThroughProvider(
  deps: Deps,
  signer: TokenSigner,
  user: User,
  input: Omit<SignInInput, "email" | "password">,
  tell: Tell,
): Promise<SessionGrant & { deviceProof: string }> {
  const device = deviceOf(deps.config.JWT_SECRET, user.email, input.deviceProof);
  if (user.mustVerifyEmail) throw new AppError("EMAIL_NOT_VERIFIED", "confirm your e-mail address first: open the link mailed to it, or ask for a new one");
  // The second step's code is a sign-in attempt, counted as a password's; none is counted without one.
  const count = () => createLoginLimiter(deps.kv, deps.clock).countAttempt({ email: user.email, ip: input.ip, device });
  await askSecondStep(deps, user, { email: user.email, count, rp: input.rp });
  return openSignedIn(deps, signer, user, { email: user.email, device, userAgent: input.userAgent, ip: input.ip }, tell);
}

interface StoredChallenge {
  userId: string;
  email: string;
  counted: CountedAttempt;
  expiresAtMs: number;
}

const challengeKey = (token: string) => `2fa-challenge:${sha256Hex(token)}`;

async function issueChallenge(deps: Deps, c: Omit<StoredChallenge, "expiresAtMs">): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const stored: StoredChallenge = { ...c, expiresAtMs: deps.clock.nowMs() + CHALLENGE_TTL_MS };
  try {
    await deps.kv.set(challengeKey(token), JSON.stringify(stored), CHALLENGE_TTL_MS);
  } catch {
    throw new AppError("SERVICE_UNAVAILABLE", "sign-in is briefly unavailable; try again shortly", {}, { "retry-after": "30" });
  }
  return token;
}

export interface SecondFactorInput {
  challenge: string;
  /** A code of the authenticator app; or else `recoveryCode`, or a passkey's assertion. */
  code?: string;
  recoveryCode?: string;
  passkey?: AuthenticationResponseJSON;
  rp: RelyingParty;
  ip: string;
  userAgent?: string;
  deviceProof?: string;
}

const challengeGone = () => new AppError("UNAUTHORIZED", "this sign-in has expired or was used up; sign in again with your password");

/**
 * Completes a sign-in the password began with its challenge and a code or a recovery code:
 * the session, as signInWithPassword's success. 401 UNAUTHORIZED for a wrong code, a
 * challenge unknown, expired or past its tries; 429 or 503 from the login limits.
 */
export async function completeSignIn(deps: Deps, signer: TokenSigner, input: SecondFactorInput, tell: Tell): Promise<SessionGrant & { deviceProof: string }> {
  const key = challengeKey(input.challenge);
  let stored: StoredChallenge;
  let tries: number;
  try {
    const raw = await deps.kv.get(key);
    if (raw === null) throw challengeGone();
    stored = JSON.parse(raw) as StoredChallenge;
    tries = await deps.kv.incr(`${key}:tries`, 1, CHALLENGE_TTL_MS);
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError("SERVICE_UNAVAILABLE", "sign-in is briefly unavailable; try again shortly", {}, { "retry-after": "30" });
  }
  if (stored.expiresAtMs <= deps.clock.nowMs() || tries > MAX_CHALLENGE_TRIES) {
    await deps.kv.del(key).catch(() => {});
    throw challengeGone();
  }
  const limiter = createLoginLimiter(deps.kv, deps.clock);
  const secret = deps.config.JWT_SECRET;
  const device = deviceOf(secret, stored.email, input.deviceProof);
  const counted = await limiter.countAttempt({ email: stored.email, ip: input.ip, device });
  const user = await getUser(deps.db, stored.userId);
  if (!user) throw challengeGone();
  const withPasskey = (await passkeysOf(deps.db, user.id)).length > 0;
  if (!user.totpSecret && !withPasskey) throw challengeGone();
  let recovered: { left: number } | null = null;
  if (input.passkey !== undefined) {
    try {
      await verifyAssertion(deps, input.rp, input.passkey, { purpose: "second_factor", userId: user.id, requireUserVerification: false });
    } catch (e) {
      if (!(e instanceof AppError) || e.code !== "PASSKEY_INVALID") throw e;
      await tellOwner(deps, limiter, counted, stored.email, tell);
      throw new AppError("PASSKEY_INVALID", e.message, { ...e.meta, triesLeft: MAX_CHALLENGE_TRIES - tries });
    }
  } else {
    const right =
      input.code !== undefined
        ? await spendTotp(deps, user, input.code)
        : input.recoveryCode !== undefined && (recovered = await spendRecoveryCode(deps, user.id, input.recoveryCode)) !== null;
    if (!right) {
      await tellOwner(deps, limiter, counted, stored.email, tell);
      throw new AppError("UNAUTHORIZED", input.code !== undefined ? "wrong code" : "wrong recovery code", { triesLeft: MAX_CHALLENGE_TRIES - tries });
    }
  }
  await deps.kv.del(key).catch(() => {});
  await limiter.recordSuccess(stored.counted);
  await limiter.recordSuccess(counted);
  if (recovered) await tellRecoveryCodeUsed(deps, user.id, recovered.left, tell);
  return openSignedIn(deps, signer, user, { email: stored.email, device, userAgent: input.userAgent, ip: input.ip }, tell);
}

/** Options for a passkey sign-in without the password (discoverable credentials: no allow list). */
/** Sign-in options one address may ask for a minute: each holds a challenge in the kv for five minutes. */
export const PASSKEY_OPTIONS_PER_MINUTE = 30;

/**
 * A passkey sign-in's options, with a challenge of its own. `ip`: the asking address, counted
 * (429 past PASSKEY_OPTIONS_PER_MINUTE); the pages, whose every view holds one, go without it.
 */
export async function passkeySignInOptions(deps: Deps, rp: RelyingParty, ip?: string) {
  if (ip !== undefined) {
    const window = await deps.kv.slidingWindow(`passkey-options:${ip}`, PASSKEY_OPTIONS_PER_MINUTE, 60_000, deps.clock.nowMs()).catch(() => null);
    if (window && !window.allowed)
      throw rateLimited(
        "too many passkey sign-ins begun from this address; wait a minute",
        { type: "passkey_options", limit: PASSKEY_OPTIONS_PER_MINUTE },
        { limit: PASSKEY_OPTIONS_PER_MINUTE, resetMs: 60_000 },
      );
  }
  const challenge = await newChallenge(deps, "sign_in", null);
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: rp.rpId,
    challenge,
    userVerification: "required",
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  return { options, expiresIn: PASSKEY_CHALLENGE_TTL_MS / 1000 };
}

export interface PasskeySignInInput {
  response: AuthenticationResponseJSON;
  ip: string;
  userAgent?: string;
  deviceProof?: string;
  rp: RelyingParty;
}

/**
 * Signs in with a passkey alone: an assertion of a stored passkey, made with user
 * verification for a sign-in challenge of this relying party. The session as a password's
 * (and its second step's) success; counted in the login limits of the passkey's account and
 * the address. 422 PASSKEY_INVALID for an answer not accepted, 429 or 503 from the limits.
 */
export async function signInWithPasskey(
  deps: Deps,
  signer: TokenSigner,
  input: PasskeySignInInput,
  tell: Tell,
): Promise<SessionGrant & { deviceProof: string }> {
  const limiter = createLoginLimiter(deps.kv, deps.clock);
  const credentialId = typeof input.response?.id === "string" ? input.response.id.slice(0, 1024) : "";
  const known = credentialId ? await passkeyByCredential(deps.db, credentialId) : undefined;
  const owner = known ? await getUser(deps.db, known.userId) : undefined;
  // An unknown credential is counted against the address (and a name of its own).
  const email = owner?.email ?? `passkey:${credentialId}`;
  const device = owner ? deviceOf(deps.config.JWT_SECRET, email, input.deviceProof) : undefined;
  const counted = await limiter.countAttempt({ email, ip: input.ip, device });
  try {
    await verifyAssertion(deps, input.rp, input.response, { purpose: "sign_in", requireUserVerification: true });
  } catch (e) {
    if (owner && e instanceof AppError && e.code === "PASSKEY_INVALID") await tellOwner(deps, limiter, counted, email, tell);
    throw e;
  }
  const user = owner;
  if (!user) throw new AppError("PASSKEY_INVALID", "this passkey's account is gone", { reason: "credential" });
  if (user.mustVerifyEmail) {
    await limiter.recordSuccess(counted);
    throw new AppError("EMAIL_NOT_VERIFIED", "confirm your e-mail address first: open the link mailed to it, or ask for a new one");
  }
  await limiter.recordSuccess(counted);
  return openSignedIn(deps, signer, user, { email, device, userAgent: input.userAgent, ip: input.ip }, tell);
}

/** The session of a sign-in whose every factor was right, and the browser's new device proof. */
async function openSignedIn(
  deps: Deps,
  signer: TokenSigner,
  user: User,
  c: { email: string; device?: string; userAgent?: string; ip: string },
  tell: Tell,
): Promise<SessionGrant & { deviceProof: string }> {
  const client = { userAgent: c.userAgent, address: c.ip };
  // Asked before the session opens: the new session would make the device familiar.
  const known = c.device !== undefined || (await familiarDevice(deps, user.id, client));
  const grant = await login(deps, signer, user, client);
  if (!known) await tellNewDevice(deps, user.id, client, tell);
  return { ...grant, deviceProof: issueDeviceProof(deps.config.JWT_SECRET, c.email) };
}

async function tellRecoveryCodeUsed(deps: Deps, userId: string, left: number, tell: Tell) {
  try {
    const now = deps.clock.now();
    await deps.db.transaction((tx) => tell(tx, [{ kind: "recovery_code_used", userId, payload: { left } }], now));
  } catch (err) {
    deps.log.warn("could not tell an account about a recovery code used", { err });
  }
}

/**
 * Tells the account's owner (new_sign_in) of a sign-in from a browser that holds no proof of
 * an earlier one and from a User-Agent and address not seen in 30 days. A notice that cannot
 * be recorded is logged: the sign-in stands.
 */
async function tellNewDevice(deps: Deps, userId: string, client: { userAgent?: string; address?: string }, tell: Tell) {
  try {
    const now = deps.clock.now();
    const payload = {
      device: deviceName(client.userAgent ?? null),
      address: client.address === "unknown" ? null : (client.address ?? null),
      at: now.toISOString(),
    };
    await deps.db.transaction((tx) => tell(tx, [{ kind: "new_sign_in", userId, payload }], now));
  } catch (err) {
    deps.log.warn("could not tell an account about a sign-in from a new device", { err });
  }
}

/**
 * Tells the account's owner (sign_in_failures) when this failure is the one of its window
 * that does. An unknown email has nobody to tell; a notice that cannot be recorded is
 * logged and the failure answered as any other.
 */
async function tellOwner(deps: Deps, limiter: ReturnType<typeof createLoginLimiter>, counted: CountedAttempt, email: string, tell: Tell) {
  try {
    if (!(await limiter.shouldTell(counted))) return;
    const user = await getUserByEmail(deps.db, email);
    if (!user) return;
    const now = deps.clock.now();
    const payload = { failures: counted.accountFailures, windowMinutes: LOGIN_WINDOW_MS / 60_000 };
    await deps.db.transaction((tx) => tell(tx, [{ kind: "sign_in_failures", userId: user.id, payload }], now));
  } catch (err) {
    deps.log.warn("could not tell an account about its failed sign-ins", { err });
  }
}
