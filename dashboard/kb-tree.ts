// One knowledge base (#/kbs/<id>/<path...>): the path names a folder (its folders and
// documents, from the KB's manifest), a document (doc-view.ts) or a file (file-view.ts);
// `#<anchor>` after a document's path names one of its headings or footnotes, scrolled to
// once it is drawn. The KB's own page says how many conflict branches are pending, with a
// link to them. A folder (the KB itself too) has a share link to make and a site to publish, each folded under it.
import { inWords } from "./auth.ts";
import { bytes, h } from "./dom.ts";
import { docView } from "./doc-view.ts";
import { fileView } from "./file-view.ts";
import { breadcrumb, type Entry, getKb, type Kb, kbEntries, kbFacts, kbHref, pendingBranches, plural, when } from "./kb-data.ts";
import { anchorTarget, jumpTo } from "./markdown.ts";
import { publishPanel } from "./publish.ts";
import { sharePanel } from "./shares.ts";

/** The folder's direct children: subfolders (with how many documents each holds) and documents. */
function children(entries: Entry[], folder: string) {
  const prefix = folder ? `${folder}/` : "";
  const folders = new Map<string, number>();
  const docs: Entry[] = [];
  for (const e of entries) {
    if (!e.relativePath.startsWith(prefix)) continue;
    const rest = e.relativePath.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash < 0) docs.push(e);
    else folders.set(rest.slice(0, slash), (folders.get(rest.slice(0, slash)) ?? 0) + 1);
  }
  const byName = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true, sensitivity: "base" });
  return { folders: [...folders].sort(([a], [b]) => byName(a, b)), docs: docs.sort((a, b) => byName(a.relativePath, b.relativePath)) };
}

function folderList(kb: Kb, entries: Entry[], folder: string) {
  const { folders, docs } = children(entries, folder);
  const name = (n: string) => n.slice(n.lastIndexOf("/") + 1);
  const list = h("ul", { class: "tree", "aria-label": folder ? `Contents of ${name(folder)}` : "Contents" });
  for (const [f, count] of folders) {
    const path = folder ? `${folder}/${f}` : f;
    list.append(
      h(
        "li",
        { class: "folder" },
        h("span", { class: "kind", "aria-hidden": "true" }, "▸"),
        h("a", { href: kbHref(kb.id, path) }, f),
        h("span", { class: "meta" }, `Folder · ${plural("document", count)}`),
      ),
    );
  }
  for (const d of docs) {
    list.append(
      h(
        "li",
        { class: "file" },
        h("span", { class: "kind", "aria-hidden": "true" }, "≡"),
        h("a", { href: kbHref(kb.id, d.relativePath) }, name(d.relativePath)),
        h("span", { class: "meta" }, `${bytes(d.sizeBytes)} · ${when(d.updatedAt)}`),
        d.hasPendingBranches ? h("span", { class: "badge warn" }, "conflict pending") : null,
      ),
    );
  }
  if (!list.childElementCount) {
    return h(
      "p",
      { class: "status" },
      folder ? "This folder is empty." : "No documents yet. A sync client (shelf sync) or the API (POST /v1/kbs/{id}/sync) fills it from a folder.",
    );
  }
  return list;
}

/** The KB's summary on its own page: counts, description and pending conflicts. */
function summary(kb: Kb, conflicts: number) {
  return h(
    "div",
    { class: "kb-summary" },
    h("p", { class: "meta" }, `${kbFacts(kb)} · changed ${when(kb.updatedAt)}`),
    kb.description ? h("p", {}, kb.description) : null,
    conflicts
      ? h(
          "p",
          { class: "notice warn" },
          `${plural("conflict", conflicts)} pending: a client's version kept beside the current one. `,
          h("a", { href: `#/conflicts/${kb.id}` }, "Review conflicts"),
        )
      : h("p", { class: "notice" }, "No conflicts pending."),
  );
}

/** `rest` is "<id>" or "<id>/<path...>", each segment URL-encoded. */
export function kbScreen(rest: string) {
  // "<id>/<path...>#<anchor>": a heading or footnote of a document (each path segment is
  // encoded, so a "#" in the address is the anchor's).
  const hash = rest.indexOf("#");
  const [id = "", ...segments] = (hash < 0 ? rest : rest.slice(0, hash)).split("/");
  let path = "";
  let anchor = "";
  try {
    path = segments.map(decodeURIComponent).filter(Boolean).join("/");
    anchor = hash < 0 ? "" : decodeURIComponent(rest.slice(hash + 1));
  } catch {
    // A malformed escape: the KB's root.
  }
  const title = h("h1", {}, path ? path.slice(path.lastIndexOf("/") + 1) : "Knowledge base");
  const crumbs = h("div", {});
  const status = h("p", { class: "status", role: "status" }, "Loading…");
  const error = h("p", { class: "error", role: "alert" });
  const body = h("div", {});
  const section = h("section", { class: "kb" }, crumbs, h("div", { class: "title-row" }, title), status, error, body);

  async function load() {
    try {
      const [kb, entries] = await Promise.all([getKb(id), kbEntries(id)]);
      const doc = path ? entries.find((e) => e.relativePath === path) : undefined;
      if (doc) {
        const parent = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
        crumbs.replaceChildren(breadcrumb(kb, parent, path.slice(path.lastIndexOf("/") + 1)));
        if (doc.kind === "file") body.replaceChildren(...fileView(kb, doc, title));
        else body.replaceChildren(...(await docView(kb, doc, entries, title)));
        const target = anchor ? anchorTarget(body, anchor) : null;
        if (target) jumpTo(target);
      } else if (!path || entries.some((e) => e.relativePath.startsWith(`${path}/`))) {
        crumbs.replaceChildren(breadcrumb(kb, path));
        document.title = `${path || kb.name} · shelf`;
        if (!path) {
          title.textContent = kb.name;
          body.append(summary(kb, (await pendingBranches(kb.id)).length));
        }
        body.append(folderList(kb, entries, path));
        body.append(
          h(
            "details",
            { class: "card share-folder" },
            h("summary", {}, path ? "Share this folder" : "Share this knowledge base"),
            sharePanel({ kind: "kb", id: kb.id, path }, path ? "this folder's notes and pictures" : "this knowledge base's notes and pictures"),
          ),
          h(
            "details",
            { class: "card share-folder" },
            h("summary", {}, path ? "Publish this folder" : "Publish this knowledge base"),
            publishPanel(kb.id, path, path ? "this folder's notes" : "this knowledge base's notes"),
          ),
        );
      } else {
        crumbs.replaceChildren(breadcrumb(kb));
        error.textContent = `There is no document or folder “${path}” in ${kb.name}.`;
      }
      status.textContent = "";
    } catch (e) {
      status.textContent = "";
      error.textContent = inWords(e);
    }
  }
  void load();
  return section;
}
