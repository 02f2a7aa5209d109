// Signing in with an email and a password, wherever the form is (the API's /v1/auth/login,
// the server-rendered pages): the attempt is counted (login-limit.ts) before the password
// is checked, a success opens a session and hands the browser a fresh device proof, and a
// failure past the account's threshold tells the owner, once per window.
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import { deviceOf, issueDeviceProof } from "./device-proof.ts";
import { deviceName, familiarDevice } from "./devices.ts";
import { type CountedAttempt, createLoginLimiter, LOGIN_WINDOW_MS } from "./login-limit.ts";
import { login, type SessionGrant, verifyCredentials } from "./sessions.ts";
import type { Tell } from "./tell.ts";
import type { TokenSigner } from "./tokens.ts";
import { getUserByEmail, normalizeEmail, type User } from "./users.ts";

export interface SignInInput {
  email: string;
  password: string;
  ip: string;
  /** The browser's User-Agent, recorded with the session. */
  userAgent?: string;
  /** The device cookie the browser sent, if any. */
  deviceProof?: string;
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
  await limiter.recordSuccess(counted);
  if (user.mustVerifyEmail) {
    throw new AppError("EMAIL_NOT_VERIFIED", "confirm your e-mail address first: open the link mailed to it, or ask for a new one");
  }
  const client = { userAgent: input.userAgent, address: input.ip };
  // Asked before the session opens: the new session would make the device familiar.
  const known = device !== undefined || (await familiarDevice(deps, user.id, client));
  const grant = await login(deps, signer, user, client);
  if (!known) await tellNewDevice(deps, user.id, client, tell);
  return { ...grant, deviceProof: issueDeviceProof(secret, email) };
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
