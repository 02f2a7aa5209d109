// A KB's pending conflict branches (#/conflicts/<kbId>; docs/sync.md, "Conflict branches"): a client's version
// the API kept beside the master instead of overwriting it. Each is shown beside the
// current master as a side-by-side diff, with Accept (the branch becomes the master) and
// Discard (gone for good), each after a confirmation.
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { bytes, h } from "./dom.ts";
import { sideBySide } from "./diff-view.ts";
import { type Branch, breadcrumb, docText, getKb, type Kb, kbHref, pendingBranches, plural, when } from "./kb-data.ts";

export function conflictsScreen(kbId: string) {
  const title = h("h1", {}, "Conflicts");
  const crumbs = h("div", {});
  const status = h("p", { class: "status", role: "status" }, "Loading…");
  const error = h("p", { class: "error", role: "alert" });
  const count = h("p", { class: "count" });
  const list = h("div", { class: "conflicts" });
  let left = 0;
  const counted = () => {
    count.textContent = left ? `${plural("conflict", left)} pending` : "";
    if (!left) list.replaceChildren(h("p", { class: "status" }, "No conflicts pending: every document has one version."));
  };

  async function card(kb: Kb, b: Branch) {
    const full = await call<Answer<"/v1/kbs/{id}/conflicts/{branchId}", "get">>("GET", `/v1/kbs/${kb.id}/conflicts/${b.branchId}`);
    // A file's branch names bytes, not a text: there is nothing to compare line by line.
    const master = full.currentMasterHash === null || full.content === null ? "" : await docText(b.docId);
    const path = full.currentMasterPath ?? b.relativePath;
    const headingId = `conflict-${b.branchId}`;
    const accept = h("button", { type: "button", class: "primary" }, "Accept");
    const discard = h("button", { type: "button", class: "danger" }, "Discard");
    const article = h(
      "article",
      { class: "card conflict", "aria-labelledby": headingId },
      h("h2", { id: headingId }, path),
      h(
        "p",
        { class: "meta" },
        `Kept ${when(b.createdAt)} · ${bytes(b.sizeBytes)} · discarded automatically ${when(b.expiresAt)}`,
        full.currentMasterHash === null ? " · the current document was deleted since; accepting recreates it" : "",
      ),
      full.currentMasterHash === null ? null : h("p", {}, h("a", { href: kbHref(kb.id, path) }, "Open the current document")),
      full.content === null
        ? h("p", {}, "A file's pending version: accepting makes it the file at this path, discarding lets it go.")
        : await sideBySide(master, full.content, ["Current master", "Pending branch"], `${path}: the current master beside the pending branch`),
      h("div", { class: "conflict-actions" }, accept, discard),
    );
    const settle = (said: string) => {
      article.remove();
      left--;
      status.textContent = said;
      counted();
    };
    const act = async (button: HTMLButtonElement, question: string, run: () => Promise<string>) => {
      if (!confirm(question)) return;
      error.textContent = "";
      button.disabled = true;
      try {
        settle(await run());
      } catch (e) {
        error.textContent = inWords(e);
        button.disabled = false;
      }
    };
    accept.addEventListener("click", () =>
      act(accept, `Accept the pending branch of ${path}? It replaces the current master.`, async () => {
        const out = await call<Answer<"/v1/kbs/{id}/conflicts/{branchId}/accept", "post">>("POST", `/v1/kbs/${kb.id}/conflicts/${b.branchId}/accept`);
        return `Accepted: ${path} now holds the branch's text.${out.savedRevision ? ` The text it replaced is kept as revision ${out.savedRevision.revNumber}.` : ""}`;
      }),
    );
    discard.addEventListener("click", () =>
      act(discard, `Discard the pending branch of ${path}? It is deleted for good; the current master stays.`, async () => {
        await call("DELETE", `/v1/kbs/${kb.id}/conflicts/${b.branchId}`);
        return `Discarded the pending branch of ${path}; its master is unchanged.`;
      }),
    );
    return article;
  }

  async function load() {
    try {
      const [kb, branches] = await Promise.all([getKb(kbId), pendingBranches(kbId)]);
      title.textContent = `Conflicts in ${kb.name}`;
      document.title = `Conflicts in ${kb.name} · shelf`;
      crumbs.replaceChildren(breadcrumb(kb, "", "Conflicts"));
      left = branches.length;
      list.replaceChildren(...(await Promise.all(branches.map((b) => card(kb, b)))));
      counted();
      status.textContent = "";
    } catch (e) {
      status.textContent = "";
      error.textContent = inWords(e);
    }
  }
  void load();
  return h(
    "section",
    {},
    crumbs,
    h("div", { class: "title-row" }, title, count),
    h("p", { class: "hint conflicts-hint" }, "A sync client's version was kept beside the current one instead of overwriting it. Keep one of them."),
    status,
    error,
    list,
  );
}
