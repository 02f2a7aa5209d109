// The auth guard's contract: what a request resolves to, and the shape of the header it
// comes from. Which tokens exist and what they mean is identity's business; the guard is
// handed a resolvePrincipal and never learns the token kinds.
import { AppError } from "./errors.ts";
import type { Scope } from "./scopes.ts";

export interface Principal {
  userId: string;
  scopes: readonly Scope[];
  via: "api_key" | "jwt" | "oauth";
  keyId?: string;
  sessionId?: string;
  /**
   * An OAuth token's audience (RFC 8707) when it is not the API: such a token is refused by
   * every API route and accepted only where it was issued for (the MCP server).
   */
  resource?: string;
  /** The OAuth client the token was issued to (its tool calls are logged with it). */
  clientId?: string;
}

/** The Authorization header to a principal; throws 401 (or another AppError) when it does not resolve. */
export type ResolvePrincipal = (authorizationHeader: string | null | undefined) => Promise<Principal>;

export const unauthorized = (message = "missing or invalid credentials") =>
  new AppError("UNAUTHORIZED", message, {}, { "www-authenticate": 'Bearer realm="shelf"' });

const BEARER = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/;
// Far longer than any token; refused before a regular expression reads it.
const MAX_HEADER = 4096;

/** The token of an exactly `Bearer <token>` header; 401 for anything else. */
export function bearerToken(header: string | null | undefined): string {
  if (!header) throw unauthorized("missing Authorization header");
  if (header.length > MAX_HEADER) throw unauthorized();
  const m = BEARER.exec(header);
  if (!m) throw unauthorized("the Authorization header must be exactly `Bearer <token>`");
  return m[1]!;
}
