// Pieces the pages share: the sign-in form shown in place of a page to a visitor who is not
// signed in, the signed-in line with its sign-out button, hidden fields and messages, and
// the scopes in plain words.
import { AppError } from "../../../core/errors.ts";
import { type Scope, SCOPE_DESCRIPTIONS } from "../../../core/scopes.ts";
import { type Html, html } from "./html.ts";
import { renderPage } from "./layout.ts";
import { passkeyForm } from "./passkey.ts";
import type { PageVisit } from "./session.ts";

/** What a client asking for the scopes may do, as a user reads it. */
export const scopeList = (scopes: readonly Scope[]) => html`<ul class="scopes">${scopes.map((s) => html`<li>${SCOPE_DESCRIPTIONS[s]}</li>`)}</ul>`;

/**
 * The warning every page that names a registered client shows while no administrator has
 * approved it: the name is the developer's own word, and may imitate another app's.
 */
export const unverifiedNote = (client: { unverified: boolean }) =>
  client.unverified &&
  html`<p class="warning" id="unverified" role="note">This app is unverified: its developer registered it and no administrator has reviewed it yet. Its name may imitate another app's. Continue only if you started this sign-in yourself and trust the app.</p>`;

/** The form's CSRF token and the given fields, hidden. */
export const hiddenFields = (visit: PageVisit, fields: Record<string, string | undefined> = {}) =>
  html`<input type="hidden" name="csrf" value="${visit.csrf}">${Object.entries(fields).map(([k, v]) =>
    v === undefined ? "" : html`<input type="hidden" name="${k}" value="${v}">`,
  )}`;

/** A service message ("no such code; check ...") as a sentence on a page. */
export const sentence = (m: string) => `${m.charAt(0).toUpperCase()}${m.slice(1)}.`;

/** The answer to a form the page session refused (a stale or foreign CSRF token, another site's post): why, and `next`, where to start again. */
export function refusedForm(e: unknown, next: Html): Response {
  const m = messageOf(e);
  return renderPage({
    title: "Please reload the page",
    status: m.status,
    body: html`<p class="error" role="alert" id="csrf-refused">${sentence(m.message)}</p>${next}`,
  });
}

export const errorBox = (message: string | undefined) => message && html`<p class="error" role="alert">${message}</p>`;

/**
 * The sign-in form, posting `action=sign_in` with email and password to `action` (the
 * page's own URL, relative), carrying `fields` through so the page can go on after it.
 */
export function signInForm(
  visit: PageVisit,
  opts: { action: string; fields?: Record<string, string | undefined>; error?: string; email?: string; lead?: Html; passkey?: string },
): Html {
  return html`<div class="card">
${opts.lead ?? html`<p>Sign in to your shelf account to continue.</p>`}
${errorBox(opts.error)}
<form method="post" action="${opts.action}" id="sign-in">
${hiddenFields(visit, { ...opts.fields, action: "sign_in" })}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${opts.email ?? ""}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
<button type="submit">Sign in</button>
</form>
${
  opts.passkey &&
  passkeyForm({
    action: opts.action,
    options: opts.passkey,
    hidden: hiddenFields(visit, { ...opts.fields, action: "sign_in_passkey" }),
    lead: "Or, without a password:",
    button: "Sign in with a passkey",
    id: "passkey-sign-in",
  })
}
${providerSignIn(visit, opts.fields ?? {})}
</div>`;
}

/**
 * "Sign in with <name>" of the instance's OpenID provider (identity's oidc sign-in), which
 * comes back to this page with `fields` (the request it was showing); nothing when none is set up.
 */
function providerSignIn(visit: PageVisit, fields: Record<string, string | undefined>): Html | "" {
  if (!visit.provider) return "";
  const kept = Object.entries(fields).filter((f): f is [string, string] => f[1] !== undefined);
  const back = kept.length ? `${visit.provider.path}?${new URLSearchParams(kept)}` : visit.provider.path;
  return html`<p class="alt"><a class="button secondary" id="oidc-sign-in" href="${`${visit.provider.start}?${new URLSearchParams({ return: back })}`}">Sign in with ${visit.provider.name}</a></p>`;
}

/**
 * The second step of a sign-in with two factors: the password was right, and the code of
 * the authenticator app (or a recovery code) completes it, posting `action=sign_in_code`
 * with the challenge the password step gave.
 */
export function secondFactorForm(
  visit: PageVisit,
  opts: { action: string; challenge: string; fields?: Record<string, string | undefined>; error?: string; passkey?: string; totp?: boolean },
): Html {
  const totp = opts.totp !== false;
  const carried = { ...opts.fields, action: "sign_in_code", challenge: opts.challenge, passkey_options: opts.passkey, totp: totp ? undefined : "0" };
  const lead = opts.passkey
    ? totp
      ? "Use your passkey, or enter the code your authenticator app shows for your shelf account, or one of your recovery codes."
      : "Use your passkey, or one of your recovery codes."
    : "Enter the code your authenticator app shows for your shelf account, or one of your recovery codes.";
  return html`<div class="card">
<p>${lead}</p>
${errorBox(opts.error)}
${
  opts.passkey &&
  passkeyForm({
    action: opts.action,
    options: opts.passkey,
    hidden: hiddenFields(visit, carried),
    lead: "Your account has a passkey:",
    button: "Use a passkey",
    id: "passkey-second-factor",
    primary: true,
  })
}
<form method="post" action="${opts.action}" id="second-factor">
${hiddenFields(visit, carried)}
${
  totp
    ? html`<label for="code">Authentication code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="16" spellcheck="false" autofocus>
<label for="recovery_code">Or a recovery code</label>`
    : html`<label for="recovery_code">A recovery code</label>`
}
<input id="recovery_code" name="recovery_code" autocomplete="off" maxlength="64" spellcheck="false">
<button type="submit">Verify</button>
</form>
</div>`;
}

/** The challenge of a password that needs a second factor, from the sign-in's refusal; else undefined. */
export const challengeOf = (e: unknown): string | undefined =>
  e instanceof AppError && e.code === "TWO_FACTOR_REQUIRED" && typeof e.meta.challenge === "string" ? e.meta.challenge : undefined;

/** Whether the second step asks for an authenticator app's code: the sign-in's refusal names the account's methods. */
export const totpAsked = (e: unknown): boolean => !(e instanceof AppError && Array.isArray(e.meta.methods) && !(e.meta.methods as unknown[]).includes("totp"));

/** Whether a refused second factor may be tried again with the same challenge (a wrong code, not a challenge gone). */
export const mayRetryCode = (e: unknown): boolean =>
  e instanceof AppError && (e.code === "UNAUTHORIZED" || e.code === "PASSKEY_INVALID") && typeof e.meta.triesLeft === "number" && e.meta.triesLeft > 0;

/** "Signed in as ..." with a sign-out button (`action=sign_out` to `action`). */
export function signedInAs(visit: PageVisit, action: string): Html {
  if (!visit.user) return html``;
  return html`<div class="who muted"><span>Signed in as <span class="name">${visit.user.email}</span></span>
<form method="post" action="${action}">${hiddenFields(visit, { action: "sign_out" })}<button class="secondary" type="submit">Sign out</button></form></div>`;
}

/** A message for the person in front of the page, from an expected failure; other failures are thrown on. */
export function messageOf(e: unknown): { status: number; message: string; headers: Record<string, string> } {
  if (!(e instanceof AppError)) throw e;
  const headers: Record<string, string> = {};
  if (e.headers["retry-after"]) headers["retry-after"] = e.headers["retry-after"];
  return { status: e.status, message: e.message, headers };
}
