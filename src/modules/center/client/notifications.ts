// Notifications: the header's link with the unread count (GET
// /v1/notifications/unread-count) and #/notifications, the in-app list newest first by the
// cursor ("Show more"), with "Mark read" on each unread one and "Mark all read"
// (POST /v1/notifications/{id}/read, /v1/notifications/read-all).
import { call } from "./api.ts";
import { inWords } from "./auth.ts";
import { h, when } from "./dom.ts";

interface Notification {
  id: string;
  kind: string;
  title: string;
  body: string;
  createdAt: string;
  readAt: string | null;
}

interface NotificationPage {
  items: Notification[];
  nextCursor: string | null;
  unreadCount: number;
}

const badgeLabel = (n: number) => (n === 0 ? "Notifications" : `Notifications, ${n} unread`);

/** Every badge on the page shows `n` (the header is redrawn per screen; there is one at a time). */
function showUnread(n: number) {
  for (const link of document.querySelectorAll<HTMLAnchorElement>("a.bell")) {
    link.setAttribute("aria-label", badgeLabel(n));
    const count = link.querySelector(".badge")!;
    count.textContent = String(n);
    count.toggleAttribute("hidden", n === 0);
  }
}

/** Asks the API for the unread count again (after an action that tells the account something). */
export function refreshUnread() {
  call<{ unreadCount: number }>("GET", "/v1/notifications/unread-count")
    .then((r) => showUnread(r.unreadCount))
    .catch(() => {
      // The count is a convenience: the list says the rest.
    });
}

/** The header's link to the list, its count filled in when the API answers. */
export function unreadLink(current: boolean) {
  const link = h(
    "a",
    { href: "#/notifications", class: "bell", "aria-label": badgeLabel(0), "aria-current": current ? "page" : undefined },
    h("span", { "aria-hidden": "true" }, "Notifications"),
    h("span", { class: "badge", "aria-hidden": "true", hidden: true }, "0"),
  );
  // The answer comes after the header is in the page: the count is written into its links.
  refreshUnread();
  return link;
}

export function notificationsScreen() {
  const list = h("ul", { class: "items notes", "aria-label": "Notifications" });
  const status = h("p", { class: "status", role: "status" });
  const error = h("p", { class: "error", role: "alert" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Show more");
  const readAll = h("button", { type: "button", class: "secondary", hidden: true }, "Mark all read");
  const summary = h("p", { class: "count" });
  let cursor: string | null = null;
  let unread = 0;
  const counted = (n: number) => {
    unread = n;
    summary.textContent = n === 0 ? "All read" : `${n} unread`;
    readAll.hidden = n === 0;
    showUnread(n);
  };

  function item(n: Notification) {
    const mark = h("button", { type: "button", class: "secondary", "aria-label": `Mark read: ${n.title}` }, "Mark read");
    const li = h(
      "li",
      { class: `item card note${n.readAt ? "" : " unread"}` },
      h(
        "div",
        { class: "item-main" },
        h("h3", {}, n.readAt ? null : h("span", { class: "visually-hidden" }, "Unread: "), n.title),
        h("p", { class: "note-body" }, n.body),
        h("p", { class: "meta" }, h("time", { datetime: n.createdAt }, when(n.createdAt))),
      ),
      n.readAt ? null : mark,
    );
    mark.addEventListener("click", async () => {
      mark.disabled = true;
      try {
        await call("POST", `/v1/notifications/${n.id}/read`);
        li.classList.remove("unread");
        li.querySelector("h3 .visually-hidden")?.remove();
        mark.remove();
        counted(Math.max(0, unread - 1));
        // Focus would be lost with the button: it goes to the list's heading.
        document.querySelector<HTMLElement>("main h1")?.focus();
      } catch (e) {
        error.textContent = inWords(e);
        mark.disabled = false;
      }
    });
    return li;
  }

  async function load() {
    more.disabled = true;
    try {
      const page = await call<NotificationPage>("GET", `/v1/notifications?${new URLSearchParams(cursor ? { cursor } : {})}`);
      list.append(...page.items.map(item));
      cursor = page.nextCursor;
      more.hidden = !cursor;
      counted(page.unreadCount);
      status.textContent = list.children.length === 0 ? "Nothing yet. Events such as a video becoming ready or a new API key are listed here." : "";
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener("click", load);
  readAll.addEventListener("click", async () => {
    readAll.disabled = true;
    try {
      await call("POST", "/v1/notifications/read-all");
      for (const li of list.querySelectorAll("li.unread")) {
        li.classList.remove("unread");
        li.querySelector("h3 .visually-hidden")?.remove();
        li.querySelector("button")?.remove();
      }
      counted(0);
      document.querySelector<HTMLElement>("main h1")?.focus();
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      readAll.disabled = false;
    }
  });
  void load();
  return h(
    "section",
    { class: "narrow" },
    h("div", { class: "title-row" }, h("h1", {}, "Notifications"), summary, h("div", { class: "title-actions" }, readAll)),
    h(
      "p",
      { class: "lead" },
      "What happened on your account. Choose what is listed here and what is e-mailed on ",
      h("a", { href: "#/account" }, "your account page"),
      ".",
    ),
    status,
    error,
    list,
    h("div", { class: "more" }, more),
  );
}
