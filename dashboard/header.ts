// The header of every signed-in screen: the name, the main screens, the notifications link
// with its count, and the account's own screens (Account, API keys, Share links, Authorized apps, Webhooks) with
// Sign out under the account's name. On a wide screen it is one row, the account's screens
// a menu that opens from the name; on a narrow one the brand, the notifications link and
// a "Menu" button that opens everything else below them. Both are disclosure buttons
// (aria-expanded), closed by Escape, by a click elsewhere and by going to a screen.
import { currentUser, signOut } from "./api.ts";
import { h } from "./dom.ts";
import { refreshUnread, unreadLink } from "./unread.ts";

/** A link of the header: its fragment and its words. */
export interface HeaderLink {
  href: string;
  title: string;
}

/** A button that opens and closes what `within` holds (its `open` class), closed again by Escape or a click or focus outside it. */
function disclosure(button: HTMLButtonElement, within: HTMLElement) {
  const set = (open: boolean) => {
    button.setAttribute("aria-expanded", String(open));
    within.classList.toggle("open", open);
  };
  set(false);
  button.addEventListener("click", () => set(button.getAttribute("aria-expanded") !== "true"));
  within.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || button.getAttribute("aria-expanded") !== "true") return;
    set(false);
    button.focus();
  });
  // A click or focus elsewhere closes it (the panel stays for a click inside it).
  const away = (ev: Event) => {
    if (!within.isConnected) {
      document.removeEventListener("click", away);
      document.removeEventListener("focusin", away);
      return;
    }
    if (!within.contains(ev.target as Node)) set(false);
  };
  document.addEventListener("click", away);
  document.addEventListener("focusin", away);
}

/** `main` the screens of the nav, `account` those under the account's name; `current` the nav's current fragment. */
export function header(current: string, main: HeaderLink[], account: HeaderLink[]) {
  const user = currentUser();
  const brand = h("a", { href: "#/library", class: "brand" }, "shelf");
  if (!user) return h("header", { class: "top" }, brand);
  const link = ({ href, title }: HeaderLink) => h("a", { href, "aria-current": href === current ? "page" : undefined }, title);
  const name = user.nickname || user.email;

  // The account's screens: a menu under the name on a wide screen, part of the menu on a narrow one.
  const accountLinks = h(
    "ul",
    { class: "account-links", id: "account-links", "aria-label": "Your account" },
    h("li", { class: "signed-as" }, "Signed in as ", h("strong", {}, name)),
    ...account.map((l) => h("li", {}, link(l))),
    h(
      "li",
      {},
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          onclick: async () => {
            await signOut();
            location.hash = "#/signin";
          },
        },
        "Sign out",
      ),
    ),
  );
  const accountButton = h(
    "button",
    { type: "button", class: "account-toggle", "aria-controls": "account-links" },
    h("span", { class: "visually-hidden" }, "Account menu, "),
    h("span", { class: "user" }, name),
    h("span", { class: "caret", "aria-hidden": "true" }, "▾"),
  );
  const accountPart = h("div", { class: "account" }, accountButton, accountLinks);
  disclosure(accountButton, accountPart);

  const nav = h("nav", { class: "main-nav", "aria-label": "Main" }, h("ul", {}, ...main.map((l) => h("li", {}, link(l)))));
  const menu = h("div", { class: "site-menu", id: "site-menu" }, nav, h("div", { class: "bell-wide" }, unreadLink(current === "#/notifications")), accountPart);
  const menuButton = h(
    "button",
    { type: "button", class: "menu-toggle secondary", "aria-controls": "site-menu" },
    h("span", { class: "bars", "aria-hidden": "true" }),
    "Menu",
  );
  const top = h(
    "header",
    { class: "top" },
    brand,
    // On a narrow screen the count stays in sight beside the menu's button; on a wide one
    // the link in the menu's row shows it (one of the two is displayed at a time).
    h("div", { class: "bell-narrow" }, unreadLink(current === "#/notifications")),
    menuButton,
    menu,
  );
  disclosure(menuButton, top);
  refreshUnread();
  return top;
}

/** The header greets the person by `name` at once (a nickname just saved), not at the next screen. */
export function showUserName(name: string) {
  for (const el of document.querySelectorAll(".account-toggle .user, .signed-as strong")) el.textContent = name;
}
