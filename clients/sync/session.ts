// A stored sign-in at work: the access token while it lasts, then the refresh token grant
// with rotation (each refresh answers a new refresh token and the old one is spent). The
// new tokens are written to the credentials file before the access token is used, so a
// crash never leaves the only live refresh token in memory. Several `shelf sync` processes
// of one user share the file: before refreshing, a process takes whatever another one has
// stored meanwhile, so a spent refresh token is not sent again (the server would take it
// for a stolen one and revoke the sign-in).
import { type Auth, type Send, SyncClientError } from "./api.ts";
import { loginFor, type ServerLogin, saveLogin } from "./credentials.ts";

/** Renew this long before the access token expires, so a request in flight does not meet its end. */
const RENEW_EARLY_MS = 60_000;

export interface OAuthAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** A form POST to an OAuth endpoint (RFC 6749): its status and JSON body (empty when there is none). */
export async function oauthPost(send: Send, url: string, params: Record<string, string>): Promise<OAuthAnswer> {
  const res = await send(
    new Request(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(params).toString(),
    }),
  );
  const text = await res.text();
  let body: Record<string, unknown> = {};
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new SyncClientError(`${new URL(url).pathname}: the server answered ${res.status} with something that is not JSON`, res.status, undefined);
    }
  }
  return { status: res.status, body, headers: res.headers };
}

/** `error: description` of an RFC 6749 error answer. */
export const oauthError = (a: OAuthAnswer) => `${a.body.error ?? a.status}${a.body.error_description ? `: ${a.body.error_description}` : ""}`;

/** The stored form of a token answer (RFC 6749 section 5.1), renewed a minute before it expires. */
export function loginFromTokens(body: Record<string, unknown>, clientId: string, nowMs: number): ServerLogin {
  const { access_token, refresh_token, expires_in, scope } = body;
  if (typeof access_token !== "string" || typeof refresh_token !== "string") {
    throw new SyncClientError("the token endpoint answered without an access token and a refresh token", 200, undefined);
  }
  const lifetimeMs = (typeof expires_in === "number" ? expires_in : 900) * 1000;
  return {
    clientId,
    refreshToken: refresh_token,
    accessToken: access_token,
    renewAt: nowMs + Math.max(lifetimeMs - RENEW_EARLY_MS, lifetimeMs / 2),
    scope: typeof scope === "string" ? scope : "",
  };
}

const signedOut = (server: string, why: string) =>
  new SyncClientError(`the sign-in to ${server} is no longer valid (${why}); run \`shelf sync login\` again`, 401, "SIGNED_OUT");

export class OAuthSession implements Auth {
  constructor(
    private readonly opts: { server: string; file: string; send: Send; now: () => number },
    private login: ServerLogin,
  ) {}

  async token(): Promise<string> {
    if (this.opts.now() >= this.login.renewAt) await this.refresh();
    return this.login.accessToken;
  }

  async renew(refused: string): Promise<void> {
    await this.refresh(refused);
  }

  private async refresh(refused?: string): Promise<void> {
    const { server, file, send, now } = this.opts;
    const stored = await loginFor(file, server);
    if (!stored) throw signedOut(server, "signed out on this machine");
    // Another process renewed it meanwhile: its tokens are the live ones.
    if (stored.refreshToken !== this.login.refreshToken && stored.accessToken !== refused && now() < stored.renewAt) {
      this.login = stored;
      return;
    }
    const answer = await oauthPost(send, `${server}/oauth/token`, {
      grant_type: "refresh_token",
      refresh_token: stored.refreshToken,
      client_id: stored.clientId,
    });
    if (answer.status === 200) {
      const next = loginFromTokens(answer.body, stored.clientId, now());
      await saveLogin(file, server, next);
      this.login = next;
      return;
    }
    if (answer.body.error === "invalid_grant") {
      // Two processes refreshed at once and this one lost (the server tells the loser so
      // for a moment): the winner's tokens are in the file by now.
      const winner = await loginFor(file, server);
      if (winner && winner.refreshToken !== stored.refreshToken && winner.accessToken !== refused) {
        this.login = winner;
        return;
      }
      throw signedOut(server, String(answer.body.error_description ?? "the refresh token was refused"));
    }
    throw new SyncClientError(`renewing the sign-in: ${answer.status} ${oauthError(answer)}`, answer.status, String(answer.body.error ?? ""));
  }
}
