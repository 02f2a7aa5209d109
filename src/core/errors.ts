// The one error type and the closed set of error codes (docs/api.md, errors), each with its
// HTTP status. Expected outcomes throw AppError; anything else becomes 500 INTERNAL.
import { storeUnreachable } from "../infra/storage/types.ts";
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  INVALID_SYNC_VERSION: 400,
  SYNC_VERSION_UNSUPPORTED: 400,
  INVALID_CURSOR: 400,
  RESET_TOKEN_INVALID: 400,
  UNAUTHORIZED: 401,
  API_KEY_REVOKED: 401,
  TOKEN_EXPIRED: 401,
  OAUTH_BEARER_INVALID: 401,
  OAUTH_REFRESH_REPLAYED: 401,
  TWO_FACTOR_REQUIRED: 401,
  FORBIDDEN: 403,
  OAUTH_SCOPE_INSUFFICIENT: 403,
  QUOTA_EXCEEDED: 403,
  PLAN_REQUIRED: 403,
  PLAN_INACTIVE: 403,
  EMAIL_NOT_VERIFIED: 403,
  KB_LIMIT_REACHED: 403,
  COLLECTION_LIMIT_REACHED: 403,
  NOT_FOUND: 404,
  DOC_REVISION_NOT_FOUND: 404,
  CONFLICT: 409,
  DOC_HASH_DUPLICATE: 409,
  KB_SLUG_TAKEN: 409,
  KB_NOT_EMPTY: 409,
  COLLECTION_FULL: 409,
  COLLECTION_ORDER_MISMATCH: 409,
  COLLECTION_COVER_NOT_ITEM: 409,
  SYNC_CONFLICT: 409,
  SYNC_VERSION_MISMATCH: 409,
  TRASH_PATH_TAKEN: 409,
  TRASH_KB_GONE: 409,
  REQUEST_TIMEOUT: 408,
  LENGTH_REQUIRED: 411,
  UPLOAD_EXPIRED: 410,
  UPLOAD_FAILED: 410,
  PRECONDITION_FAILED: 412,
  TOMBSTONE_CURSOR_EXPIRED: 410,
  SYNC_V1_SUNSET: 410,
  EXPORT_EXPIRED: 410,
  FILE_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_ERROR: 422,
  INVALID_FILE_TYPE: 422,
  PASSKEY_INVALID: 422,
  DOC_FILE_TOO_LARGE: 422,
  DOC_IMAGE_LIMIT_EXCEEDED: 422,
  DOC_INVALID_PATTERN: 422,
  SYNC_HASH_REQUIRED: 422,
  HASH_MISMATCH: 422,
  CONFLICT_BRANCH_LIMIT_PER_DOC: 422,
  CONFLICT_BRANCH_LIMIT_PER_USER: 422,
  CONFLICT_BRANCH_LIMIT_SIZE: 422,
  INVALID_OP_BATCH_SIZE: 422,
  RATE_LIMITED: 429,
  OAUTH_CLIENT_RATE_LIMITED: 429,
  COMPLIANCE_BLOCKED: 451,
  CHECKSUM_MISMATCH: 460,
  BANDWIDTH_SUSPENDED: 451,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  STORAGE_ERROR: 502,
  DEPENDENCY_UNAVAILABLE: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly meta: Record<string, unknown> = {},
    /** Extra response headers (Retry-After, WWW-Authenticate). */
    readonly headers: Record<string, string> = {},
    status?: number,
  ) {
    super(message);
    this.name = "AppError";
    this.status = status ?? ERROR_STATUS[code];
  }

  /** The same refusal (its status too: a 503 stays a 503) with more headers; `headers` win. */
  withHeaders(headers: Record<string, string>): AppError {
    return new AppError(this.code, this.message, this.meta, { ...this.headers, ...headers }, this.status);
  }
}

/** How soon a client is told to try again while the object store does not answer (a restart takes seconds). */
const STORAGE_RETRY_AFTER_S = 5;

/**
 * STORAGE_ERROR for a failed object store operation: 502 when the store answered with a
 * failure, and 503 with Retry-After when it did not answer at all (down or restarting),
 * which is an outage the client waits out, as for the database (core.ts outageError).
 */
export function storageError(err: unknown, message: string, headers: Record<string, string> = {}): AppError {
  if (!storeUnreachable(err)) return new AppError("STORAGE_ERROR", message, {}, headers);
  return new AppError(
    "STORAGE_ERROR",
    `${message} (the object store does not answer; retry in ${STORAGE_RETRY_AFTER_S} s)`,
    { dependency: "storage", retryAfter: STORAGE_RETRY_AFTER_S },
    { ...headers, "retry-after": String(STORAGE_RETRY_AFTER_S) },
    503,
  );
}

export const notFound = (entity: string) => new AppError("NOT_FOUND", `${entity} not found`, { entity });

export const validationError = (path: string, message: string) => new AppError("VALIDATION_ERROR", message, { path, issues: [{ path, message }] });

/** RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds) of a window. */
export function rateLimitHeaders(r: { limit: number; remaining: number; resetMs: number }): Record<string, string> {
  return {
    "ratelimit-limit": String(r.limit),
    "ratelimit-remaining": String(r.remaining),
    "ratelimit-reset": String(Math.ceil(r.resetMs / 1000)),
  };
}

/**
 * The one 429 of every limiter: RateLimit-Limit, RateLimit-Remaining (0) and
 * RateLimit-Reset describe the limit that refused, Retry-After says when to come back.
 */
export function rateLimited(message: string, meta: Record<string, unknown>, r: { limit: number; resetMs: number }): AppError {
  const headers = rateLimitHeaders({ limit: r.limit, remaining: 0, resetMs: r.resetMs });
  return new AppError("RATE_LIMITED", message, meta, { ...headers, "retry-after": String(Math.max(1, Math.ceil(r.resetMs / 1000))) });
}
