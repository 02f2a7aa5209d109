// Something the API said that the person should read once, at the top of the next screen
// (the first sign-up's notice: the account is the instance's administrator). It is kept in
// memory only: a reload or the next screen does not show it again.
import { h } from "./dom.ts";

let pending: string | null = null;

/** The next screen drawn shows `text` at its top (null: nothing). */
export function noticeNext(text: string | null) {
  pending = text;
}

/** The pending notice as a card with its own dismiss button, or null; taken once. */
export function takeNotice(): HTMLElement | null {
  const text = pending;
  pending = null;
  if (!text) return null;
  const dismiss = h("button", { type: "button", class: "secondary" }, "Dismiss");
  const card = h(
    "section",
    { class: "card api-notice", "aria-labelledby": "notice-title" },
    h("div", {}, h("h2", { id: "notice-title", tabindex: "-1" }, "Your account is ready"), h("p", {}, text)),
    dismiss,
  );
  dismiss.addEventListener("click", () => {
    card.remove();
    document.querySelector<HTMLElement>("main h1")?.focus();
  });
  return card;
}
