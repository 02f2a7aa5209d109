// One file of a KB (an attachment: a picture, a PDF, any bytes that are not a note): its
// facts, the picture itself when it is one, a Download button, and the notes that link to
// it. The bytes come from GET /v1/kbs/{id}/raw?path= with the session's token.
import { inWords } from "./auth.ts";
import { linkedFrom } from "./doc-view.ts";
import { bytes, h } from "./dom.ts";
import { type Entry, type Kb, when } from "./kb-data.ts";
import { downloadKbFile, pictureUrl } from "./note-files.ts";

export function fileView(kb: Kb, entry: Entry, title: HTMLElement): HTMLElement[] {
  const path = entry.relativePath;
  const name = path.slice(path.lastIndexOf("/") + 1);
  title.textContent = name;
  document.title = `${name} · shelf`;
  const type = entry.contentType ?? "";
  const error = h("p", { class: "error", role: "alert" });
  const download = h("button", { type: "button", class: "secondary" }, "Download");
  download.addEventListener("click", async () => {
    error.textContent = "";
    download.disabled = true;
    try {
      await downloadKbFile(kb.id, path);
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      download.disabled = false;
    }
  });
  const facts = h(
    "dl",
    { class: "facts doc-facts" },
    h("dt", {}, "Path"),
    h("dd", {}, path),
    h("dt", {}, "Type"),
    h("dd", {}, type || "File"),
    h("dt", {}, "Size"),
    h("dd", {}, bytes(entry.sizeBytes)),
    h("dt", {}, "Changed"),
    h("dd", {}, when(entry.updatedAt)),
  );
  const shown: HTMLElement[] = [];
  if (type.startsWith("image/")) {
    const img = h("img", { alt: name, class: "kb-file-picture" });
    pictureUrl(kb.id, path)
      .then((url) => {
        img.src = url;
      })
      .catch((e) => img.replaceWith(h("p", { class: "status" }, `The picture could not be shown. ${inWords(e)}`)));
    shown.push(h("figure", { class: "doc kb-file" }, img));
  }
  return [facts, h("div", { class: "doc-actions" }, download), error, ...shown, linkedFrom(kb, path)];
}
