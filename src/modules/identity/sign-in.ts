// Signing in with an email and a password, wherever the form is (the API's /v1/auth/login,
// the server-rendered pages): the attempt is counted against the email's and the address's
// failures before the password is checked, and a success opens a session.
import type { Deps } from "../../wiring/deps.ts";
import { createLoginLimiter } from "./login-limit.ts";
import { login, type SessionGrant, verifyCredentials } from "./sessions.ts";
import type { TokenSigner } from "./tokens.ts";
import { normalizeEmail } from "./users.ts";

/** 401 UNAUTHORIZED for a wrong email or password, 429 over the login limits, 503 when they cannot be counted. */
export async function signInWithPassword(deps: Deps, signer: TokenSigner, input: { email: string; password: string; ip: string }): Promise<SessionGrant> {
  const limiter = createLoginLimiter(deps.kv);
  const email = normalizeEmail(input.email);
  await limiter.countAttempt(email, input.ip);
  const user = await verifyCredentials(deps, email, input.password);
  await limiter.recordSuccess(email, input.ip);
  return login(deps, signer, user);
}
