// The HTTP core every module sits on: request ids, strict JSON bodies (json-body.ts), and
// one onError that maps every failure to the error envelope. Nothing unexpected leaks: no
// stack, SQL or path in a body.
import { Elysia, type ValidationError } from "elysia";
import { type Budget, BudgetBusyError } from "../infra/budget.ts";
import type { Log } from "../infra/log.ts";
import { AppError, ERROR_STATUS, type ErrorCode } from "./errors.ts";
import { jsonBody } from "./json-body.ts";
import { refusalError } from "./refusal.ts";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const envelope = (code: ErrorCode, error: string, meta: Record<string, unknown> = {}) => ({
  success: false as const,
  error,
  code,
  meta,
});

type Issue = { path: string; message: string };

function validationIssues(e: Readonly<ValidationError>): { path: string; issues: Issue[] } {
  // "property" is how Elysia reports a coerced query or path value that failed.
  const where = e.type === "params" ? "path" : e.type === "property" ? "request" : e.type;
  let all: { path?: string; message?: string; summary?: string }[] = [];
  try {
    all = (e.all ?? []) as typeof all;
  } catch {
    /* a custom validator without detail */
  }
  const seen = new Set<string>();
  const issues: Issue[] = [];
  for (const it of all) {
    const path = `${where}${(it.path ?? "").replaceAll("/", ".")}`;
    const message = it.summary ?? it.message ?? "invalid";
    if (seen.has(path + message)) continue;
    seen.add(path + message);
    issues.push({ path, message });
    if (issues.length >= 20) break;
  }
  if (!issues.length) issues.push({ path: where, message: "invalid" });
  return { path: issues[0]!.path, issues };
}

/** Postgres' SQLSTATE of a failed query (drizzle wraps the driver's error as `cause`). */
function dbErrorCode(e: unknown): string | undefined {
  const err = e as { code?: unknown; cause?: { code?: unknown } };
  const code = err?.cause?.code ?? err?.code;
  return typeof code === "string" ? code : undefined;
}
// character_not_in_repertoire (NUL in text), untranslatable_character
const UNSTORABLE_TEXT = new Set(["22021", "22P05"]);

/** `uploadMemory`: the node's upload memory budget, which large JSON bodies are read within. */
export const httpCore = (log: Log, uploadMemory?: Budget) =>
  new Elysia({ name: "http-core" })
    .use(jsonBody(uploadMemory))
    .onRequest(({ request, set }) => {
      const given = request.headers.get("x-request-id");
      set.headers["x-request-id"] = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    })
    .onError({ as: "global" }, ({ code, error, set, request }) => {
      // The client hung up (mid-upload, usually): nobody reads the answer, and it is no
      // fault of ours. At info, so a flaky network cannot flood the error log.
      if (request.signal.aborted) {
        log.info("request aborted by the client", { method: request.method, url: new URL(request.url).pathname, requestId: set.headers["x-request-id"] });
        set.status = 400;
        return envelope("BAD_REQUEST", "the client closed the connection");
      }
      const known = error instanceof AppError ? error : refusalError(error);
      if (known) {
        set.status = known.status;
        Object.assign(set.headers, known.headers);
        return envelope(known.code, known.message, known.meta);
      }
      if (error instanceof BudgetBusyError) {
        // Load shedding, not a failure: the client retries after the header's seconds.
        set.status = 503;
        set.headers["retry-after"] = String(error.retryAfterS);
        return envelope("SERVICE_UNAVAILABLE", `this node is busy (${error.budget}); retry in ${error.retryAfterS} s`, {
          budget: error.budget,
          retryAfter: error.retryAfterS,
        });
      }
      switch (code) {
        case "VALIDATION":
          if (error.type !== "response") {
            set.status = 422;
            const { path, issues } = validationIssues(error);
            return envelope("VALIDATION_ERROR", `invalid ${path}: ${issues[0]!.message}`, { path, issues });
          }
          break;
        case "PARSE":
          set.status = 400;
          return envelope("BAD_REQUEST", "the request body could not be parsed");
        case "NOT_FOUND":
          set.status = 404;
          return envelope("NOT_FOUND", "no such route", { entity: "route" });
        case "INVALID_COOKIE_SIGNATURE":
          set.status = 400;
          return envelope("BAD_REQUEST", "invalid cookie");
        case "INVALID_FILE_TYPE":
          set.status = ERROR_STATUS.INVALID_FILE_TYPE;
          return envelope("INVALID_FILE_TYPE", "unsupported file type");
      }
      // A safety net under the schemas: text the database cannot store (NUL) is the
      // caller's input, not our failure.
      if (UNSTORABLE_TEXT.has(dbErrorCode(error) ?? "")) {
        set.status = 422;
        return envelope("VALIDATION_ERROR", "the request holds characters that cannot be stored", {
          path: "body",
          issues: [{ path: "body", message: "control characters are not allowed" }],
        });
      }
      // Bodies over the server's maxRequestBodySize surface as a 413 from Bun itself.
      if ((error as { status?: number })?.status === 413) {
        set.status = 413;
        return envelope("FILE_TOO_LARGE", "request body too large");
      }
      log.error("unhandled error", { err: error, code, method: request.method, url: new URL(request.url).pathname, requestId: set.headers["x-request-id"] });
      set.status = 500;
      return envelope("INTERNAL", "internal error");
    });
