// One image, opened from the library in a modal dialog (the browser's own <dialog>: focus is
// kept inside and Escape closes it): its metadata, its URL with a copy button, a form for its
// name, visibility and tags, and delete.
import { call } from "./api.ts";
import { inWords } from "./auth.ts";
import { bytes, h } from "./dom.ts";

export interface Image {
  id: string;
  url: string;
  filename: string;
  size: number;
  width: number;
  height: number;
  is_public: boolean;
  tags: string[];
  created_at: string;
}

interface Handlers {
  changed(image: Image): void;
  deleted(image: Image): void;
}

/** Copies text; the Clipboard API needs a secure context, so plain HTTP falls back to a selection copy. */
export async function copy(input: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    input.select();
    return document.execCommand("copy");
  }
}

export function openImage(image: Image, preview: string | undefined, on: Handlers) {
  const error = h("p", { class: "error", role: "alert" });
  const note = h("p", { class: "status", role: "status" });
  const urlInput = h("input", { id: "image-url", readonly: true, value: image.url });
  const copyButton = h("button", { type: "button", class: "secondary" }, "Copy URL");
  copyButton.addEventListener("click", async () => {
    note.textContent = (await copy(urlInput)) ? "URL copied." : "Select the URL and copy it.";
  });
  const name = h("input", { id: "image-name", name: "filename", value: image.filename, required: true });
  const isPublic = h("input", { id: "image-public", type: "checkbox", name: "is_public", checked: image.is_public });
  const tags = h("input", { id: "image-tags", name: "tags", value: image.tags.join(", "), "aria-describedby": "image-tags-hint" });
  const save = h("button", { type: "submit", class: "primary" }, "Save changes");
  const form = h(
    "form",
    { class: "image-form" },
    h("div", { class: "field" }, h("label", { for: "image-name" }, "Name"), name),
    h("div", { class: "field" }, h("label", { for: "image-tags" }, "Tags"), tags, h("p", { class: "hint", id: "image-tags-hint" }, "Separated by commas.")),
    h("div", { class: "check" }, isPublic, h("label", { for: "image-public" }, "Public: anyone with the URL can see it")),
    error,
    save,
  );
  const remove = h("button", { type: "button", class: "danger" }, "Delete image");
  const close = h("button", { type: "button", class: "secondary" }, "Close");
  const dialog = h(
    "dialog",
    { class: "image-dialog", "aria-labelledby": "image-title" },
    h("div", { class: "dialog-head" }, h("h2", { id: "image-title" }, image.filename), close),
    preview ? h("img", { src: preview, alt: "", class: "preview" }) : null,
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Dimensions"),
      h("dd", {}, `${image.width} × ${image.height}`),
      h("dt", {}, "Size"),
      h("dd", {}, bytes(image.size)),
      h("dt", {}, "Uploaded"),
      h("dd", {}, new Date(image.created_at).toLocaleString()),
    ),
    h("div", { class: "field" }, h("label", { for: "image-url" }, "URL"), h("div", { class: "row" }, urlInput, copyButton)),
    note,
    form,
    h("div", { class: "dialog-foot" }, remove),
  );
  const done = () => {
    dialog.close();
    dialog.remove();
  };
  close.addEventListener("click", done);
  dialog.addEventListener("close", () => dialog.remove());
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    save.disabled = true;
    try {
      const body = {
        filename: name.value.trim(),
        is_public: isPublic.checked,
        tags: tags.value
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean),
      };
      const updated = await call<Image>("PATCH", `/v1/images/${image.id}`, body);
      on.changed(updated);
      done();
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      save.disabled = false;
    }
  });
  remove.addEventListener("click", async () => {
    if (!confirm(`Delete ${image.filename}? Its URL stops working.`)) return;
    try {
      await call("DELETE", `/v1/images/${image.id}`);
      on.deleted(image);
      done();
    } catch (e) {
      error.textContent = inWords(e);
    }
  });
  document.body.append(dialog);
  dialog.showModal();
}
