// `shelf sync login` and `shelf sync logout`: signing in with the OAuth device flow (RFC
// 8628) as the first-party client `shelf-sync`, so no API key is pasted anywhere. The
// command shows a code and a URL, the user approves it in a browser where they are signed
// in, and the command, polling the token endpoint meanwhile, stores the tokens it gets
// (credentials.ts). Logging out revokes the sign-in at the server (RFC 7009) and forgets it.
import { SyncClientError } from "./api.ts";
import { credentialsPath, loginFor, saveLogin } from "./credentials.ts";
import { realSleep, type SyncCommandIo } from "./io.ts";
import { loginFromTokens, type OAuthAnswer, oauthError, oauthPost } from "./session.ts";

export const SYNC_CLIENT_ID = "shelf-sync";
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
/** RFC 8628 section 3.5: each slow_down adds 5 s to the interval, for every later poll. */
const SLOW_DOWN_MS = 5_000;
/** A poll the network or the server could not answer is tried again later, waiting at most this long. */
const MAX_BACKOFF_MS = 60_000;

/** The server did not answer this time (no connection, 5xx, 429): worth asking again later. */
const transient = (a: OAuthAnswer | undefined) => !a || a.status >= 500 || a.status === 429;

export async function loginCommand(server: string, clientId: string, io: SyncCommandIo): Promise<number> {
  const sleep = io.sleep ?? realSleep;
  const now = io.now ?? Date.now;
  const file = credentialsPath(io.env);
  let started: OAuthAnswer;
  try {
    started = await oauthPost(io.send, `${server}/v1/oauth/device_authorization`, { client_id: clientId });
  } catch (e) {
    io.err(`cannot reach ${server}: ${(e as Error).message}`);
    return 1;
  }
  const { device_code, user_code, verification_uri, verification_uri_complete, expires_in, interval } = started.body;
  if (started.status !== 200 || typeof device_code !== "string" || typeof user_code !== "string") {
    io.err(`${server} did not start the sign-in: ${started.status} ${oauthError(started)}`);
    return 1;
  }
  const lifetimeS = typeof expires_in === "number" ? expires_in : 600;
  io.out(`To sign in, open ${verification_uri} and enter the code ${user_code}`);
  if (typeof verification_uri_complete === "string") io.out(`(or open ${verification_uri_complete})`);
  io.out(`Waiting for you to approve it there; the code expires in ${Math.round(lifetimeS / 60)} minutes.`);

  const deadline = now() + lifetimeS * 1000;
  let intervalMs = (typeof interval === "number" && interval > 0 ? interval : 5) * 1000;
  let waitMs = intervalMs;
  /** The wait after the last unanswered poll: doubled while polls go unanswered. */
  let backoffMs = 0;
  for (;;) {
    await sleep(waitMs);
    if (now() >= deadline) return expired(io);
    let answer: OAuthAnswer | undefined;
    try {
      answer = await oauthPost(io.send, `${server}/oauth/token`, { grant_type: DEVICE_GRANT, device_code, client_id: clientId });
    } catch {
      answer = undefined;
    }
    waitMs = intervalMs;
    if (transient(answer)) {
      // RFC 8628 section 3.5: back off exponentially while the server cannot be reached; Retry-After when it says so.
      backoffMs = Math.min(Math.max(backoffMs * 2, intervalMs * 2), MAX_BACKOFF_MS);
      const retryAfterS = Number(answer?.headers.get("retry-after"));
      waitMs = Number.isFinite(retryAfterS) && retryAfterS > 0 ? Math.min(retryAfterS * 1000, MAX_BACKOFF_MS) : backoffMs;
      continue;
    }
    backoffMs = 0;
    const a = answer!;
    if (a.status === 200) {
      const login = loginFromTokens(a.body, clientId, now());
      await saveLogin(file, server, login);
      io.out(`Signed in to ${server} (${login.scope || "no scopes"}); the sign-in is kept in ${file}.`);
      return 0;
    }
    switch (a.body.error) {
      case "authorization_pending":
        continue;
      case "slow_down":
        intervalMs += SLOW_DOWN_MS;
        waitMs = intervalMs;
        continue;
      case "expired_token":
        return expired(io);
      case "access_denied":
        io.err("The sign-in was denied on the device page; nothing was stored.");
        return 1;
      default:
        io.err(`Signing in failed: ${a.status} ${oauthError(a)}`);
        return 1;
    }
  }
}

function expired(io: SyncCommandIo): number {
  io.err("The code expired before it was approved; run `shelf sync login` again for a new one.");
  return 1;
}

/**
 * Revokes the stored sign-in at the server (its whole grant: every token of it) and
 * forgets it here. When the server cannot be told, the sign-in is forgotten all the same
 * and the way to revoke it from the account is named.
 */
export async function logoutCommand(server: string, io: SyncCommandIo): Promise<number> {
  const file = credentialsPath(io.env);
  const login = await loginFor(file, server);
  if (!login) {
    io.out(`Not signed in to ${server}.`);
    return 0;
  }
  let failure: string | undefined;
  try {
    // RFC 7009: 200 whether or not the token was still live; anything else is a failure to revoke.
    const answer = await oauthPost(io.send, `${server}/oauth/revoke`, {
      token: login.refreshToken,
      token_type_hint: "refresh_token",
      client_id: login.clientId,
    });
    if (answer.status !== 200) failure = `${answer.status} ${oauthError(answer)}`;
  } catch (e) {
    failure = e instanceof SyncClientError ? e.message : (e as Error).message;
  }
  await saveLogin(file, server, null);
  if (failure) {
    io.err(`Signed out here, but ${server} could not revoke the sign-in (${failure}).`);
    io.err("Revoke it from your account's authorized apps (DELETE /v1/user/me/oauth-grants/:id).");
    return 1;
  }
  io.out(`Signed out of ${server}; the sign-in was revoked.`);
  return 0;
}
