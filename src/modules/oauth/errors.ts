// Errors of the OAuth endpoints (token, device authorization, revocation, registration)
// in the form RFC 6749 section 5.2 gives them: `{ error, error_description }`, plus our
// own code as `error_code` where it has one, so clients of either kind understand.
import type { ErrorCode } from "../../core/errors.ts";

export type OAuthErrorName =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "invalid_scope"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "authorization_pending"
  | "slow_down"
  | "access_denied"
  | "expired_token"
  | "temporarily_unavailable"
  | "invalid_client_metadata"
  | "invalid_redirect_uri"
  | "invalid_target";

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorName,
    readonly description: string,
    readonly status = error === "invalid_client" ? 401 : 400,
    readonly errorCode?: ErrorCode,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "OAuthError";
  }

  body() {
    return { error: this.error, error_description: this.description, ...(this.errorCode ? { error_code: this.errorCode } : {}) };
  }
}

export const invalidRequest = (description: string) => new OAuthError("invalid_request", description);
export const invalidGrant = (description: string) => new OAuthError("invalid_grant", description);
