// Sign in and sign up: plain forms; a refusal is told in words beside the form. On an
// instance with no account yet (GET /v1/auth/setup) the sign-up is the owner's: titled so,
// saying what the account becomes, and the API's notice is shown once after it.
import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import { ApiError, apiUrl, call, expectSession, type SecondStep, type Setup, signIn, signInWithCode, signInWithPasskey, signOut, signUp } from "./api.ts";
import { field, h } from "./dom.ts";
import { noticeNext } from "./notice.ts";
import { planName } from "./plans.ts";

/** The API's refusal in words a person can act on. */
export function inWords(e: unknown): string {
  if (!(e instanceof ApiError)) return "The service could not be reached. Check your connection and try again.";
  // A validation refusal's message already names the field ("password must be at least 8 characters long").
  return e.message.charAt(0).toUpperCase() + e.message.slice(1);
}

/** A sign-up that must confirm its address first: not a failure, the form says what to do. */
class Held extends Error {}

/** A right password of an account with two factors on: the form asks for the code next. */
class NeedsCode extends Error {
  constructor(readonly step: SecondStep) {
    super("a code is needed");
  }
}

/** The browser's passkey refusal (the dialog closed) or the API's, in words. */
function passkeyRefusal(e: unknown): string {
  if (e instanceof Error && (e.name === "NotAllowedError" || e.name === "AbortError")) return "The passkey dialog was closed before it finished. Try again.";
  return inWords(e);
}

/** The sign-in's second step: a passkey, the authenticator app's code, or a recovery code, as the account has them; then `next` (a path of this site), else the library. */
function secondFactorForm(step: SecondStep, next?: string) {
  const { challenge } = step;
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit", class: step.methods.includes("passkey") ? "secondary" : "primary" }, "Verify");
  const withTotp = step.methods.includes("totp");
  let usePasskey: HTMLButtonElement | null = null;
  if (step.passkey) {
    const options = step.passkey;
    usePasskey = h("button", { type: "button", class: "primary", id: "use-passkey" }, "Use a passkey");
    usePasskey.addEventListener("click", async () => {
      error.textContent = "";
      usePasskey!.disabled = true;
      try {
        const passkey = await startAuthentication({ optionsJSON: options as never });
        await signInWithCode(challenge, { passkey });
        if (next) location.assign(next);
        else location.hash = "#/library";
      } catch (e) {
        error.textContent = passkeyRefusal(e);
      } finally {
        usePasskey!.disabled = false;
      }
    });
  }
  const form = h(
    "form",
    { class: "card auth", "aria-labelledby": "auth-title", novalidate: true, id: "second-factor" },
    h(
      "p",
      {},
      [usePasskey ? "Use your passkey" : null, withTotp ? "enter the code your authenticator app shows" : null, "or one of your recovery codes."]
        .filter(Boolean)
        .join(", ")
        .replace(/^./, (c) => c.toUpperCase()),
    ),
    usePasskey,
    withTotp ? field("Authentication code", { name: "code", inputmode: "numeric", autocomplete: "one-time-code", maxlength: 16 }) : null,
    field(withTotp ? "Or a recovery code" : "A recovery code", { name: "recoveryCode", autocomplete: "off", maxlength: 64 }),
    error,
    button,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    button.disabled = true;
    const d = new FormData(form);
    const code = String(d.get("code") ?? "").trim();
    const recoveryCode = String(d.get("recoveryCode") ?? "").trim();
    try {
      await signInWithCode(challenge, code ? { code } : { recoveryCode });
      if (next) location.assign(next);
      else location.hash = "#/library";
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

function authForm(o: {
  title: string;
  submit: string;
  intro?: HTMLElement;
  fields: HTMLElement[];
  act: (data: FormData) => Promise<void>;
  other?: HTMLElement;
  /** Shown below the form (another way in). */
  after?: HTMLElement;
  /** What follows a success (default: the library). */
  done?: (form: HTMLFormElement) => void;
}) {
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit", class: "primary" }, o.submit);
  const form = h("form", { class: "card auth", "aria-labelledby": "auth-title", novalidate: true }, ...o.fields, error, button);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    button.disabled = true;
    try {
      await o.act(new FormData(form));
      if (o.done) o.done(form);
      else location.hash = "#/library";
    } catch (e) {
      if (e instanceof Held) replaceWith(form, h("p", {}, e.message), h("p", {}, "The link works for a day. Then sign in."));
      else if (e instanceof NeedsCode) {
        const next = secondFactorForm(e.step);
        form.replaceWith(next);
        next.parentElement?.querySelector(".passkey-sign-in")?.remove();
        (next.querySelector<HTMLElement>("#use-passkey") ?? next.querySelector("input"))?.focus();
      } else error.textContent = inWords(e);
    } finally {
      button.disabled = false;
    }
  });
  return h(
    "section",
    { class: "auth-page" },
    h("h1", { id: "auth-title" }, o.title),
    o.intro ?? null,
    form,
    o.after ?? null,
    o.other ? h("p", { class: "switch" }, o.other) : null,
  );
}

/** "Sign in with a passkey": a passkey alone, no email or password. */
function passkeySignIn(): HTMLElement | undefined {
  if (!browserSupportsWebAuthn()) return undefined;
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "button", class: "secondary wide", id: "passkey-sign-in" }, "Sign in with a passkey");
  button.addEventListener("click", async () => {
    error.textContent = "";
    button.disabled = true;
    try {
      await signInWithPasskey((options) => startAuthentication({ optionsJSON: options as never }));
      location.hash = "#/library";
    } catch (e) {
      error.textContent = passkeyRefusal(e);
    } finally {
      button.disabled = false;
    }
  });
  return h("div", { class: "card auth passkey-sign-in" }, h("p", { class: "or" }, "Or, without a password:"), button, error);
}

/** Whether the next account is an empty instance's first, made its administrator. */
const ownerNext = (setup: Setup | null) => !!setup && !setup.hasAccounts && !!setup.firstAccount?.isAdmin;

/**
 * The sign-in screen, and with the instance's OpenID provider set up (setup.oidc) its button:
 * a plain link to the API's start, which comes back signed in.
 */
export function signInScreen(setup: Setup | null) {
  const screen = passwordSignIn(setup);
  if (setup?.oidc) {
    const button = h("a", { href: apiUrl("/v1/auth/oidc/start"), class: "button secondary", id: "oidc-sign-in" }, `Sign in with ${setup.oidc.name}`);
    button.addEventListener("click", expectSession);
    screen.querySelector("form")?.after(h("p", { class: "alt-sign-in" }, button));
  }
  return screen;
}

/**
 * The code step of a sign-in through the OpenID provider for an account with two factors on
 * (#/sign-in-code?challenge=...&next=...): the callback's challenge, then back to the page
 * the sign-in began on when it is a path of this site.
 */
export function providerCodeScreen() {
  const q = new URLSearchParams(location.hash.replace(/^#\/sign-in-code\?/, ""));
  const next = q.get("next") ?? "";
  const methods = (q.get("methods") ?? "totp,recovery_code").split(",");
  let passkey: Record<string, unknown> | null = null;
  try {
    const encoded = q.get("passkey");
    if (encoded) passkey = JSON.parse(atob(encoded.replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;
  } catch {
    // A fragment cut or altered: the code fields remain.
  }
  const form = secondFactorForm({ challenge: q.get("challenge") ?? "", methods, passkey }, /^\/(?![/\\])/.test(next) ? next : undefined);
  return h("section", { class: "auth-page" }, h("h1", { id: "auth-title" }, "Two-factor authentication"), form);
}

const passwordSignIn = (setup: Setup | null) =>
  authForm({
    title: "Sign in",
    submit: "Sign in",
    intro: ownerNext(setup)
      ? h("p", { class: "intro" }, "No one has an account here yet. ", h("a", { href: "#/signup" }, "Create the owner account"), " first.")
      : undefined,
    fields: [
      field("Email", { name: "email", type: "email", autocomplete: "email", required: true }),
      field("Password", { name: "password", type: "password", autocomplete: "current-password", required: true }),
    ],
    act: async (d) => {
      const pending = await signIn(String(d.get("email")), String(d.get("password")));
      if (pending) throw new NeedsCode(pending);
    },
    after: passkeySignIn(),
    other: ownerNext(setup)
      ? undefined
      : h("span", {}, h("a", { href: "#/forgot-password" }, "Forgot your password?"), " · New here? ", h("a", { href: "#/signup" }, "Create an account")),
  });

/** Replaces a form, once it has done its work, with what the person should know next. */
function replaceWith(form: HTMLFormElement, ...message: (HTMLElement | string)[]) {
  const said = h("div", { class: "card auth", role: "status" }, ...message);
  // The form's other way ("Link not working?") is no longer the question.
  form.parentElement?.querySelector(".switch")?.remove();
  form.replaceWith(said);
}

/** Asks for a reset link by e-mail (POST /v1/auth/password-reset): the answer is the same for any address. */
export const forgotPasswordScreen = () =>
  authForm({
    title: "Reset your password",
    submit: "Send the link",
    intro: h("p", { class: "intro" }, "Enter the address of your account. If an account has it, a link to choose a new password is e-mailed to it."),
    fields: [field("Email", { name: "email", type: "email", autocomplete: "email", required: true })],
    act: async (d) => {
      await call("POST", "/v1/auth/password-reset", { email: String(d.get("email")).trim() });
    },
    done: (form) =>
      replaceWith(
        form,
        h("p", {}, "If an account has this address, a link is on its way. It works once, within an hour."),
        h("p", {}, h("a", { href: "#/signin" }, "Back to sign in")),
      ),
    other: h("span", {}, "Remembered it? ", h("a", { href: "#/signin" }, "Sign in")),
  });

/** Confirms an address with a mailed link's token (a sign-up's, or the account's new one), then says what follows. */
export const confirmAddressScreen = (kind: "verify" | "change", token: string) => {
  const status = h("p", { role: "status" }, "Confirming your address…");
  const path = kind === "verify" ? "/v1/auth/verify-email/confirm" : "/v1/auth/email-change/confirm";
  call("POST", path, { token })
    .then(() => {
      status.textContent = kind === "verify" ? "Your address is confirmed. You can sign in now." : "Your account now uses its new address.";
    })
    .catch((e) => {
      status.textContent = inWords(e);
    });
  return h(
    "section",
    { class: "auth-page" },
    h("h1", {}, kind === "verify" ? "Confirm your address" : "Confirm your new address"),
    h("div", { class: "card auth" }, status, h("p", {}, h("a", { href: "#/signin" }, "Go to sign in"))),
  );
};

/** Sets the new password with the link's token (POST /v1/auth/password-reset/confirm); then the person signs in again. */
export const resetPasswordScreen = (token: string) =>
  authForm({
    title: "Choose a new password",
    submit: "Set the new password",
    intro: h("p", { class: "intro" }, "Every device signed in to your account is signed out once it is set."),
    fields: [field("New password", { name: "newPassword", type: "password", autocomplete: "new-password", required: true }, "At least 8 characters.")],
    act: async (d) => {
      await call("POST", "/v1/auth/password-reset/confirm", { token, newPassword: String(d.get("newPassword")) });
      // Every session of the account has ended, this browser's too: it forgets its own.
      await signOut();
    },
    done: (form) =>
      replaceWith(form, h("p", {}, "Your password is set. Sign in with it."), h("p", {}, h("a", { href: "#/signin", class: "button primary" }, "Sign in"))),
    other: h("span", {}, "Link not working? ", h("a", { href: "#/forgot-password" }, "Ask for a new one")),
  });

export function signUpScreen(setup: Setup | null) {
  const owner = ownerNext(setup);
  const first = setup?.firstAccount;
  return authForm({
    title: owner ? "Create the owner account" : "Create your account",
    submit: owner ? "Create the owner account" : "Create account",
    intro:
      owner && first
        ? h(
            "div",
            { class: "intro" },
            h("p", {}, "No one has an account here yet. The account you create now owns this shelf: it is its administrator."),
            h(
              "p",
              {},
              `It can move accounts between plans, approve the apps people register and run the service's jobs. It is on plan ${planName(first.plan)}; everyone who signs up later gets plan ${planName(first.laterPlan)}.`,
            ),
          )
        : undefined,
    fields: [
      field("Nickname", { name: "nickname", autocomplete: "nickname" }, "Optional: how the service greets you."),
      field("Email", { name: "email", type: "email", autocomplete: "email", required: true }),
      field("Password", { name: "password", type: "password", autocomplete: "new-password", required: true }, "At least 8 characters."),
    ],
    act: async (d) => {
      const made = await signUp(String(d.get("email")), String(d.get("password")), String(d.get("nickname") ?? "").trim() || undefined);
      if ("held" in made) throw new Held(made.held);
      noticeNext(made.notice);
    },
    other: owner ? undefined : h("span", {}, "Already have an account? ", h("a", { href: "#/signin" }, "Sign in")),
  });
}
