// Telling "the database is away" from "this query is wrong". A query that fails because
// Postgres cannot be reached, went away mid-query or is shutting down or starting up says
// nothing about the request: the same request succeeds once the database is back, so it is
// answered 503 with Retry-After (src/http/core.ts), not 500.
//
// What the driver throws: postgres.js rejects a query with the socket's error (ECONNREFUSED
// while Postgres is down), an error of its own (CONNECTION_CLOSED when the server hung up
// mid-query, CONNECT_TIMEOUT), or the server's ErrorResponse as a PostgresError with the
// SQLSTATE as `code` (57P01 when an immediate shutdown ends the session, 57P03 while the
// server starts). drizzle wraps a failed query in a DrizzleQueryError with the driver's
// error as `cause`; a transaction's BEGIN fails with the driver's error unwrapped.
import { DrizzleQueryError } from "drizzle-orm";

/** postgres.js's own names for a connection that failed or went away. */
const DRIVER_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT"]);

/**
 * Socket errors: any network client may throw these (ioredis, a webhook's fetch), so they
 * count only on an error that came from the database driver.
 */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * SQLSTATE class 08 (connection exception) and 57P01 admin_shutdown, 57P02 crash_shutdown,
 * 57P03 cannot_connect_now. Other class 57 states (57014, a cancelled statement) are the
 * query's own.
 */
const isUnavailableState = (code: string) => /^08[0-9A-Z]{3}$/.test(code) || code === "57P01" || code === "57P02" || code === "57P03";

type Failure = { code?: unknown; cause?: unknown };

/** The driver marks a query's error with the query it failed (non-enumerable `query`); drizzle wraps it in a DrizzleQueryError. */
const fromDriver = (e: Failure, wrapped: boolean) => wrapped || "query" in e;

/**
 * The code that says the database could not be reached (ECONNREFUSED, CONNECTION_CLOSED,
 * 57P01, ...), when that is why `error` happened; undefined for any other failure.
 */
export function databaseUnavailableCode(error: unknown): string | undefined {
  let e = error as Failure | undefined;
  let wrapped = false;
  // The cause chain is short (drizzle's wrapper, the driver's error); bounded all the same.
  for (let depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const code = typeof e.code === "string" ? e.code : undefined;
    if (code && (DRIVER_CODES.has(code) || isUnavailableState(code))) return code;
    if (code && SOCKET_CODES.has(code) && fromDriver(e, wrapped)) return code;
    if (e instanceof DrizzleQueryError) wrapped = true;
    e = e.cause as Failure | undefined;
  }
  return undefined;
}
