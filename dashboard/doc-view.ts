// One document, read: Markdown rendered as a note (markdown.ts: its properties, links within
// its KB, footnotes, tasks, callouts), a Typst document as the API's SVG render (an <img>
// of a blob: URL, never inline SVG) with its PDF to download; either with its source one
// click away ("Show source"). documentReader is that reader, for a KB's note and for a
// document outside any KB (the library's dialog) alike. In a KB (docView) the document's
// facts, its history and pending conflict branches are a link away, and "Linked from"
// lists the notes of the KB that link to it (GET /v1/kbs/{id}/backlinks).
import { type Answer, ApiError, call, callRaw } from "./api.ts";
import { inWords } from "./auth.ts";
import { bytes, h } from "./dom.ts";
import { type Doc, docText, type Entry, type Kb, kbHref, notePlace, when } from "./kb-data.ts";
import type { NotePlace } from "./kb-data.ts";
import { renderMarkdown } from "./markdown.ts";

/** A render of the API as a blob: URL (a private document's render needs the token). */
async function renderUrl(docId: string, format: "svg" | "pdf") {
  const res = await callRaw(`/v1/docs/${docId}/render?format=${format}`);
  return URL.createObjectURL(await res.blob());
}

/** The rendered form: Markdown in the page, Typst as the API's SVG (or why it is not there). */
async function rendered(doc: Doc, source: string, place: NotePlace | null, note: HTMLElement): Promise<HTMLElement> {
  const body = h("div", { class: "doc-body" });
  if (doc.format === "markdown") {
    await renderMarkdown(body, source, place);
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

/** A document's reader: its buttons (the source toggle, a Typst document's PDF), what they say, and the view itself, drawn rendered. */
export async function documentReader(doc: Doc, source: string, place: NotePlace | null) {
  const note = h("p", { class: "status", role: "status" });
  const error = h("p", { class: "error", role: "alert" });
  const view = h("article", { class: "doc", "aria-label": doc.title });
  const sourceView = h("pre", { class: "doc-source", tabindex: 0, "aria-label": `Source of ${doc.title}` }, source);
  let renderedView: HTMLElement | null = null;

  const toggle = h("button", { type: "button", class: "secondary", "aria-pressed": "false" }, "Show source");
  async function showRendered() {
    renderedView ??= await rendered(doc, source, place, note);
    view.replaceChildren(renderedView);
  }
  toggle.addEventListener("click", async () => {
    const toSource = toggle.getAttribute("aria-pressed") !== "true";
    toggle.setAttribute("aria-pressed", String(toSource));
    toggle.textContent = toSource ? "Show rendered" : "Show source";
    if (toSource) view.replaceChildren(sourceView);
    else await showRendered();
  });
  const buttons: HTMLElement[] = [toggle];
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
    buttons.push(pdf);
  }
  try {
    await showRendered();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    error.textContent = inWords(e);
    view.replaceChildren(sourceView);
  }
  return { buttons, note, error, view };
}

type Backlinks = Answer<"/v1/kbs/{id}/backlinks", "get">;

/** "Linked from": the notes of the KB that link to the document or file at `path`, filled in when the API answers. */
export function linkedFrom(kb: Kb, path: string): HTMLElement {
  const status = h("p", { class: "status", role: "status" }, "Looking for notes that link here…");
  const section = h("section", { class: "backlinks", "aria-labelledby": "backlinks-title" }, h("h2", { id: "backlinks-title" }, "Linked from"), status);
  call<Backlinks>("GET", `/v1/kbs/${kb.id}/backlinks?${new URLSearchParams({ path })}`)
    .then(({ items }) => {
      if (!items.length) {
        status.textContent = "No other note links here.";
        return;
      }
      status.textContent = "";
      section.append(
        h(
          "ul",
          { class: "backlink-list", "aria-label": "Notes that link here" },
          ...items.map((b) =>
            h(
              "li",
              {},
              h("a", { href: kbHref(kb.id, b.relativePath) }, b.title),
              b.title === b.relativePath ? null : h("span", { class: "meta" }, b.relativePath),
            ),
          ),
        ),
      );
    })
    .catch((e) => {
      status.textContent = `The notes that link here could not be listed. ${inWords(e)}`;
    });
  return section;
}

/** A document of a KB, with everything the KB knows of it; `entries` are the KB's, against which its links resolve. */
export async function docView(kb: Kb, entry: Entry, entries: Entry[], title: HTMLElement): Promise<HTMLElement[]> {
  const [doc, source] = await Promise.all([call<Doc>("GET", `/v1/docs/${entry.docId}`), docText(entry.docId)]);
  title.textContent = doc.title;
  document.title = `${doc.title} · shelf`;
  const reader = await documentReader(doc, source, notePlace(kb.id, entry.relativePath, entries));
  const actions = h("div", { class: "doc-actions" }, ...reader.buttons, h("a", { href: `#/history/${doc.id}`, class: "button secondary" }, "History"));
  if (entry.hasPendingBranches) actions.append(h("a", { href: `#/conflicts/${kb.id}`, class: "button secondary" }, "Conflicts pending"));
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
  return [facts, actions, reader.note, reader.error, reader.view, linkedFrom(kb, entry.relativePath)];
}
