// What a note draws from its KB besides its own text: pictures and other files at KB paths
// (GET /v1/kbs/{id}/raw?path=, which serves a file with its own Content-Type), read with
// the session's token and shown as blob: URLs, as a private thumbnail is; and the notes it
// embeds (![[Note]], ![[Note#Heading]]), one level deep: their text rendered in place under
// a link to them (a note embedded in an embedded note is a link).
import { callRaw } from "./api.ts";
import { h } from "./dom.ts";
import { docText } from "./kb-data.ts";

const IMAGE = /\.(png|jpe?g|gif|webp|avif|svg|bmp|ico)$/i;
const MARKDOWN = /\.(md|markdown)$/i;

/** Whether a KB path is a picture (by its extension, as an editor decides what ![[...]] shows). */
export const isImagePath = (path: string) => IMAGE.test(path);

const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** A KB file's bytes, read with the session's token. */
const fileAt = async (kbId: string, path: string) => (await callRaw(`/v1/kbs/${kbId}/raw?${new URLSearchParams({ path })}`)).blob();

/** A KB picture as a blob: URL; refused when the bytes are no picture. */
export async function pictureUrl(kbId: string, path: string): Promise<string> {
  const blob = await fileAt(kbId, path);
  if (!blob.type.startsWith("image/")) throw new Error(`${path} is not a picture`);
  return URL.createObjectURL(blob);
}

/** Saves a KB file under its own name (the browser's download). */
export async function downloadKbFile(kbId: string, path: string) {
  const url = URL.createObjectURL(await fileAt(kbId, path));
  h("a", { href: url, download: nameOf(path) }).click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Loads the KB's pictures of a rendered note (`img[data-kb-path]`, each path read once) and
 * makes its file buttons (`button[data-kb-file]`) download the file. A picture that cannot
 * be read, or is no picture, is replaced by words saying so.
 */
export function wireKbFiles(root: HTMLElement, kbId: string) {
  const read = new Map<string, Promise<string>>();
  for (const img of root.querySelectorAll<HTMLImageElement>("img[data-kb-path]")) {
    const path = img.dataset.kbPath!;
    if (!read.has(path)) read.set(path, pictureUrl(kbId, path));
    read
      .get(path)!
      .then((url) => {
        img.src = url;
      })
      .catch(() => img.replaceWith(h("span", { class: "blocked-image" }, `Image not loaded: ${img.alt || path}`)));
  }
  for (const button of root.querySelectorAll<HTMLButtonElement>("button[data-kb-file]")) {
    const path = button.dataset.kbFile!;
    button.title = `Download ${nameOf(path)}`;
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await downloadKbFile(kbId, path);
      } catch {
        button.after(h("span", { class: "error", role: "alert" }, ` ${nameOf(path)} could not be downloaded.`));
      } finally {
        button.disabled = false;
      }
    });
  }
}

/** Where an embedded note is, for rendering it: its KB's place with its own path. */
interface EmbedPlace {
  path: string;
  docIds: ReadonlyMap<string, string>;
}

/** Renders `text` (the note at `path`) into `into`; resolves to the prefix of the ids it wrote. */
type Render<P> = (into: HTMLElement, text: string, place: P) => Promise<string>;

/** Keeps the heading `id` of `body` and what follows it up to the next heading of its level or above. */
function sectionOf(body: HTMLElement, id: string): boolean {
  const heading = body.querySelector<HTMLElement>(`#${CSS.escape(id)}`);
  if (!heading || heading.parentElement !== body || !/^H[1-6]$/.test(heading.tagName)) return false;
  const level = Number(heading.tagName[1]);
  const kept: Element[] = [heading];
  for (let el = heading.nextElementSibling; el; el = el.nextElementSibling) {
    if (/^H[1-6]$/.test(el.tagName) && Number(el.tagName[1]) <= level) break;
    kept.push(el);
  }
  body.replaceChildren(...kept);
  return true;
}

/** Fills the note's embeds of other Markdown notes (`.note-embed[data-embed-path]`) with their rendered text. */
export async function fillEmbeds<P extends EmbedPlace>(root: HTMLElement, place: P, render: Render<P>) {
  const boxes = [...root.querySelectorAll<HTMLElement>(".note-embed[data-embed-path]")];
  await Promise.all(
    boxes.map(async (box) => {
      const path = box.dataset.embedPath!;
      const docId = place.docIds.get(path);
      if (!docId || !MARKDOWN.test(path)) return;
      const body = h("span", { class: "note-embed-body doc-body" });
      try {
        const prefix = await render(body, await docText(docId), { ...place, path });
        const anchor = box.dataset.embedAnchor;
        if (anchor && !sectionOf(body, prefix + anchor))
          body.prepend(h("span", { class: "status" }, `No heading “${anchor}” in this note; the whole note is shown.`));
        box.append(body);
      } catch {
        box.append(h("span", { class: "status" }, "This note could not be read."));
      }
    }),
  );
}
