// The header's link to the notifications with the unread count (GET
// /v1/notifications/unread-count), asked again after an action that tells the account something.
import { type Answer, call } from "./api.ts";
import { h } from "./dom.ts";

const badgeLabel = (n: number) => (n === 0 ? "Notifications" : `Notifications, ${n} unread`);

/** Every badge on the page shows `n` (the header has one for narrow screens and one for wide ones). */
export function showUnread(n: number) {
  for (const link of document.querySelectorAll<HTMLAnchorElement>("a.bell")) {
    link.setAttribute("aria-label", badgeLabel(n));
    const count = link.querySelector(".badge")!;
    count.textContent = String(n);
    count.toggleAttribute("hidden", n === 0);
  }
}

/** Asks the API for the unread count again (after an action that tells the account something). */
export function refreshUnread() {
  call<Answer<"/v1/notifications/unread-count", "get">>("GET", "/v1/notifications/unread-count")
    .then((r) => showUnread(r.unreadCount))
    .catch(() => {
      // The count is a convenience: the list says the rest.
    });
}

/** A link of the header to the list; its count is filled in by refreshUnread (the header asks once it is drawn). */
export function unreadLink(current: boolean) {
  const link = h(
    "a",
    { href: "#/notifications", class: "bell", "aria-label": badgeLabel(0), "aria-current": current ? "page" : undefined },
    h("span", { "aria-hidden": "true" }, "Notifications"),
    // A space between word and count: the visible text ("Notifications 3") is then part of
    // the link's name ("Notifications, 3 unread"), as speech input needs (axe: label-content-name-mismatch).
    " ",
    h("span", { class: "badge", "aria-hidden": "true", hidden: true }, "0"),
  );
  return link;
}
