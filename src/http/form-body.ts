// A JSON route that also takes its body as multipart/form-data, as an upload: POST /v1/docs
// takes a document as `{ filename, content, ... }` or as a `file` part with the other
// fields beside it, as images are uploaded. The route declares
//   parse: formBody(read)
// where `read` turns the request's form into the object its JSON body would be; the app's
// body parser (json-body.ts) calls it for a multipart body, and the route's schema then
// judges that object exactly as it judges a JSON body (same 422s, after the credential).
//
// Elysia runs the app's parser first and stops at its answer, so the function `formBody`
// returns is never run by Elysia itself: it carries `read` to the parser, which finds it
// among the route's parse hooks once the routes are mounted (bodyLimits().learn).
import { type Budget, BudgetBusyError } from "../infra/budget.ts";
import { AppError } from "../core/errors.ts";

const FORM_READER = Symbol("form reader");

/** The request's form as the route's JSON body; throws AppError for a form it cannot take. */
export type FormReader = (request: Request) => Promise<Record<string, unknown>>;

type FormHook = (() => undefined) & { [FORM_READER]: FormReader };

/** The route's parse hook for a body that may also come as multipart/form-data. */
export const formBody = (read: FormReader): FormHook => Object.assign(() => undefined, { [FORM_READER]: read });

/** The reader a route declared with formBody, if it did. */
export function formReaderOf(parse: unknown): FormReader | undefined {
  if (!Array.isArray(parse)) return undefined;
  for (const hook of parse as { fn?: unknown }[]) {
    const fn = hook?.fn as Partial<FormHook> | undefined;
    if (typeof fn === "function" && fn[FORM_READER]) return fn[FORM_READER];
  }
  return undefined;
}

/** Whether a Content-Type is multipart/form-data. */
export const isMultipartForm = (header: string) => /^multipart\/form-data\s*(;|$)/i.test(header.trim());

/** 503 with Retry-After: the node's upload memory stayed spent (the answer json-body.ts gives a large JSON body). */
const busyError = (e: BudgetBusyError) =>
  new AppError(
    "SERVICE_UNAVAILABLE",
    `this node is busy (${e.budget}); retry in ${e.retryAfterS} s`,
    { budget: e.budget, retryAfter: e.retryAfterS },
    { "retry-after": String(e.retryAfterS) },
  );

/** Waits for room in the node's upload memory: its release, or the 503 to answer when none comes soon enough. */
export async function reserveMemory(memory: Budget, bytes: number): Promise<(() => void) | AppError> {
  try {
    return await memory.acquire(bytes);
  } catch (e) {
    if (!(e instanceof BudgetBusyError)) throw e;
    return busyError(e);
  }
}

/**
 * The route's object read from its form, or the refusal to answer once the body is read
 * (after the credential is checked, as for a JSON body). A file over the limit is refused
 * at once: the rest of the body is not read.
 */
export async function readForm(read: FormReader, request: Request): Promise<{ body: Record<string, unknown> } | { refusal: AppError }> {
  try {
    return { body: await read(request) };
  } catch (e) {
    if (e instanceof BudgetBusyError) return { refusal: busyError(e) };
    if (e instanceof AppError && e.code !== "FILE_TOO_LARGE") return { refusal: e };
    throw e;
  }
}
