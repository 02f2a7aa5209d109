// The consent page at /oauth/authorize (RFC 6749 section 4.1.1, OAuth 2.1): the person
// signs in, sees which app asks for what and where it will be sent back to, and approves
// or denies. The request is checked on every step (authorize.ts), so a form that changed
// a parameter on the way is checked as if it were new; only its CSRF token is the page's.
import { depsAt } from "../../../http/addresses.ts";
import type { OwnPaths } from "../../../http/openapi.ts";
import type { RouteServices } from "../../../wiring/services.ts";
import { type AuthorizeRequest, AuthorizeError, approveAuthorization, checkAuthorizeRequest, denyAuthorization } from "../authorize.ts";
import { DATABASE_AWAY } from "./docs.ts";
import { readPageForm } from "./form.ts";
import { type Html, html } from "./html.ts";
import { renderPage, seeOther, servePage } from "./layout.ts";
import {
  challengeOf,
  errorBox,
  hiddenFields,
  mayRetryCode,
  messageOf,
  refusedForm,
  scopeList,
  secondFactorForm,
  sentence,
  signedInAs,
  signInForm,
  totpAsked,
  unverifiedNote,
} from "./parts.ts";
import { carriedOptions, passkeyOptionsOf } from "./passkey.ts";
import { createPageSessions, type PageVisit } from "./session.ts";
import { ticketPaths } from "../../identity/public.ts";

/** The form's target, relative to the page (/oauth/authorize). */
const ACTION = "authorize";
/** The parameters of an authorization request, carried through the page's forms. */
const REQUEST_PARAMS = ["response_type", "client_id", "redirect_uri", "scope", "resource", "state", "code_challenge", "code_challenge_method"] as const;

/** The authorization request's own parameters of a query or a posted form, nothing else. */
function requestParams(from: URLSearchParams | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of REQUEST_PARAMS) {
    const v = from instanceof URLSearchParams ? from.get(name) : from[name];
    if (typeof v === "string") out[name] = v;
  }
  return out;
}

export function createConsentPage({ deps, identity, limiter }: Pick<RouteServices, "deps" | "identity" | "limiter">) {
  const [path] = ticketPaths(deps.config) as [string, string];
  const sessions = createPageSessions(deps, identity, { path, pages: (a) => [a.PUBLIC_URL] });

  type PageOpts = { status?: number; formTargets?: string[]; headers?: Record<string, string>; params?: Record<string, string>; passkey?: boolean };
  const page = (visit: PageVisit, title: string, body: Html, opts: PageOpts = {}) => {
    // Signing out comes back to the same request (its parameters in the form's URL), signed out.
    const signOutTo = opts.params ? `${ACTION}?${new URLSearchParams(opts.params)}` : ACTION;
    const res = renderPage({
      title,
      status: opts.status,
      cookies: visit.cookies,
      formTargets: opts.formTargets,
      passkey: opts.passkey,
      body: html`${body}${signedInAs(visit, signOutTo)}`,
    });
    for (const [k, v] of Object.entries(opts.headers ?? {})) res.headers.set(k, v);
    return res;
  };

  /** A refused request: back to the app when its redirect URI is trusted, else said on the page. */
  const refused = (visit: PageVisit, e: AuthorizeError) =>
    e.redirectUrl
      ? seeOther(e.redirectUrl, visit.cookies)
      : page(
          visit,
          "This sign-in link does not work",
          html`<p class="error" role="alert" id="request-refused">${sentence(e.description)}</p>
<p class="muted">Go back to the app you came from and start signing in again. If it happens again, the app's developer needs to fix it.</p>`,
          { status: 400 },
        );

  const signIn = async (
    request: Request,
    visit: PageVisit,
    req: AuthorizeRequest,
    params: Record<string, string>,
    error?: ReturnType<typeof messageOf>,
    email?: string,
  ) => {
    const passkey = await sessions.passkeyOptions(request);
    return page(
      visit,
      "Sign in",
      signInForm(visit, {
        action: ACTION,
        fields: params,
        email,
        error: error && sentence(error.message),
        lead: html`<p>Sign in to your shelf account to continue to <strong class="name" id="client-name">${req.client.name}</strong>.</p>
${unverifiedNote(req.client)}`,
        passkey,
      }),
      { status: error?.status, headers: error?.headers, passkey: passkey !== undefined },
    );
  };

  const secondFactor = (
    visit: PageVisit,
    params: Record<string, string>,
    challenge: string,
    error?: ReturnType<typeof messageOf>,
    passkey?: string,
    totp = true,
  ) =>
    page(
      visit,
      "Two-factor authentication",
      secondFactorForm(visit, { action: ACTION, fields: params, challenge, error: error && sentence(error.message), passkey, totp }),
      { status: error?.status, headers: error?.headers, passkey: passkey !== undefined },
    );

  const consent = (visit: PageVisit, req: AuthorizeRequest, params: Record<string, string>, error?: ReturnType<typeof messageOf>) => {
    const back = new URL(req.redirectUri);
    return page(
      visit,
      "Allow access?",
      html`<div class="card">
${errorBox(error && sentence(error.message))}
<p><strong class="name" id="client-name">${req.client.name}</strong> wants to use your shelf account${req.resource ? html` through the <strong id="resource">MCP server</strong> (an AI agent's tools)` : ""}.</p>
${unverifiedNote(req.client)}
<p>It will be able to:</p>
${scopeList(req.scopes)}
<p class="muted">You will be sent back to <code class="name" id="redirect-host">${back.host}</code>.</p>
<form method="post" action="${ACTION}" id="decision">
${hiddenFields(visit, params)}
<div class="actions"><button type="submit" name="decision" value="approve" id="approve">Approve</button><button class="secondary" type="submit" name="decision" value="deny" id="deny">Deny</button></div>
</form>
</div>`,
      // The decision's answer redirects to the app: browsers hold that redirect to form-action.
      { formTargets: [back.origin], status: error?.status, headers: error?.headers, params },
    );
  };

  /** The checked request, or the answer that refuses it. */
  async function check(request: Request, visit: PageVisit, params: Record<string, string> | URLSearchParams): Promise<AuthorizeRequest | Response> {
    try {
      return await checkAuthorizeRequest(depsAt(deps, request), params);
    } catch (e) {
      if (e instanceof AuthorizeError) return refused(visit, e);
      throw e;
    }
  }

  return {
    /** GET /oauth/authorize: the request checked, then the sign-in form or the consent form. */
    get: (request: Request) =>
      servePage(deps.log, request, async () => {
        const visit = await sessions.open(request);
        const query = new URL(request.url).searchParams;
        const req = await check(request, visit, query);
        if (req instanceof Response) return req;
        const params = requestParams(query);
        return visit.user ? consent(visit, req, params) : signIn(request, visit, req, params);
      }),

    /** POST /oauth/authorize: sign in or out, or approve or deny (then back to the app). */
    post: (request: Request, ip: string) =>
      servePage(deps.log, request, async () => {
        const visit = await sessions.open(request, false);
        const form = await readPageForm(request);
        try {
          sessions.checkForm(request, visit, form);
        } catch (e) {
          return refusedForm(e, html`<p class="muted">Go back to the app you came from and start signing in again.</p>`);
        }
        if (form.action === "sign_out") {
          const back = new URLSearchParams(requestParams(new URL(request.url).searchParams));
          return seeOther(`${ACTION}?${back}`, await sessions.signOut(request, visit));
        }
        const params = requestParams(form);
        const req = await check(request, visit, params);
        if (req instanceof Response) return req;
        if (form.action === "sign_in") {
          try {
            return seeOther(
              `${ACTION}?${new URLSearchParams(params)}`,
              await sessions.signIn(request, { email: form.email ?? "", password: form.password ?? "", ip }),
            );
          } catch (e) {
            const challenge = challengeOf(e);
            if (challenge) return secondFactor(visit, params, challenge, undefined, passkeyOptionsOf(e), totpAsked(e));
            return signIn(request, visit, req, params, messageOf(e), form.email);
          }
        }
        if (form.action === "sign_in_passkey") {
          try {
            return seeOther(`${ACTION}?${new URLSearchParams(params)}`, await sessions.signInWithPasskey(request, { passkey: form.passkey, ip }));
          } catch (e) {
            return signIn(request, visit, req, params, messageOf(e));
          }
        }
        if (form.action === "sign_in_code") {
          const challenge = form.challenge ?? "";
          try {
            return seeOther(
              `${ACTION}?${new URLSearchParams(params)}`,
              await sessions.completeSignIn(request, { challenge, code: form.code, recoveryCode: form.recovery_code, passkey: form.passkey, ip }),
            );
          } catch (e) {
            if (mayRetryCode(e)) return secondFactor(visit, params, challenge, messageOf(e), carriedOptions(form.passkey_options), form.totp !== "0");
            return signIn(request, visit, req, params, messageOf(e));
          }
        }
        if (!visit.user) return signIn(request, visit, req, params, { status: 401, message: "sign in to continue", headers: {} });
        if (form.decision !== "approve" && form.decision !== "deny") return consent(visit, req, params);
        try {
          await limiter.hit(visit.user.id, "mutation");
        } catch (e) {
          return consent(visit, req, params, messageOf(e));
        }
        return seeOther(form.decision === "approve" ? await approveAuthorization(deps, req, visit.user.id) : denyAuthorization(req));
      }),
  };
}

const htmlPage = (description: string) => ({ description, content: { "text/html": { schema: { type: "string" } } } });
const toTheApp = {
  description: "See Other: to the app's redirect URI with code, state and iss, or error, error_description, state and iss (RFC 6749 section 4.1.2)",
  headers: { Location: { required: true, schema: { type: "string" } } },
};
const query = (name: string, description: string, required = true) => ({ name, in: "query", required, description, schema: { type: "string" } });

export const consentPageDocumentation: OwnPaths = {
  paths: {
    "/oauth/authorize": {
      get: {
        tags: ["oauth"],
        // An HTML page, and bad input is RFC 6749's: said on the page (400) or sent back to the app, never 422.
        "x-html-page": true,
        "x-rfc6749-errors": true,
        summary: "Authorization endpoint (RFC 6749 section 4.1.1, PKCE of RFC 7636 with S256 only): the consent page",
        description:
          "A request whose client or redirect URI cannot be trusted (no client_id, an unknown or rejected client, a redirect_uri that is not one the client registered: exact match, except that on 127.0.0.1 and [::1] any port is accepted) is refused on the page (400) and never redirected. Other refusals go back to the redirect URI with error and state: invalid_request (no code_challenge, a method other than S256, a malformed challenge, a parameter given twice), unsupported_response_type, unauthorized_client, invalid_scope. Otherwise the sign-in form, or the consent form naming the app, the scopes in plain words, and that the app is unverified when no administrator has approved it yet.",
        parameters: [
          query("response_type", "code"),
          query("client_id", "a first-party or registered client"),
          query("redirect_uri", "one the client registered; may be left out when it registered exactly one https URI", false),
          query("code_challenge", "BASE64URL(SHA-256(code_verifier))"),
          query("code_challenge_method", "S256"),
          query("scope", "space-separated; the client's scopes when left out", false),
          query("resource", "RFC 8707: PUBLIC_URL (the API, as when left out) or MCP_URL; another is invalid_target, sent back to the app", false),
          query("state", "returned as given", false),
        ],
        responses: {
          200: htmlPage("the sign-in form or the consent form"),
          303: toTheApp,
          400: htmlPage("the request cannot be trusted: said on the page"),
          503: htmlPage(DATABASE_AWAY),
        },
      },
      post: {
        tags: ["oauth"],
        "x-html-page": true,
        "x-rfc6749-errors": true,
        summary: "The consent page's forms: sign in or out, approve or deny",
        description:
          "application/x-www-form-urlencoded with the page's csrf token and the request's parameters: action=sign_in (email, password), action=sign_in_passkey (passkey: the JSON of a passkey's answer to the form's data-passkey options), action=sign_in_code (challenge and code, recovery_code or passkey), action=sign_out, or decision=approve|deny (then 303 to the app: a code valid 60 s, or error=access_denied). The request is checked again. A missing or wrong token, or another Origin, is 403 and changes nothing.",
        requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: { type: "object" } } } },
        responses: {
          200: htmlPage("the consent form again"),
          303: { description: "See Other: to the app (a decision or a refusal), or back to the page (after signing in or out)", headers: toTheApp.headers },
          400: htmlPage("not a form, or the request cannot be trusted"),
          401: htmlPage("the sign-in form again: wrong email or password, or not signed in"),
          403: htmlPage("the form did not come from this page of this page session"),
          422: htmlPage("the sign-in form (or the second step) again: a passkey's answer not accepted"),
          429: htmlPage("too many sign-in attempts, or the mutation rate tier"),
          503: htmlPage(`the limits cannot be counted: nothing is tried; or ${DATABASE_AWAY}`),
        },
      },
    },
  },
};
