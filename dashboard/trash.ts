// The trash (#/trash): what was deleted, most recently deleted first (GET /v1/trash, a page
// of the cursor at a time), each with its kind, size, when it was deleted and when it will
// be purged; Restore (POST /v1/trash/{id}/restore) and Delete forever (DELETE
// /v1/trash/{id}, after a confirmation) on each; Empty trash (DELETE /v1/trash) after one.
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { bytes, h, when } from "./dom.ts";
import { pagedList } from "./paged.ts";

type TrashPage = Answer<"/v1/trash", "get">;
type Item = TrashPage["items"][number];

const KIND_NAMES: Record<Item["kind"], string> = { image: "Image", video: "Video", audio: "Audio", document: "Document", kb: "Knowledge base" };

export function trashScreen() {
  const done = h("p", { class: "notice", role: "status", hidden: true });
  const say = (text: string) => {
    done.textContent = text;
    done.hidden = false;
  };
  const empty = h("button", { type: "button", class: "danger", hidden: true }, "Empty trash");

  function item(t: Item, removed: (li: HTMLLIElement) => void) {
    const error = h("p", { class: "error", role: "alert" });
    const restore = h("button", { type: "button", class: "secondary", "aria-label": `Restore ${t.name}` }, "Restore");
    const purge = h("button", { type: "button", class: "danger", "aria-label": `Delete forever: ${t.name}` }, "Delete forever");
    const li = h(
      "li",
      { class: "item card trashed" },
      h(
        "div",
        { class: "item-main" },
        h("h3", {}, t.name),
        h(
          "p",
          { class: "meta" },
          `${KIND_NAMES[t.kind]} · ${bytes(t.size)} · deleted `,
          h("time", { datetime: t.deletedAt }, when(t.deletedAt)),
          " · deleted for good ",
          h("time", { datetime: t.purgeAt }, when(t.purgeAt)),
        ),
        error,
      ),
      h("div", { class: "item-actions" }, restore, purge),
    );
    const act = async (button: HTMLButtonElement, method: string, path: string, said: string) => {
      error.textContent = "";
      button.disabled = true;
      try {
        await call(method, path);
        say(said);
        removed(li);
        empty.hidden = trash.list.children.length === 0;
      } catch (e) {
        error.textContent = inWords(e);
        button.disabled = false;
      }
    };
    restore.addEventListener("click", () => act(restore, "POST", `/v1/trash/${encodeURIComponent(t.id)}/restore`, `${t.name} restored.`));
    purge.addEventListener("click", () => {
      if (!confirm(`Delete ${t.name} forever? It cannot be restored afterwards.`)) return;
      void act(purge, "DELETE", `/v1/trash/${encodeURIComponent(t.id)}`, `${t.name} deleted forever.`);
    });
    return li;
  }

  const trash = pagedList<TrashPage>({
    label: "Deleted items",
    path: "/v1/trash",
    empty: "The trash is empty. What you delete stays here for a while before it is deleted for good.",
    item,
    key: (t) => t.id,
    onPage: () => {
      empty.hidden = trash.list.children.length === 0;
    },
  });
  empty.addEventListener("click", async () => {
    if (!confirm("Empty the trash? Everything in it is deleted for good and cannot be restored.")) return;
    empty.disabled = true;
    try {
      const { purged } = await call<Answer<"/v1/trash", "delete">>("DELETE", "/v1/trash");
      say(purged === 1 ? "1 item deleted forever." : `${purged} items deleted forever.`);
      trash.restart();
      empty.hidden = true;
    } catch (e) {
      trash.error.textContent = inWords(e);
    } finally {
      empty.disabled = false;
    }
  });
  return h(
    "section",
    { class: "narrow" },
    h("div", { class: "title-row" }, h("h1", {}, "Trash"), h("div", { class: "title-actions" }, empty)),
    h(
      "p",
      { class: "lead" },
      "Deleted images, videos, audio, documents and knowledge bases. Their links do not work while they are here, and they still count in your storage until they are deleted for good.",
    ),
    done,
    ...trash.parts,
  );
}
