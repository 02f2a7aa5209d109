// The account screen's exports card (#/account#exports): start an export of the whole
// account (POST /v1/backup) and follow it while a worker writes it; once ready its archive
// is a link to the signed downloadUrl, which the browser fetches itself (no credential, no
// copy of the archive in the page). The e-mail and the notification link here.
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { bytes, h, when } from "./dom.ts";

type Export = Answer<"/v1/backup/{id}", "get">;
type Page = Answer<"/v1/backup", "get">;

/** How often an export being written is asked after. */
const POLL_MS = 2_000;

function stateText(e: Export): string {
  const p = e.progress;
  switch (e.state) {
    case "queued":
      return "Waiting for a worker";
    case "running":
      return p.itemsTotal ? `Copying: ${p.itemsDone} of ${p.itemsTotal} items (${bytes(p.bytesDone)} of ${bytes(p.bytesTotal)})` : "Starting";
    case "ready":
      return `Ready: ${bytes(e.archiveBytes ?? 0)}, until ${when(e.expiresAt ?? "")}`;
    case "failed":
      return `Failed: ${e.failureReason ?? "no reason given"}`;
    default:
      return "Expired: its archive was removed";
  }
}

function exportRow(first: Export, onGone: () => void): HTMLElement {
  const state = h("span", { class: "state", role: "status" });
  const actions = h("span", { class: "actions" });
  const row = h("li", { class: "export" }, h("span", { class: "name" }, `Export of ${when(first.createdAt)}`), state, actions);
  const draw = (e: Export) => {
    state.textContent = stateText(e);
    row.dataset.state = e.state;
    const remove = h("button", { type: "button", class: "secondary" }, "Delete");
    remove.addEventListener("click", async () => {
      try {
        await call("DELETE", `/v1/backup/${encodeURIComponent(e.id)}`);
        row.remove();
        onGone();
      } catch (err) {
        state.textContent = inWords(err);
      }
    });
    actions.replaceChildren(
      ...(e.state === "ready" && e.downloadUrl
        ? [h("a", { href: e.downloadUrl, download: e.filename, class: "button primary" }, `Download ${e.filename}`)]
        : []),
      remove,
    );
  };
  const follow = async (e: Export) => {
    draw(e);
    if (e.state !== "queued" && e.state !== "running") return;
    setTimeout(async () => {
      if (!row.isConnected) return;
      try {
        await follow(await call<Export>("GET", `/v1/backup/${encodeURIComponent(e.id)}`));
      } catch {
        // Asked again at the next turn.
        void follow(e);
      }
    }, POLL_MS);
  };
  void follow(first);
  return row;
}

export function exportsCard(): HTMLElement {
  const list = h("ul", { class: "exports", "aria-label": "Your exports" });
  const empty = h("p", { class: "hint" }, "No export yet.");
  const error = h("p", { class: "error", role: "alert" });
  const start = h("button", { type: "button", class: "primary" }, "Export everything");
  const refreshEmpty = () => {
    empty.hidden = list.children.length > 0;
  };
  start.addEventListener("click", async () => {
    error.textContent = "";
    start.disabled = true;
    try {
      const e = await call<Export>("POST", "/v1/backup", {});
      list.prepend(exportRow(e, refreshEmpty));
      refreshEmpty();
    } catch (err) {
      error.textContent = inWords(err);
    } finally {
      start.disabled = false;
    }
  });
  call<Page>("GET", "/v1/backup?limit=10")
    .then((page) => {
      for (const e of page.items) list.append(exportRow(e, refreshEmpty));
      refreshEmpty();
    })
    .catch((err) => {
      error.textContent = inWords(err);
    });
  return h(
    "section",
    { class: "card settings", id: "exports" },
    h("h2", { id: "exports-title" }, "Export your account"),
    h(
      "p",
      { class: "hint" },
      "One zip of every image, video and audio file as uploaded, your documents with their earlier versions, and each knowledge base as its folders, with a manifest.json describing them. You are told when it is ready; it can be downloaded for a limited time.",
    ),
    h("div", { class: "actions" }, start),
    error,
    empty,
    list,
  );
}
