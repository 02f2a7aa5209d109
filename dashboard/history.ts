// A document's history (#/history/<docId>): its revisions newest first (kept when
// version history is on), a line diff between any two of them or the current text, and
// Restore, which the API answers by first keeping the current text as a revision too.
import { type Answer, ApiError, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { bytes, h } from "./dom.ts";
import { unifiedDiff } from "./diff-view.ts";
import { breadcrumb, type Doc, docText, getKb, type Kb, when } from "./kb-data.ts";

type Revisions = Answer<"/v1/docs/{id}/revisions", "get">;
type Revision = Revisions["revisions"][number];

const ORIGIN: Record<Revision["origin"], string> = { upload: "uploaded", sync: "synced", restore: "before a restore" };
const CURRENT = "current";

export function historyScreen(docId: string) {
  const title = h("h1", {}, "History");
  const crumbs = h("div", {});
  const status = h("p", { class: "status", role: "status" }, "Loading…");
  const error = h("p", { class: "error", role: "alert" });
  const body = h("div", { class: "history" });
  // Texts read once per screen: a diff between the same two revisions again costs nothing.
  const texts = new Map<string, Promise<string>>();
  const text = (rev: string) => {
    if (!texts.has(rev))
      texts.set(
        rev,
        rev === CURRENT
          ? docText(docId)
          : call<Answer<"/v1/docs/{id}/revisions/{revId}", "get">>("GET", `/v1/docs/${docId}/revisions/${rev}`).then((r) => r.content),
      );
    return texts.get(rev)!;
  };

  async function load(said = "") {
    texts.clear();
    try {
      const [doc, { revisions }] = await Promise.all([call<Doc>("GET", `/v1/docs/${docId}`), call<Revisions>("GET", `/v1/docs/${docId}/revisions`)]);
      const kb: Kb | null = doc.kbId ? await getKb(doc.kbId).catch(() => null) : null;
      title.textContent = `History of ${doc.title}`;
      document.title = `History of ${doc.title} · shelf`;
      const path = doc.relativePath ?? "";
      crumbs.replaceChildren(breadcrumb(kb, path, "History"));
      status.textContent = said;
      if (!revisions.length) {
        const me = await call<Answer<"/v1/user/me", "get">>("GET", "/v1/user/me").catch(() => null);
        body.replaceChildren(
          h(
            "p",
            { class: "status" },
            me && !me.docVersioningEnabled
              ? "No earlier versions: version history is off for your account, so replaced text is not kept."
              : "No earlier versions yet: each time the text is replaced, the previous one is kept here.",
          ),
        );
        return;
      }
      body.replaceChildren(compare(revisions), revisionList(doc, revisions));
    } catch (e) {
      status.textContent = "";
      error.textContent = inWords(e);
    }
  }

  /** Two pickers (any revision or the current text) and the diff between them. */
  function compare(revisions: Revision[]) {
    const options = (selected: string) => [
      h("option", { value: CURRENT, selected: selected === CURRENT }, "Current text"),
      ...revisions.map((r) => h("option", { value: r.id, selected: selected === r.id }, `Revision ${r.revNumber} (${when(r.createdAt)})`)),
    ];
    const from = h("select", { id: "diff-from", name: "from" }, ...options(revisions[0]!.id));
    const to = h("select", { id: "diff-to", name: "to" }, ...options(CURRENT));
    const out = h("div", { class: "diff-out", "aria-live": "polite" });
    const name = (s: HTMLSelectElement) => s.selectedOptions[0]?.textContent?.replace(/ \(.*\)$/, "") ?? "";
    async function show() {
      error.textContent = "";
      try {
        const [a, b] = await Promise.all([text(from.value), text(to.value)]);
        out.replaceChildren(await unifiedDiff(a, b, `Differences between ${name(from)} and ${name(to)}`));
      } catch (e) {
        error.textContent = inWords(e);
      }
    }
    from.addEventListener("change", show);
    to.addEventListener("change", show);
    void show();
    return h(
      "section",
      { class: "card compare", "aria-labelledby": "compare-title" },
      h("h2", { id: "compare-title" }, "Compare"),
      h(
        "div",
        { class: "pickers" },
        h("div", { class: "field" }, h("label", { for: "diff-from" }, "From"), from),
        h("div", { class: "field" }, h("label", { for: "diff-to" }, "To"), to),
      ),
      h("p", { class: "hint" }, "− marks a line only in the first, + a line only in the second."),
      out,
    );
  }

  function revisionList(doc: Doc, revisions: Revision[]) {
    const list = h("ul", { class: "revisions", "aria-label": "Revisions" });
    for (const r of revisions) {
      const restore = h("button", { type: "button", class: "secondary" }, "Restore");
      restore.addEventListener("click", async () => {
        if (!confirm(`Restore revision ${r.revNumber} of ${doc.title}? The current text is kept as a new revision first.`)) return;
        error.textContent = "";
        restore.disabled = true;
        try {
          const out = await call<Answer<"/v1/docs/{id}/revisions/{revId}/restore", "post">>("POST", `/v1/docs/${doc.id}/revisions/${r.id}/restore`);
          await load(
            out.duplicate
              ? `Revision ${r.revNumber} already is the current text: nothing changed.`
              : `Revision ${r.revNumber} restored.${out.savedRevision ? ` The text before it is kept as revision ${out.savedRevision.revNumber}.` : ""}`,
          );
        } catch (e) {
          error.textContent = e instanceof ApiError ? inWords(e) : String(e);
          restore.disabled = false;
        }
      });
      list.append(
        h(
          "li",
          { class: "revision" },
          h("span", { class: "rev-name" }, `Revision ${r.revNumber}`),
          h("span", { class: "meta" }, `${when(r.createdAt)} · ${bytes(r.sizeBytes)} · ${ORIGIN[r.origin]}`),
          restore,
        ),
      );
    }
    return h("section", { "aria-labelledby": "revisions-title" }, h("h2", { id: "revisions-title" }, "Revisions"), list);
  }

  void load();
  return h("section", {}, crumbs, h("div", { class: "title-row" }, title), status, error, body);
}
