// The relying party's side of OpenID Connect, through openid-client: the provider's
// discovery document, read at the first sign-in (a node starts while the provider is down;
// the button then answers 502) and kept by this process for an hour; the authorization
// URL with state, nonce and PKCE S256; and the callback's checks, all the library's: the
// state, the RFC 9207 `iss` parameter, the code exchange, the ID token's signature, issuer,
// audience, expiry and nonce. Token times are checked on the node's clock (deps.clock).
import * as client from "openid-client";
import { isLoopbackUrl } from "../../config.ts";
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import { stripUnsafeChars } from "../../core/text.ts";

const DISCOVERY_TTL_MS = 60 * 60_000;
/** Seconds a request to the provider may take. */
const PROVIDER_TIMEOUT_S = 10;

export interface ProviderClaims {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** What the callback refuses, in words for the person; `reason` is for the page and the logs. */
export const refusal = (reason: string, message: string) => new AppError("BAD_REQUEST", message, { reason });

const unavailable = () =>
  new AppError("DEPENDENCY_UNAVAILABLE", "the sign-in provider cannot be reached right now; try again in a moment, or sign in with your password", {
    reason: "provider_unavailable",
  });

type OidcConfig = Pick<Deps["config"], "OIDC_ISSUER" | "OIDC_CLIENT_ID" | "OIDC_CLIENT_SECRET">;

/** The provider of one process: its discovery is this process's own cache, nothing else is kept. */
export function createProvider(deps: Pick<Deps, "config" | "clock" | "log">) {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: secret } = deps.config as OidcConfig;
  const insecure = issuer?.startsWith("http://") && isLoopbackUrl(issuer);
  let discovered: { at: number; server: client.ServerMetadata } | undefined;

  async function serverMetadata(): Promise<client.ServerMetadata> {
    if (!issuer || !clientId) throw new AppError("NOT_FOUND", "signing in through an OpenID provider is not set up on this server", { entity: "oidc" });
    if (discovered && deps.clock.nowMs() - discovered.at < DISCOVERY_TTL_MS) return discovered.server;
    try {
      const found = await client.discovery(new URL(issuer), clientId, undefined, undefined, {
        timeout: PROVIDER_TIMEOUT_S,
        ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
      });
      discovered = { at: deps.clock.nowMs(), server: found.serverMetadata() };
      return discovered.server;
    } catch (err) {
      deps.log.warn("the OpenID provider's discovery failed", { err, issuer });
      throw unavailable();
    }
  }

  /** A configuration whose token checks read the node's clock (a test's clock moves it). */
  async function configuration(): Promise<client.Configuration> {
    const server = await serverMetadata();
    const skew = Math.round((deps.clock.nowMs() - Date.now()) / 1000);
    const auth = secret ? client.ClientSecretBasic(secret) : client.None();
    const config = new client.Configuration(server, clientId!, { [client.clockSkew]: skew, ...(secret ? { client_secret: secret } : {}) }, auth);
    config.timeout = PROVIDER_TIMEOUT_S;
    if (insecure) client.allowInsecureRequests(config);
    return config;
  }

  return {
    issuer,
    /** The provider's authorization URL for one login: state, nonce, and the PKCE S256 challenge of `verifier`. */
    async authorizationUrl(p: { redirectUri: string; scope: string; state: string; nonce: string; verifier: string }): Promise<URL> {
      const config = await configuration();
      return client.buildAuthorizationUrl(config, {
        redirect_uri: p.redirectUri,
        scope: p.scope,
        state: p.state,
        nonce: p.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(p.verifier),
        code_challenge_method: "S256",
      });
    },

    /**
     * The callback's answer checked and its code exchanged: the ID token's claims. 400
     * BAD_REQUEST (meta.reason) for what the provider refused or what fails a check, 502
     * when the provider cannot be reached.
     */
    async exchange(callbackUrl: URL, p: { redirectUri: string; state: string; nonce: string; verifier: string }): Promise<ProviderClaims> {
      const config = await configuration();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(
          config,
          callbackUrl,
          { pkceCodeVerifier: p.verifier, expectedState: p.state, expectedNonce: p.nonce, idTokenExpected: true },
          { redirect_uri: p.redirectUri },
        );
      } catch (err) {
        throw exchangeRefusal(err, deps);
      }
      const claims = tokens.claims();
      if (!claims) throw refusal("id_token", "the provider sent no ID token");
      const email = typeof claims.email === "string" && claims.email.length <= 254 ? claims.email.trim().toLowerCase() : null;
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: email && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null,
        // Only the boolean true counts: a provider's "true" string or a missing claim is not a verification.
        emailVerified: claims.email_verified === true,
        // The provider's name for the person, kept to what a nickname may hold (no control, bidi or invisible characters).
        name: nicknameOf(claims.name),
      };
    },
  };
}

function nicknameOf(name: unknown): string | null {
  if (typeof name !== "string") return null;
  const clean = stripUnsafeChars(name)
    .replace(/\p{Cc}/gu, "")
    .trim()
    .slice(0, 64);
  return clean || null;
}

/** What went wrong in the exchange, as an AppError: the provider's refusal, a failed check, or the provider away. */
function exchangeRefusal(err: unknown, deps: Pick<Deps, "log">): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof client.AuthorizationResponseError) {
    const denied = err.error === "access_denied";
    return refusal(denied ? "access_denied" : "provider_error", denied ? "the sign-in was cancelled at the provider" : "the provider refused the sign-in");
  }
  if (err instanceof client.ResponseBodyError) return refusal("provider_error", "the provider refused the sign-in (the code may have expired or been used)");
  const code = (err as { code?: string }).code ?? "";
  deps.log.info("an OpenID sign-in failed a check", { code, message: (err as Error).message });
  if (code === "OAUTH_RESPONSE_IS_NOT_CONFORM" || code === "OAUTH_TIMEOUT" || (err as Error).name === "TimeoutError" || err instanceof TypeError) {
    return unavailable();
  }
  return refusal("check_failed", "the answer from the sign-in provider did not pass its checks; start the sign-in again");
}
