// Sign in and sign up: plain forms; a refusal is told in words beside the form.
import { ApiError, signIn, signUp } from "./api.ts";
import { field, h } from "./dom.ts";

/** The API's refusal in words a person can act on. */
export function inWords(e: unknown): string {
  if (!(e instanceof ApiError)) return "The service could not be reached. Check your connection and try again.";
  // A validation refusal's message already names the field ("password must be at least 8 characters long").
  return e.message.charAt(0).toUpperCase() + e.message.slice(1);
}

function authForm(title: string, submit: string, fields: HTMLElement[], act: (data: FormData) => Promise<void>, other: HTMLElement) {
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit", class: "primary" }, submit);
  const form = h("form", { class: "card auth", "aria-labelledby": "auth-title", novalidate: true }, ...fields, error, button);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    button.disabled = true;
    try {
      await act(new FormData(form));
      location.hash = "#/library";
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      button.disabled = false;
    }
  });
  return h("section", { class: "auth-page" }, h("h1", { id: "auth-title" }, title), form, h("p", { class: "switch" }, other));
}

export const signInScreen = () =>
  authForm(
    "Sign in",
    "Sign in",
    [
      field("Email", { name: "email", type: "email", autocomplete: "email", required: true }),
      field("Password", { name: "password", type: "password", autocomplete: "current-password", required: true }),
    ],
    (d) => signIn(String(d.get("email")), String(d.get("password"))),
    h("span", {}, "New here? ", h("a", { href: "#/signup" }, "Create an account")),
  );

export const signUpScreen = () =>
  authForm(
    "Create your account",
    "Create account",
    [
      field("Nickname", { name: "nickname", autocomplete: "nickname" }, "Optional: how the service greets you."),
      field("Email", { name: "email", type: "email", autocomplete: "email", required: true }),
      field("Password", { name: "password", type: "password", autocomplete: "new-password", required: true }, "At least 8 characters."),
    ],
    (d) => signUp(String(d.get("email")), String(d.get("password")), String(d.get("nickname") ?? "").trim() || undefined),
    h("span", {}, "Already have an account? ", h("a", { href: "#/signin" }, "Sign in")),
  );
