// An audio file in the media dialog: its cover, title, artist and length, and an <audio>
// player. A public file plays from the media edge by its URL (ranges, the browser's cache);
// a private one is its owner's only and the element sends no token, so it is fetched with
// the token and played as a blob: URL.
import { mediaBlobUrl } from "./api.ts";
import { inWords } from "./auth.ts";
import { h } from "./dom.ts";
import { type AudioRaw, duration } from "./media.ts";

/** The cover (the embedded picture, else the format's default) as a source for <img>. */
const coverOf = (audio: AudioRaw): Promise<string> => (audio.isPublic ? Promise.resolve(audio.thumbnailUrl) : mediaBlobUrl(audio.thumbnailUrl));

export function audioPlayer(audio: AudioRaw): { element: HTMLElement; stop: () => void } {
  const error = h("p", { class: "error", role: "alert" });
  const cover = h("img", { alt: `Cover of ${audio.title}`, class: "cover", width: 120, height: 120 });
  void coverOf(audio)
    .then((src) => {
      cover.src = src;
    })
    .catch(() => cover.remove());
  const player = h("audio", { controls: true, preload: "metadata", "aria-label": `Play ${audio.title}`, class: "audio" });
  if (audio.isPublic) player.src = audio.url;
  else
    void mediaBlobUrl(audio.url)
      .then((src) => {
        player.src = src;
      })
      .catch((e) => {
        error.textContent = inWords(e);
      });
  const artist = audio.tags?.artist;
  const about = h(
    "div",
    { class: "track" },
    h("p", { class: "track-title" }, audio.title),
    artist ? h("p", { class: "track-artist" }, artist) : null,
    h("p", { class: "meta" }, duration(audio.durationSeconds)),
  );
  return {
    element: h("div", { class: "audio-player" }, h("div", { class: "track-head" }, cover, about), player, error),
    stop: () => player.pause(),
  };
}
