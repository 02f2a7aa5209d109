// The authorization code grant with PKCE (RFC 6749 section 4.1, RFC 7636, OAuth 2.1): the
// checks of a request to /oauth/authorize, the code a user's approval issues, and its
// redemption at the token endpoint. A request is checked again when the consent page
// posts the decision: nothing the browser carried between the two is trusted.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import type { Scope } from "../../core/scopes.ts";
import { newId } from "../../infra/ids.ts";
import { assertGrantType, type Client, findClient, requestedScopes } from "./clients.ts";
import { sha256Hex } from "./codes.ts";
import { invalidGrant, invalidRequest, OAuthError, type OAuthErrorName } from "./errors.ts";
import { assertSameResource, type Resource, requestedResource } from "./resources.ts";
import { createGrant, issueTokenSet, revokeGrant, type TokenSet } from "./service.ts";
import { oauthAuthorizationCodes } from "./table.ts";

export const AUTHORIZATION_CODE_GRANT = "authorization_code";
const CODE_TTL_MS = 60_000;
const CODE_PATTERN = /^oac_[A-Za-z0-9_-]{43}$/;
/** BASE64URL of a SHA-256: the only challenge S256 can give. */
const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
const VERIFIER_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;
/** RFC 8252 section 7.3: a native app's loopback listener picks its port at each request. */
const LOOPBACK_REDIRECT = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?([/?].*)?$/;
const STATE_MAX = 2_000;

/** A checked authorization request: what the consent page shows and the code will carry. */
export interface AuthorizeRequest {
  client: Client;
  redirectUri: string;
  /** The request named redirect_uri: the token request must name the same one. */
  redirectUriGiven: boolean;
  scopes: Scope[];
  /** The protected resource the tokens will be for (RFC 8707); null: the API. */
  resource: Resource;
  state?: string;
  codeChallenge: string;
  /** Sent back as `iss` with the answer (RFC 9207), so a client can tell providers apart. */
  issuer: string;
}

/**
 * A refused authorization request. With `redirectUrl` the client's redirect URI is trusted
 * and the refusal goes back there (RFC 6749 section 4.1.2.1); without, the user is shown it
 * on a page, because a URI that is not the client's must never be redirected to.
 */
export class AuthorizeError extends OAuthError {
  constructor(
    error: OAuthErrorName,
    description: string,
    readonly redirectUrl?: string,
  ) {
    super(error, description, 400);
    this.name = "AuthorizeError";
  }
}

type Params = URLSearchParams | Record<string, unknown>;

/** The parameter `name` once, undefined when absent; `null` when given twice or not as text (RFC 6749 section 3.1). */
function param(params: Params, name: string): string | undefined | null {
  const all = params instanceof URLSearchParams ? params.getAll(name) : params[name] === undefined ? [] : [params[name]].flat();
  if (all.length === 0) return undefined;
  return all.length === 1 && typeof all[0] === "string" ? all[0] : null;
}

function loopbackParts(uri: string) {
  const m = LOOPBACK_REDIRECT.exec(uri);
  return m && { host: m[1]!, port: m[2], rest: m[3] ?? "" };
}

/** Exact match with a registered URI; on a loopback IP the port may differ. */
function matchesRegistered(registered: readonly string[], uri: string): boolean {
  if (registered.includes(uri)) return true;
  if (/[\s\p{Cc}#]/u.test(uri)) return false;
  const given = loopbackParts(uri);
  if (!given || (given.port !== undefined && (Number(given.port) < 1 || Number(given.port) > 65535))) return false;
  return registered.some((r) => {
    const reg = loopbackParts(r);
    return !!reg && reg.host === given.host && reg.rest === given.rest;
  });
}

/** `uri` with the answer's parameters added to its own query. */
function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v);
  return url.href;
}

/** GET /oauth/authorize (and the consent page's POST): the request checked, or an AuthorizeError. */
export async function checkAuthorizeRequest(deps: Pick<Deps, "config" | "db">, query: Params): Promise<AuthorizeRequest> {
  const clientId = param(query, "client_id");
  if (clientId === undefined) throw new AuthorizeError("invalid_request", "the request names no client (client_id)");
  if (clientId === null) throw new AuthorizeError("invalid_request", "client_id is given more than once");
  const client = await findClient(deps, deps.db, clientId);
  if (!client) throw new AuthorizeError("invalid_client", "this app is not known here, or it was withdrawn");
  const given = param(query, "redirect_uri");
  if (given === null) throw new AuthorizeError("invalid_request", "redirect_uri is given more than once");
  let redirectUri: string;
  if (given === undefined) {
    // RFC 6749 section 3.1.2.3: only a single registered URI may be left unnamed (not a loopback one, whose port varies).
    const only = client.redirectUris.length === 1 ? client.redirectUris[0]! : undefined;
    if (!only || loopbackParts(only)) throw new AuthorizeError("invalid_request", "the request must name its redirect_uri");
    redirectUri = only;
  } else if (matchesRegistered(client.redirectUris, given)) {
    redirectUri = given;
  } else {
    throw new AuthorizeError("invalid_request", "redirect_uri is not one this app registered");
  }
  const issuer = deps.config.PUBLIC_URL;
  const stateParam = param(query, "state");
  const state = typeof stateParam === "string" ? stateParam : undefined;
  // From here on, refusals go back to the app.
  const refuse = (error: OAuthErrorName, description: string) =>
    new AuthorizeError(error, description, withParams(redirectUri, { error, error_description: description, state, iss: issuer }));
  if (stateParam === null) throw refuse("invalid_request", "state is given more than once");
  if (state !== undefined && state.length > STATE_MAX) throw refuse("invalid_request", `state may have at most ${STATE_MAX} characters`);
  const responseType = param(query, "response_type");
  if (responseType === undefined || responseType === null) throw refuse("invalid_request", "response_type is required, once");
  if (responseType !== "code") throw refuse("unsupported_response_type", "the only response type is code");
  try {
    assertGrantType(client, AUTHORIZATION_CODE_GRANT);
  } catch (e) {
    throw refuse("unauthorized_client", (e as OAuthError).description);
  }
  const method = param(query, "code_challenge_method");
  const challenge = param(query, "code_challenge");
  if (challenge === undefined) throw refuse("invalid_request", "code_challenge is required: PKCE with S256");
  if (method !== "S256") throw refuse("invalid_request", "code_challenge_method must be S256 (plain is not accepted)");
  if (challenge === null || !CHALLENGE_PATTERN.test(challenge))
    throw refuse("invalid_request", "code_challenge must be BASE64URL(SHA-256(code_verifier)): 43 characters");
  const scope = param(query, "scope");
  if (scope === null) throw refuse("invalid_request", "scope is given more than once");
  let scopes: Scope[];
  try {
    scopes = requestedScopes(client, scope);
  } catch (e) {
    throw refuse("invalid_scope", (e as OAuthError).description);
  }
  let resource: Resource;
  try {
    resource = requestedResource(deps.config, param(query, "resource"));
  } catch (e) {
    throw refuse("invalid_target", (e as OAuthError).description);
  }
  return { client, redirectUri, redirectUriGiven: given !== undefined, scopes, resource, state, codeChallenge: challenge, issuer };
}

/** The user approves: a code for the app, stored as its hash, valid 60 s; the URL to send the browser to. */
export async function approveAuthorization(deps: Pick<Deps, "db" | "clock">, req: AuthorizeRequest, userId: string): Promise<string> {
  const code = `oac_${randomBytes(32).toString("base64url")}`;
  const now = deps.clock.now();
  await deps.db.insert(oauthAuthorizationCodes).values({
    id: newId(),
    codeHash: sha256Hex(code),
    clientId: req.client.id,
    userId,
    scopes: req.scopes,
    resource: req.resource,
    redirectUri: req.redirectUri,
    redirectUriGiven: req.redirectUriGiven,
    codeChallenge: req.codeChallenge,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    createdAt: now,
  });
  return withParams(req.redirectUri, { code, state: req.state, iss: req.issuer });
}

/** The user denies: the URL that tells the app so. */
export function denyAuthorization(req: AuthorizeRequest): string {
  return withParams(req.redirectUri, { error: "access_denied", error_description: "the user denied the request", state: req.state, iss: req.issuer });
}

type Outcome = { tokens: TokenSet } | { refused: OAuthError; revoke?: string };

/**
 * The authorization_code grant at the token endpoint. The code's row is locked for the
 * decision, so of two redemptions at once exactly one gets tokens. A code presented again
 * after its use revokes the grant it started (RFC 6749 section 10.5): whoever holds it,
 * the code leaked.
 */
export async function redeemAuthorizationCode(
  deps: Deps,
  input: { clientId: string; code?: string; redirectUri?: string; codeVerifier?: string; resource?: string },
): Promise<TokenSet> {
  if (!input.code) throw invalidRequest("code is required");
  if (!input.codeVerifier) throw invalidRequest("code_verifier is required (PKCE)");
  if (!VERIFIER_PATTERN.test(input.codeVerifier)) throw invalidRequest("code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~");
  if (!CODE_PATTERN.test(input.code)) throw invalidGrant("unknown authorization code");
  const challenge = new Bun.CryptoHasher("sha256").update(input.codeVerifier).digest("base64url");
  const outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
    const [row] = await tx
      .select()
      .from(oauthAuthorizationCodes)
      .where(eq(oauthAuthorizationCodes.codeHash, sha256Hex(input.code!)))
      .for("update");
    // Another client's code is refused as unknown: holding it says nothing about who sends it.
    if (!row || row.clientId !== input.clientId) return { refused: invalidGrant("unknown authorization code") };
    if (row.usedAt) {
      return { refused: invalidGrant("this authorization code was already used; the authorization it gave is revoked"), revoke: row.grantId ?? undefined };
    }
    const now = deps.clock.now();
    if (row.expiresAt <= now) return { refused: invalidGrant("the authorization code has expired; start again") };
    if (row.redirectUriGiven ? input.redirectUri !== row.redirectUri : input.redirectUri !== undefined && input.redirectUri !== row.redirectUri) {
      return { refused: invalidGrant("redirect_uri differs from the one of the authorization request") };
    }
    if (challenge !== row.codeChallenge) return { refused: invalidGrant("code_verifier does not match the code_challenge") };
    try {
      assertSameResource(deps.config, input.resource, row.resource);
    } catch (e) {
      return { refused: e as OAuthError };
    }
    const scopes = row.scopes as Scope[];
    const grantId = await createGrant(deps, tx, { userId: row.userId, clientId: row.clientId, scopes, resource: row.resource, via: "authorization_code" });
    await tx.update(oauthAuthorizationCodes).set({ usedAt: now, grantId }).where(eq(oauthAuthorizationCodes.id, row.id));
    return { tokens: await issueTokenSet(deps, tx, grantId, scopes) };
  });
  if ("tokens" in outcome) return outcome.tokens;
  if (outcome.revoke) {
    await revokeGrant(deps, outcome.revoke);
    deps.log.warn("oauth authorization code used twice; grant revoked", { grantId: outcome.revoke });
  }
  throw outcome.refused;
}
