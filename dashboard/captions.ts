// A ready video's captions in its dialog: the tracks it has (each with a button that
// removes it) and a form that adds one from a WebVTT or SRT file, or replaces the one of
// the same language. The player offers them in its captions menu (hls.js reads them from
// the master playlist), the next time it starts.
import { type Answer, call } from "./api.ts";
import { inWords } from "./auth.ts";
import { h } from "./dom.ts";

type Caption = Answer<"/v1/videos/{id}/captions", "get">["items"][number];

export function captionsPanel(videoId: string): HTMLElement {
  const list = h("ul", { class: "captions", "aria-label": "Caption tracks" });
  const empty = h("p", { class: "hint" }, "No captions yet.");
  const status = h("p", { class: "status", role: "status" });
  const error = h("p", { class: "error", role: "alert" });
  const language = h("input", { id: "caption-language", name: "language", required: true, placeholder: "en", "aria-describedby": "caption-language-hint" });
  const file = h("input", { id: "caption-file", name: "file", type: "file", required: true, accept: ".vtt,.srt,text/vtt,application/x-subrip" });
  const add = h("button", { type: "submit", class: "secondary" }, "Add captions");
  const form = h(
    "form",
    { class: "caption-form", "aria-label": "Add captions" },
    h(
      "div",
      { class: "field" },
      h("label", { for: "caption-language" }, "Language"),
      language,
      h("p", { class: "hint", id: "caption-language-hint" }, "A language tag: en, fr, pt-BR. A file for a language the video has replaces it."),
    ),
    h("div", { class: "field" }, h("label", { for: "caption-file" }, "Caption file (WebVTT or SRT)"), file),
    add,
  );

  function draw(tracks: Caption[]) {
    empty.hidden = tracks.length > 0;
    list.replaceChildren(
      ...tracks.map((t) => {
        const remove = h("button", { type: "button", class: "secondary", "aria-label": `Remove ${t.label} captions` }, "Remove");
        remove.addEventListener("click", async () => {
          error.textContent = "";
          try {
            await call("DELETE", `/v1/videos/${videoId}/captions/${encodeURIComponent(t.language)}`);
            await load();
            status.textContent = `${t.label} captions removed.`;
          } catch (e) {
            error.textContent = inWords(e);
          }
        });
        return h("li", {}, h("span", {}, t.label), h("span", { class: "meta" }, t.language), remove);
      }),
    );
  }

  async function load() {
    draw((await call<Answer<"/v1/videos/{id}/captions", "get">>("GET", `/v1/videos/${videoId}/captions`)).items);
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) return;
    error.textContent = "";
    status.textContent = "";
    add.disabled = true;
    try {
      const track = await call<Caption>("PUT", `/v1/videos/${videoId}/captions/${encodeURIComponent(language.value.trim())}`, chosen);
      form.reset();
      // The list first: what the status announces is then on the screen.
      await load();
      status.textContent = `${track.label} captions added; the player shows them the next time it starts.`;
    } catch (e) {
      error.textContent = inWords(e);
    } finally {
      add.disabled = false;
    }
  });
  load().catch((e) => {
    error.textContent = inWords(e);
  });
  return h(
    "section",
    { class: "captions-panel", "aria-labelledby": "captions-heading" },
    h("h3", { id: "captions-heading" }, "Captions"),
    empty,
    list,
    form,
    status,
    error,
  );
}
