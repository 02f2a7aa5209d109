// One item of the library, opened in a modal dialog (the browser's own <dialog>: focus is
// kept inside and Escape closes it): what it is (the picture, the player, the document
// rendered with its source a click away: doc-view.ts), a ready video's captions
// (captions.ts), its facts, its URL with a copy button, a form for its title, visibility
// and tags, a share link to make (shares.ts), Add to collection (a medium's: collections.ts), and delete.
// Every kind is changed and deleted through its own route (media.ts).
import { apiUrl, mediaBlobUrl } from "./api.ts";
import { audioPlayer } from "./audio.ts";
import { inWords } from "./auth.ts";
import { captionsPanel } from "./captions.ts";
import { addToCollection } from "./collections.ts";
import { documentReader } from "./doc-view.ts";
import { bytes, copy, h } from "./dom.ts";
import { type Doc, docText, kbEntries, kbHref, notePlace } from "./kb-data.ts";
import { deleteItem, duration, fetchItem, type Item, KIND_WORDS, saveItem } from "./media.ts";
import { sharePanel } from "./shares.ts";
import { videoPlayer } from "./video.ts";

interface Handlers {
  changed(item: Item): void;
  deleted(item: Item): void;
}

/** The URL a person would share: the file on the media edge, or a document's text. */
function urlOf(item: Item): string {
  switch (item.kind) {
    case "image":
      return item.raw.url;
    case "audio":
      return item.raw.url;
    case "video":
      return item.raw.playback_url ?? "";
    case "doc":
      return apiUrl(`/v1/docs/${item.id}/raw`);
  }
}

/** The facts of the kind, as term and value. */
function facts(item: Item): [string, string][] {
  const common: [string, string][] = [
    ["Size", bytes(item.size)],
    ["Uploaded", new Date(item.createdAt).toLocaleString()],
  ];
  switch (item.kind) {
    case "image":
      return [["Dimensions", `${item.raw.width} × ${item.raw.height}`], ...common];
    case "video":
      return [...(item.raw.duration_seconds ? [["Duration", duration(item.raw.duration_seconds)] as [string, string]] : []), ...common];
    case "audio": {
      const a = item.raw;
      const more: [string, string][] = [];
      if (a.tags?.artist) more.push(["Artist", a.tags.artist]);
      if (a.tags?.album) more.push(["Album", a.tags.album]);
      if (a.durationSeconds !== null) more.push(["Duration", duration(a.durationSeconds)]);
      if (a.bitrate !== null) more.push(["Bitrate", `${a.bitrate} kbps`]);
      return [...more, ["Type", a.mimeType], ...common];
    }
    case "doc":
      return [["Format", item.raw.format === "typst" ? "Typst" : "Markdown"], ["Words", String(item.raw.wordCount)], ...common];
  }
}

/**
 * A document, read as in its KB: rendered (a note's links resolve in its KB, when it is in
 * one and the KB's listing can be read), with its source one click away.
 */
function documentIn(doc: Doc): HTMLElement {
  const box = h("div", { class: "dialog-doc" }, h("p", { class: "status", role: "status" }, "Loading the document…"));
  void (async () => {
    try {
      const source = await docText(doc.id);
      const inKb = doc.kbId && doc.relativePath ? { kbId: doc.kbId, path: doc.relativePath } : null;
      const entries = inKb ? await kbEntries(inKb.kbId).catch(() => null) : null;
      const reader = await documentReader(doc, source, inKb && entries ? notePlace(inKb.kbId, inKb.path, entries) : null);
      const open = inKb ? h("a", { href: kbHref(inKb.kbId, inKb.path), class: "button secondary" }, "Open in its knowledge base") : null;
      box.replaceChildren(h("div", { class: "doc-actions" }, ...reader.buttons, open), reader.note, reader.error, reader.view);
    } catch (e) {
      box.replaceChildren(h("p", { class: "error", role: "alert" }, inWords(e)));
    }
  })();
  return box;
}

/**
 * The image itself: the tile's picture (a small variant) at once, then the full image once
 * it has arrived (a private one fetched with the token). Should the full image fail (the
 * edge still answering by the old visibility for a few seconds), the tile's picture stays.
 */
function fullImage(image: { url: string; is_public: boolean }, preview: string): HTMLImageElement {
  const shown = h("img", { src: preview, alt: "", class: "preview" });
  if (preview === image.url) return shown;
  const full = image.is_public ? Promise.resolve(image.url) : mediaBlobUrl(image.url);
  void full
    .then((src) => {
      const loader = new Image();
      loader.onload = () => {
        shown.src = src;
      };
      loader.src = src;
    })
    .catch(() => {});
  return shown;
}

/** What the dialog shows of the item itself; `stop` ends any playback when it closes. */
function body(item: Item, preview: string | undefined): { element: HTMLElement | null; stop: () => void } {
  const none = { element: null, stop: () => {} };
  switch (item.kind) {
    case "image":
      return preview ? { element: fullImage(item.raw, preview), stop: () => {} } : none;
    case "video":
      return videoPlayer(item.raw);
    case "audio":
      return audioPlayer(item.raw);
    case "doc":
      return { element: documentIn(item.raw), stop: () => {} };
  }
}

/** Opens `item`; for video, audio and documents the fresh full item is read first (playback URL, progress, tags). */
export async function openItem(listed: Item, preview: string | undefined, on: Handlers) {
  const item = listed.kind === "image" ? listed : await fetchItem(listed).catch(() => listed);
  const words = KIND_WORDS[item.kind];
  const error = h("p", { class: "error", role: "alert" });
  const note = h("p", { class: "status", role: "status" });
  const url = urlOf(item);
  const urlInput = h("input", { id: "item-url", readonly: true, value: url });
  const copyButton = h("button", { type: "button", class: "secondary" }, "Copy URL");
  copyButton.addEventListener("click", async () => {
    note.textContent = (await copy(urlInput)) ? "URL copied." : "Select the URL and copy it.";
  });
  const name = h("input", { id: "item-name", name: "title", value: item.title, required: true });
  const isPublic = h("input", { id: "item-public", type: "checkbox", name: "is_public", checked: item.isPublic });
  const tags = item.tags ? h("input", { id: "item-tags", name: "tags", value: item.tags.join(", "), "aria-describedby": "item-tags-hint" }) : null;
  const save = h("button", { type: "submit", class: "primary" }, "Save changes");
  const form = h(
    "form",
    { class: "image-form" },
    h("div", { class: "field" }, h("label", { for: "item-name" }, item.kind === "image" ? "Name" : "Title"), name),
    tags
      ? h("div", { class: "field" }, h("label", { for: "item-tags" }, "Tags"), tags, h("p", { class: "hint", id: "item-tags-hint" }, "Separated by commas."))
      : null,
    h("div", { class: "check" }, isPublic, h("label", { for: "item-public" }, "Public: anyone with the URL can see it")),
    error,
    save,
  );
  const remove = h("button", { type: "button", class: "danger" }, `Delete ${words.one}`);
  const close = h("button", { type: "button", class: "secondary" }, "Close");
  const shown = body(item, preview);
  const dialog = h(
    "dialog",
    { class: "image-dialog", "aria-labelledby": "item-title" },
    h("div", { class: "dialog-head" }, h("h2", { id: "item-title" }, item.title), close),
    shown.element,
    item.kind === "video" && item.raw.status === "ready" ? captionsPanel(item.id) : null,
    h("dl", { class: "facts" }, ...facts(item).flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])),
    url
      ? h(
          "div",
          { class: "field" },
          h("label", { for: "item-url" }, item.kind === "video" && !item.isPublic ? "URL (plays only through a signed link)" : "URL"),
          h("div", { class: "row" }, urlInput, copyButton),
        )
      : null,
    note,
    form,
    sharePanel({ kind: item.kind === "doc" ? "document" : item.kind, id: item.id }),
    item.kind === "doc" ? null : addToCollection({ kind: item.kind, id: item.id }),
    h("div", { class: "dialog-foot" }, remove),
  );
  const done = () => {
    dialog.close();
    dialog.remove();
  };
  close.addEventListener("click", done);
  // A link in the item (a document's, to its KB or another note) leads to another screen: the dialog goes with it.
  window.addEventListener("hashchange", done);
  dialog.addEventListener("close", () => {
    window.removeEventListener("hashchange", done);
    shown.stop();
    dialog.remove();
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    save.disabled = true;
    try {
      const tagList = (tags?.value ?? "")
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean);
      on.changed(await saveItem(item, { title: name.value.trim(), isPublic: isPublic.checked, tags: tagList }));
      done();
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      save.disabled = false;
    }
  });
  remove.addEventListener("click", async () => {
    if (!confirm(`Delete ${item.title}? Its URL stops working; it stays in the trash for a while, where it can be restored.`)) return;
    try {
      await deleteItem(item);
      on.deleted(item);
      done();
    } catch (e) {
      error.textContent = inWords(e);
    }
  });
  document.body.append(dialog);
  dialog.showModal();
}
