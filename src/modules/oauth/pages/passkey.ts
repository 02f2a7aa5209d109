// Passkeys on the consent and device pages: a form that a small script fills with the
// browser's passkey answer (navigator.credentials.get, the options and the answer in
// WebAuthn's JSON forms) and sends. The pages otherwise run no script: this one is allowed
// by its hash, only on a page that offers a passkey, and without it (or in a browser with
// no passkeys) the form stays hidden and the password works as before.
import { AppError } from "../../../core/errors.ts";
import { type Html, html } from "./html.ts";

/**
 * The passkey form: `options` (PublicKeyCredentialRequestOptionsJSON, as text) for the
 * browser, the answer posted with the `hidden` fields to `action` as `passkey`.
 */
export function passkeyForm(o: { action: string; options: string; hidden: Html; lead: string; button: string; id: string; primary?: boolean }): Html {
  return html`<form method="post" action="${o.action}" id="${o.id}" data-passkey="${o.options}" hidden>
${o.hidden}
<input type="hidden" name="passkey" value="">
<p class="muted">${o.lead}</p>
<button type="button"${o.primary ? "" : html` class="secondary"`}>${o.button}</button>
<p class="muted passkey-error" role="alert"></p>
</form>`;
}

/** The options of a passkey second step, from the sign-in's TWO_FACTOR_REQUIRED refusal, as text; else undefined. */
export const passkeyOptionsOf = (e: unknown): string | undefined =>
  e instanceof AppError && e.code === "TWO_FACTOR_REQUIRED" && e.meta.passkey && typeof e.meta.passkey === "object"
    ? JSON.stringify(e.meta.passkey)
    : undefined;

/** A form's passkey options carried through a retry: JSON text of an object, else undefined. */
export function carriedOptions(text: string | undefined): string | undefined {
  if (!text || text.length > 16_384) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The answer a passkey form posted, as the API takes it; 422 PASSKEY_INVALID when it is not one. */
export function postedAssertion(text: string | undefined): unknown {
  if (!text || text.length > 65_536) throw new AppError("PASSKEY_INVALID", "the passkey's answer did not arrive; try again", { reason: "malformed" });
  try {
    const v = JSON.parse(text) as { id?: unknown; response?: unknown };
    if (v && typeof v === "object" && typeof v.id === "string" && v.response && typeof v.response === "object") return v;
  } catch {}
  throw new AppError("PASSKEY_INVALID", "the passkey's answer did not arrive; try again", { reason: "malformed" });
}
