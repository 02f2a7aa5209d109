// Token resolution: the Authorization header to a principal. Each token kind is one
// resolver in the list handed to principalLookup; the first that claims the token decides.
// A new kind (OAuth access tokens) is one more resolver, and src/http/ does not change.
import { bearerToken, type Principal, type ResolvePrincipal, unauthorized } from "../../core/principal.ts";
import { AppError } from "../../core/errors.ts";

export interface TokenResolver {
  /** Whether the token is of this kind, by its shape alone (it may still be invalid). */
  claims(token: string): boolean;
  /** The token's principal; 401 (or a kind's own refusal) when it does not hold. */
  resolve(token: string): Promise<Principal>;
  /** The account was deleted: drop whatever this node cached of its tokens, so none outlives it here. */
  forgetUser?(userId: string): void;
}

export function principalLookup(resolvers: readonly TokenResolver[]): ResolvePrincipal {
  return async (header) => {
    const token = bearerToken(header);
    const resolver = resolvers.find((r) => r.claims(token));
    if (!resolver) throw unauthorized();
    return resolver.resolve(token);
  };
}

/**
 * The API's lookup: a token issued for another resource (RFC 8707: the MCP server's) is
 * refused as invalid here, so it cannot be spent outside the resource it was issued for.
 */
export function apiPrincipalLookup(lookup: ResolvePrincipal): ResolvePrincipal {
  return async (header) => {
    const principal = await lookup(header);
    if (principal.resource === undefined) return principal;
    throw new AppError(
      "OAUTH_BEARER_INVALID",
      `this token was issued for ${principal.resource}, not for this API`,
      { reason: "audience" },
      { "www-authenticate": 'Bearer realm="shelf", error="invalid_token"' },
    );
  };
}
