// A login in progress between /v1/auth/oidc/start and the provider's return to the callback:
// its state, nonce, PKCE verifier, redirect URI and where to go back to, in the shared kv
// under the state's hash for ten minutes, so any api node may take the callback. It is bound
// to the browser that began it: a random value in a cookie on the callback's path, whose
// hash the login keeps, so a callback URL carried to another browser (login CSRF, a victim
// made to finish an attacker's sign-in) finds no login. The first callback uses it up.
import { createHash, randomBytes } from "node:crypto";
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import { refusal } from "./provider.ts";

export const LOGIN_TTL_MS = 10 * 60_000;
export const BROWSER_COOKIE = "shelf_oidc";
export const COOKIE_PATH = "/v1/auth/oidc";

export interface PendingLogin {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  /** Where the browser goes once signed in: the dashboard, or the OAuth page it came from. */
  returnTo: string;
  /** The issuer the login was begun with: a callback after the operator changed it is refused. */
  issuer: string;
  browserHash: string;
  expiresAtMs: number;
}

const hash = (v: string) => createHash("sha256").update(v).digest("base64url");
const keyOf = (state: string) => `oidc-login:${hash(state)}`;
const random = () => randomBytes(32).toString("base64url");

const kvAway = () => new AppError("SERVICE_UNAVAILABLE", "sign-in is briefly unavailable; try again shortly", {}, { "retry-after": "30" });

/** A new login: its parameters and the browser's binding value (the cookie's). */
export async function beginLogin(
  deps: Pick<Deps, "kv" | "clock">,
  p: { redirectUri: string; returnTo: string; issuer: string },
): Promise<{ login: PendingLogin; browser: string }> {
  const browser = random();
  const login: PendingLogin = {
    ...p,
    state: random(),
    nonce: random(),
    verifier: random(),
    browserHash: hash(browser),
    expiresAtMs: deps.clock.nowMs() + LOGIN_TTL_MS,
  };
  try {
    await deps.kv.set(keyOf(login.state), JSON.stringify(login), LOGIN_TTL_MS);
  } catch {
    throw kvAway();
  }
  return { login, browser };
}

/**
 * The login a callback's state names, taken once: 400 BAD_REQUEST (meta.reason state) when
 * there is none, it expired, it was used, or this browser did not begin it.
 */
export async function takeLogin(deps: Pick<Deps, "kv" | "clock">, state: string | null, browser: string | undefined): Promise<PendingLogin> {
  const gone = () => refusal("state", "this sign-in has expired, was already used, or was begun in another browser; start it again");
  if (!state || state.length > 256) throw gone();
  let login: PendingLogin;
  try {
    const raw = await deps.kv.get(keyOf(state));
    if (raw === null) throw gone();
    login = JSON.parse(raw) as PendingLogin;
    if (!browser || login.browserHash !== hash(browser)) throw gone();
    // The first taker wins on every node: the counter is the kv's one atomic step.
    if ((await deps.kv.incr(`${keyOf(state)}:taken`, 1, LOGIN_TTL_MS)) !== 1) throw gone();
    await deps.kv.del(keyOf(state));
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw kvAway();
  }
  if (login.expiresAtMs <= deps.clock.nowMs()) throw gone();
  return login;
}
