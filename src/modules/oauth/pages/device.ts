// The device page at CENTER_URL/device (RFC 8628 section 3.3): the person signs in, enters
// or confirms the code their device shows, sees which app asks for what, and approves or
// denies. Every step is a plain form post to this same page; the decision goes through
// the same service function as POST /v1/oauth/device/verify, with its limits.
import type { RouteServices } from "../../../wiring/services.ts";
import { decideDevice, type DeviceRequest, reviewDevice } from "../device.ts";
import { html } from "./html.ts";
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
import { readPageForm } from "./form.ts";

/** The form's target, relative to the page, so it holds wherever CENTER_URL mounts it. */
const ACTION = "device";
const CODE_MAX = 32;

const codeOf = (v: string | null | undefined) => (v ?? "").slice(0, CODE_MAX);

export function createDevicePage({ deps, identity, limiter }: Pick<RouteServices, "deps" | "identity" | "limiter">) {
  const [, path] = ticketPaths(deps.config) as [string, string];
  const sessions = createPageSessions(deps, identity, { path, pages: (a) => [a.CENTER_URL, a.PUBLIC_URL] });

  const page = (visit: PageVisit, title: string, body: ReturnType<typeof html>, status = 200, headers: Record<string, string> = {}, passkey = false) => {
    const res = renderPage({ title, status, cookies: visit.cookies, passkey, body: html`${body}${signedInAs(visit, ACTION)}` });
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    return res;
  };

  const signIn = async (
    request: Request,
    visit: PageVisit,
    userCode: string,
    error?: { status: number; message: string; headers: Record<string, string> },
    email?: string,
  ) => {
    const passkey = await sessions.passkeyOptions(request);
    return page(
      visit,
      "Connect a device",
      signInForm(visit, {
        action: ACTION,
        fields: { user_code: userCode || undefined },
        email,
        error: error && sentence(error.message),
        lead: html`<p>Sign in to your shelf account, then enter the code your device shows.</p>`,
        passkey,
      }),
      error?.status,
      error?.headers,
      passkey !== undefined,
    );
  };

  const secondFactor = (visit: PageVisit, userCode: string, challenge: string, error?: ReturnType<typeof messageOf>, passkey?: string, totp = true) =>
    page(
      visit,
      "Two-factor authentication",
      secondFactorForm(visit, {
        action: ACTION,
        fields: { user_code: userCode || undefined },
        challenge,
        error: error && sentence(error.message),
        passkey,
        totp,
      }),
      error?.status,
      error?.headers,
      passkey !== undefined,
    );

  const codeForm = (visit: PageVisit, userCode: string, error?: ReturnType<typeof messageOf>) =>
    page(
      visit,
      "Connect a device",
      html`<div class="card">
${errorBox(error && sentence(error.message))}
<form method="post" action="${ACTION}" id="code-form">
${hiddenFields(visit)}
<label for="user_code">Enter the code shown on your device</label>
<input id="user_code" name="user_code" class="code" value="${userCode}" placeholder="XXXX-XXXX" required maxlength="${CODE_MAX}" autocomplete="off" autocapitalize="characters" spellcheck="false" autofocus>
<button type="submit">Continue</button>
</form>
</div>`,
      error?.status,
      error?.headers,
    );

  const review = (visit: PageVisit, req: DeviceRequest) =>
    page(
      visit,
      "Allow access?",
      html`<div class="card">
<p><strong class="name" id="client-name">${req.clientName}</strong> wants to use your shelf account. Code <code>${req.userCode}</code>.</p>
${unverifiedNote(req)}
<p>It will be able to:</p>
${scopeList(req.scopes)}
<p class="muted">Approve only if this code is the one on your device.</p>
<form method="post" action="${ACTION}" id="decision">
${hiddenFields(visit, { user_code: req.userCode })}
<div class="actions"><button type="submit" name="decision" value="approve" id="approve">Approve</button><button class="secondary" type="submit" name="decision" value="deny" id="deny">Deny</button></div>
</form>
</div>`,
    );

  async function decide(visit: PageVisit, user: NonNullable<PageVisit["user"]>, form: Record<string, string>, ip: string): Promise<Response> {
    const userCode = codeOf(form.user_code);
    try {
      // The mutation tier of POST /v1/oauth/device/verify counts every step here too.
      await limiter.hit(user.id, "mutation");
      if (form.decision !== "approve" && form.decision !== "deny") return review(visit, await reviewDevice(deps, { userId: user.id, ip, userCode }));
      const done = await decideDevice(deps, { userId: user.id, ip, userCode, decision: form.decision });
      return done.decision === "approve"
        ? page(
            visit,
            "Device connected",
            html`<p class="ok" id="outcome" role="status">You approved <strong class="name">${done.clientName}</strong>. Return to your device: it finishes signing in by itself.</p>
${unverifiedNote(done)}`,
          )
        : page(
            visit,
            "Request denied",
            html`<p class="ok" id="outcome" role="status"><strong class="name">${done.clientName}</strong> was not given access. You can close this page.</p>
${unverifiedNote(done)}`,
          );
    } catch (e) {
      return codeForm(visit, userCode, messageOf(e));
    }
  }

  return {
    /** GET /device[?user_code=]: the sign-in form, or the code form (prefilled from verification_uri_complete). */
    get: (request: Request) =>
      servePage(deps.log, request, async () => {
        const visit = await sessions.open(request);
        const userCode = codeOf(new URL(request.url).searchParams.get("user_code"));
        return visit.user ? codeForm(visit, userCode) : signIn(request, visit, userCode);
      }),

    /** POST /device: sign in or out, look a code up, or approve or deny it. */
    post: (request: Request, ip: string) =>
      servePage(deps.log, request, async () => {
        const visit = await sessions.open(request, false);
        const form = await readPageForm(request);
        try {
          sessions.checkForm(request, visit, form);
        } catch (e) {
          return refusedForm(e, html`<p><a href="${ACTION}">Open the device page again</a></p>`);
        }
        const userCode = codeOf(form.user_code);
        if (form.action === "sign_in") {
          try {
            const cookies = await sessions.signIn(request, { email: form.email ?? "", password: form.password ?? "", ip });
            return seeOther(userCode ? `${ACTION}?user_code=${encodeURIComponent(userCode)}` : ACTION, cookies);
          } catch (e) {
            const challenge = challengeOf(e);
            if (challenge) return secondFactor(visit, userCode, challenge, undefined, passkeyOptionsOf(e), totpAsked(e));
            return signIn(request, visit, userCode, messageOf(e), form.email);
          }
        }
        if (form.action === "sign_in_passkey") {
          try {
            const cookies = await sessions.signInWithPasskey(request, { passkey: form.passkey, ip });
            return seeOther(userCode ? `${ACTION}?user_code=${encodeURIComponent(userCode)}` : ACTION, cookies);
          } catch (e) {
            return signIn(request, visit, userCode, messageOf(e));
          }
        }
        if (form.action === "sign_in_code") {
          const challenge = form.challenge ?? "";
          try {
            const cookies = await sessions.completeSignIn(request, { challenge, code: form.code, recoveryCode: form.recovery_code, passkey: form.passkey, ip });
            return seeOther(userCode ? `${ACTION}?user_code=${encodeURIComponent(userCode)}` : ACTION, cookies);
          } catch (e) {
            if (mayRetryCode(e)) return secondFactor(visit, userCode, challenge, messageOf(e), carriedOptions(form.passkey_options), form.totp !== "0");
            return signIn(request, visit, userCode, messageOf(e));
          }
        }
        if (form.action === "sign_out") return seeOther(ACTION, await sessions.signOut(request, visit));
        if (!visit.user) return signIn(request, visit, userCode, { status: 401, message: "sign in to continue", headers: {} });
        return decide(visit, visit.user, form, ip);
      }),
  };
}
