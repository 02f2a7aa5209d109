// One document of a KB, read: Markdown rendered (markdown.ts), a Typst document as the API's
// SVG render with its PDF to download, or either as its source text ("Show source"). Its
// facts, its history, and its pending conflict branches are a link away.
import { ApiError, call, callRaw } from "./api.ts";
import { inWords } from "./auth.ts";
import { bytes, h } from "./dom.ts";
import { type Doc, docText, type Entry, type Kb, when } from "./kb-data.ts";
import { renderMarkdown } from "./markdown.ts";

/** A render of the API as a blob: URL (a private document's render needs the token). */
async function renderUrl(docId: string, format: "svg" | "pdf") {
  const res = await callRaw(`/v1/docs/${docId}/render?format=${format}`);
  return URL.createObjectURL(await res.blob());
}

/** The rendered form: Markdown in the page, Typst as the API's SVG (or why it is not there). */
async function rendered(doc: Doc, source: string, kb: Kb, note: HTMLElement): Promise<HTMLElement> {
  const body = h("div", { class: "doc-body" });
  if (doc.format === "markdown") {
    const at = doc.relativePath ?? doc.filename;
    await renderMarkdown(body, source, { kbId: kb.id, dir: at.includes("/") ? at.slice(0, at.lastIndexOf("/") + 1) : "" });
    return body;
  }
  try {
    body.append(h("img", { src: await renderUrl(doc.id, "svg"), alt: `${doc.title}, rendered`, class: "typst-render" }));
  } catch (e) {
    // No compiler on this server (503), or a source that does not compile (422): the source instead.
    note.textContent = `${inWords(e)} The source is shown instead.`;
    body.append(h("pre", { class: "doc-source" }, source));
  }
  return body;
}

export async function docView(kb: Kb, entry: Entry, title: HTMLElement): Promise<HTMLElement[]> {
  const [doc, source] = await Promise.all([call<Doc>("GET", `/v1/docs/${entry.docId}`), docText(entry.docId)]);
  title.textContent = doc.title;
  document.title = `${doc.title} · shelf`;
  const note = h("p", { class: "status", role: "status" });
  const error = h("p", { class: "error", role: "alert" });
  const view = h("article", { class: "doc", "aria-label": doc.title });
  const sourceView = h("pre", { class: "doc-source", "aria-label": `Source of ${doc.title}` }, source);
  let renderedView: HTMLElement | null = null;

  const toggle = h("button", { type: "button", class: "secondary", "aria-pressed": "false" }, "Show source");
  async function showRendered() {
    renderedView ??= await rendered(doc, source, kb, note);
    view.replaceChildren(renderedView);
  }
  toggle.addEventListener("click", async () => {
    const toSource = toggle.getAttribute("aria-pressed") !== "true";
    toggle.setAttribute("aria-pressed", String(toSource));
    toggle.textContent = toSource ? "Show rendered" : "Show source";
    if (toSource) view.replaceChildren(sourceView);
    else await showRendered();
  });

  const actions = h("div", { class: "doc-actions" }, toggle, h("a", { href: `#/history/${doc.id}`, class: "button secondary" }, "History"));
  if (entry.hasPendingBranches) actions.append(h("a", { href: `#/conflicts/${kb.id}`, class: "button secondary" }, "Conflicts pending"));
  if (doc.format === "typst") {
    const pdf = h("button", { type: "button", class: "secondary" }, "Download PDF");
    pdf.addEventListener("click", async () => {
      error.textContent = "";
      pdf.disabled = true;
      try {
        const a = h("a", { href: await renderUrl(doc.id, "pdf"), download: `${doc.filename.replace(/\.typ$/, "")}.pdf` });
        a.click();
      } catch (e) {
        error.textContent = inWords(e);
      } finally {
        pdf.disabled = false;
      }
    });
    actions.append(pdf);
  }
  const facts = h(
    "dl",
    { class: "facts doc-facts" },
    h("dt", {}, "Path"),
    h("dd", {}, doc.relativePath ?? doc.filename),
    h("dt", {}, "Format"),
    h("dd", {}, doc.format === "typst" ? "Typst" : "Markdown"),
    h("dt", {}, "Size"),
    h("dd", {}, `${bytes(doc.sizeBytes)} · ${doc.wordCount === 1 ? "1 word" : `${doc.wordCount} words`}`),
    h("dt", {}, "Changed"),
    h("dd", {}, when(doc.updatedAt)),
    h("dt", {}, "Visibility"),
    h("dd", {}, doc.isPublic ? "Public" : "Private"),
  );
  try {
    await showRendered();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    error.textContent = inWords(e);
    view.replaceChildren(sourceView);
  }
  return [facts, actions, note, error, view];
}
