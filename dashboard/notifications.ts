// Notifications (#/notifications): the in-app list newest first, a page of the cursor at a
// time, with "Mark read" on each unread one and "Mark all read" (POST
// /v1/notifications/{id}/read, /v1/notifications/read-all). The header's count: unread.ts.
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { h, when } from "./dom.ts";
import { pagedList } from "./paged.ts";
import { showUnread } from "./unread.ts";

/** A page of the list also says how many are unread in all, for the header's count. */
type NotificationPage = Answer<"/v1/notifications", "get">;
type Notification = NotificationPage["items"][number];

export function notificationsScreen() {
  const readAll = h("button", { type: "button", class: "secondary", hidden: true }, "Mark all read");
  const summary = h("p", { class: "count" });
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
        notes.error.textContent = inWords(e);
        mark.disabled = false;
      }
    });
    return li;
  }

  const notes = pagedList<NotificationPage>({
    label: "Notifications",
    path: "/v1/notifications",
    listClass: "items notes",
    empty: "Nothing yet. Events such as a video becoming ready or a new API key are listed here.",
    item,
    onPage: (page) => counted(page.unreadCount),
  });
  readAll.addEventListener("click", async () => {
    readAll.disabled = true;
    try {
      await call("POST", "/v1/notifications/read-all");
      for (const li of notes.list.querySelectorAll("li.unread")) {
        li.classList.remove("unread");
        li.querySelector("h3 .visually-hidden")?.remove();
        li.querySelector("button")?.remove();
      }
      counted(0);
      document.querySelector<HTMLElement>("main h1")?.focus();
    } catch (e) {
      notes.error.textContent = inWords(e);
    } finally {
      readAll.disabled = false;
    }
  });
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
    ...notes.parts,
  );
}
