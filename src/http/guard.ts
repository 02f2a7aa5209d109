// The one auth guard. Every protected route declares, in its options, what it needs:
//   { auth: { scope: "media.write", tier: "upload" } }
// scope: a scope (src/core/scopes.ts), "session" (JWT sessions only: keys cannot act), or "admin"
//   (the account's admin flag, whatever the credential's scopes).
// session: with "admin", only a signed-in session of that account may act (admin changes).
// tier: the per-minute rate-limit tier the route counts against.
// Routes readable anonymously when the resource is public declare
//   { optionalAuth: { scope: "media.read", tier: "read" } }
// and get `reader`: null without a credential; a credential that is sent is checked as
// `auth` checks it (401 when bad, 403 without the scope) and counted against the tier.
import { Elysia } from "elysia";
import { notePrincipal } from "./access-log.ts";
import { beforeBody, lingeringClose } from "./body-limit.ts";
import type { Principal, ResolvePrincipal } from "../core/principal.ts";
import { sharedModels } from "./envelope.ts";
import { AppError } from "../core/errors.ts";
import type { RateLimiter, Tier } from "./rate-limit.ts";
import type { Scope } from "../core/scopes.ts";

export interface AuthOptions {
  /** A list is any of them: a route whose answer holds what each scope reaches (the trash) shows a credential what its scopes allow. */
  scope: Scope | readonly Scope[] | "session" | "admin";
  /** JWT sessions only (with scope "admin": admin changes; an admin's API key may only read). */
  session?: boolean;
  tier?: Tier;
}

/** What the guard asks of the identity module (injected: http/ imports no module). */
export interface GuardIdentity {
  resolvePrincipal: ResolvePrincipal;
  isAdmin(userId: string): Promise<boolean>;
}

/**
 * The principal `check` resolves to; when it refuses, the body is left unread: the
 * connection closes after a short lingering read (body-limit.ts), where Bun would
 * otherwise read and drop the whole body to keep the connection.
 */
async function refusingUnread(request: Request, headers: Record<string, unknown>, check: Promise<Principal>): Promise<Principal> {
  try {
    return await check;
  } catch (e) {
    Object.assign(headers, await lingeringClose(request));
    throw e;
  }
}

/** The scope a route needs as the document and the error name it: any of a list is its scopes space-separated, as OAuth writes a scope. */
const requiredScope = (scope: AuthOptions["scope"]): string => (typeof scope === "string" ? scope : scope.join(" "));

export const authGuard = ({ resolvePrincipal, isAdmin }: GuardIdentity, limiter: RateLimiter) => {
  async function authorize(opts: AuthOptions, request: Request, authorization: string | null, headers: Record<string, unknown>): Promise<Principal> {
    const principal = await resolvePrincipal(authorization);
    notePrincipal(request, principal);
    if (opts.scope === "admin" && !(await isAdmin(principal.userId))) {
      throw new AppError("FORBIDDEN", "administrators only", { required: "admin" });
    }
    if ((opts.scope === "session" || opts.session) && principal.via !== "jwt") {
      throw new AppError("FORBIDDEN", "this action needs a signed-in session; API keys cannot perform it", { required: "session" });
    }
    if (opts.scope !== "admin" && opts.scope !== "session") {
      const anyOf: readonly Scope[] = typeof opts.scope === "string" ? [opts.scope] : opts.scope;
      if (!anyOf.some((s) => principal.scopes.includes(s))) {
        const code = principal.via === "oauth" ? "OAUTH_SCOPE_INSUFFICIENT" : "FORBIDDEN";
        throw new AppError(code, `this credential lacks the ${anyOf.join(" or ")} scope`, { required: requiredScope(opts.scope) });
      }
    }
    if (opts.tier) Object.assign(headers, await limiter.hit(principal.userId, opts.tier));
    return principal;
  }

  // The credential is checked before the body is read (the body parser runs the transform
  // hook first, body-limit.ts), and so before Elysia validates the path, query and body: a
  // caller without a valid credential, or without the route's scope, is told so (401, 403,
  // 429 when over its tier) and never how its input would have failed, and its body is
  // never held. The hook runs again in its own step and finds the request checked; what it
  // resolved to is handed to the route's resolve step by request.
  const checked = new WeakMap<Request, Principal | null>();

  return new Elysia({ name: "auth-guard" }).use(sharedModels).macro({
    auth: (opts: AuthOptions) => ({
      // Every guarded route can answer 401, 403 and 429 with the envelope (the OpenAPI document shows it).
      response: { 401: "Error", 403: "Error", 429: "Error" } as const,
      detail: {
        security: [{ bearer: [] }],
        "x-required-scope": requiredScope(opts.scope),
        ...(opts.session ? { "x-session-only": true } : {}),
        ...(opts.tier ? { "x-rate-limit-tier": opts.tier } : {}),
      },
      // The one header it needs read from the request: naming `headers` here would have
      // Elysia copy every header of every guarded request into an object first.
      transform: beforeBody(async ({ request, set }) => {
        if (!checked.has(request))
          checked.set(request, await refusingUnread(request, set.headers, authorize(opts, request, request.headers.get("authorization"), set.headers)));
      }),
      resolve: ({ request }) => ({ principal: checked.get(request) as Principal }),
    }),
    optionalAuth: (opts: Pick<AuthOptions, "scope" | "tier">) => ({
      response: { 401: "Error", 403: "Error", 429: "Error" } as const,
      // No x-rate-limit-tier: an anonymous answer carries no RateLimit-* headers to document.
      detail: { security: [{ bearer: [] }, {}], "x-required-scope": requiredScope(opts.scope) },
      transform: beforeBody(async ({ request, set }) => {
        if (checked.has(request)) return;
        const header = request.headers.get("authorization");
        checked.set(request, header === null ? null : await refusingUnread(request, set.headers, authorize(opts, request, header, set.headers)));
      }),
      resolve: ({ request }) => ({ reader: checked.get(request) ?? null }),
    }),
  });
};
