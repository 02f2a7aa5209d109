// A list read a page at a time by the API's cursor (the one list shape: items, nextCursor),
// with its "Show more" button, a status line that says what an empty list means, and an
// alert for a refusal. Items removed from the page (revoked, say) update the status.
import { call } from "./api.ts";
import { inWords } from "./auth.ts";
import { h } from "./dom.ts";
import { refreshUnread } from "./unread.ts";

/** A page of any list: the API's one list shape. */
type Page = { items: unknown[]; nextCursor: string | null };
type Row<L extends Page> = L["items"][number];

/** `L` is the list's answer as the document has it (`Answer<path, "get">`); its items are the rows. */
export function pagedList<L extends Page>(opts: {
  label: string;
  /** The list's API path, without the cursor. */
  path: string;
  /** What the status line says when nothing is listed (a function: it follows a filter). */
  empty: string | (() => string);
  item: (row: Row<L>, removed: (li: HTMLLIElement) => void) => HTMLLIElement;
  /** Query parameters besides the cursor, read at each page (a filter's value). */
  params?: () => Record<string, string>;
  /** The list's class (default "items") and the label of its "Show more" button. */
  listClass?: string;
  moreLabel?: string;
  /** A row's identity: a row already listed (made on this page while a page was on its way) is not listed twice. */
  key?: (row: Row<L>) => string;
  /** What else a page says besides its items (a count), after they are listed. */
  onPage?: (page: L) => void;
}) {
  const list = h("ul", { class: opts.listClass ?? "items", "aria-label": opts.label });
  const status = h("p", { class: "status", role: "status" }, "Loading…");
  const error = h("p", { class: "error", role: "alert" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, opts.moreLabel ?? "Show more");
  let cursor: string | null = null;
  // A page asked for before a restart (the filter changed) is dropped when it arrives.
  let generation = 0;
  const sayEmpty = () => {
    status.textContent = list.children.length === 0 ? (typeof opts.empty === "string" ? opts.empty : opts.empty()) : "";
  };
  const listed = (row: Row<L>) => opts.key !== undefined && list.querySelector(`:scope > [data-key="${CSS.escape(opts.key(row))}"]`) !== null;
  const made = (row: Row<L>) => {
    const li = opts.item(row, removed);
    if (opts.key) li.dataset.key = opts.key(row);
    return li;
  };
  const removed = (li: HTMLLIElement) => {
    li.remove();
    sayEmpty();
  };
  async function load() {
    const asked = generation;
    more.disabled = true;
    error.textContent = "";
    try {
      const q = new URLSearchParams({ ...opts.params?.(), ...(cursor ? { cursor } : {}) });
      const page = await call<L>("GET", `${opts.path}?${q}`);
      if (asked !== generation) return;
      list.append(...page.items.filter((row) => !listed(row)).map(made));
      cursor = page.nextCursor;
      more.hidden = !cursor;
      sayEmpty();
      opts.onPage?.(page);
    } catch (e) {
      status.textContent = "";
      error.textContent = inWords(e);
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener("click", load);
  void load();
  return {
    list,
    status,
    error,
    more,
    /** Puts a row made on this page (a new key, a new KB) first, as a page would list it. */
    prepend(row: Row<L>) {
      list.prepend(made(row));
      sayEmpty();
    },
    removed,
    /** From the first page again (the filter changed). */
    restart() {
      generation++;
      cursor = null;
      status.textContent = "Loading…";
      list.replaceChildren();
      void load();
    },
    /** The status, alert, list and "Show more", in that order. */
    parts: [status, error, list, h("div", { class: "more" }, more)] as const,
  };
}

/**
 * An item of such a list that may be revoked (an API key, an app's grant): its name, an
 * optional hint, its scopes and a line of facts, and Revoke, which asks first, then DELETEs
 * `path` and takes the item off the list; a refusal is shown in the item.
 */
export function revocableItem(o: {
  name: string;
  hint?: HTMLElement;
  scopes: string[];
  meta: string;
  confirm: string;
  path: string;
  removed: (li: HTMLLIElement) => void;
}): HTMLLIElement {
  const error = h("p", { class: "error", role: "alert" });
  const revoke = h("button", { type: "button", class: "danger", "aria-label": `Revoke ${o.name}` }, "Revoke");
  const li = h(
    "li",
    { class: "item card" },
    h(
      "div",
      { class: "item-main" },
      h("h3", {}, o.name),
      o.hint ?? null,
      h("ul", { class: "chips", "aria-label": `Scopes of ${o.name}` }, ...o.scopes.map((s) => h("li", {}, s))),
      h("p", { class: "meta" }, o.meta),
      error,
    ),
    revoke,
  );
  revoke.addEventListener("click", async () => {
    if (!confirm(o.confirm)) return;
    revoke.disabled = true;
    try {
      await call("DELETE", o.path);
      refreshUnread();
      o.removed(li);
    } catch (e) {
      error.textContent = inWords(e);
      revoke.disabled = false;
    }
  });
  return li;
}
