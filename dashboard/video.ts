// A video in the media dialog: its state in words (processing with progress, ready with its
// length, failed with the reason the API gives) and, once ready, a player. Playback is HLS:
// hls.js, loaded as a separate chunk only when the person presses Play (so the first page
// stays small), wherever the browser has Media Source Extensions; a browser without them
// that plays HLS itself (Safari on older iPhones) gets the playlist as the element's source. A private video plays through a signed URL (POST
// /v1/videos/:id/sign): players send no token, and the signature, a path segment, is carried
// to every playlist and segment.
import { type Answer, ApiError, call, mediaBlobUrl } from "./api.ts";
import { inWords } from "./auth.ts";
import { h } from "./dom.ts";
import { duration, type VideoRaw } from "./media.ts";

const HLS_TYPE = "application/vnd.apple.mpegurl";

/** The playlist to play: the public playback URL, or a signed one for a private video. */
async function playlistOf(video: VideoRaw): Promise<string> {
  if (video.isPublic && video.playback_url) return video.playback_url;
  // An hour: a URL must outlive the viewing it is for (a segment after the expiry is refused).
  const signed = await call<Answer<"/v1/videos/{id}/sign", "post">>("POST", `/v1/videos/${video.id}/sign`, { ttlSeconds: 3600 });
  return signed.url;
}

/** A private video's thumbnail: the same signature opens every file of the video. */
export async function thumbnailOf(video: VideoRaw, query = ""): Promise<string | undefined> {
  if (!video.thumbnail_url) return undefined;
  if (video.isPublic) return `${video.thumbnail_url}${query}`;
  const signed = await playlistOf(video);
  const file = video.thumbnail_url.slice(video.thumbnail_url.lastIndexOf("/") + 1);
  return mediaBlobUrl(`${signed.replace(/[^/]+$/, file)}${query}`);
}

/** The video's state in words, for its tile and its dialog. */
export function videoState(video: VideoRaw): string {
  if (video.status === "ready") return `Ready · ${duration(video.duration_seconds)}`;
  if (video.status === "failed") return video.failure_reason ? `Failed: ${video.failure_reason}` : "Failed";
  return video.progress !== undefined ? `Processing (${Math.round(video.progress * 100)}%)` : "Processing";
}

/**
 * The player (or the state, while there is nothing to play): a poster with a Play button,
 * replaced by the <video> when pressed. `stop` ends playback and frees hls.js when the
 * dialog closes.
 */
export function videoPlayer(video: VideoRaw): { element: HTMLElement; stop: () => void } {
  const state = h("p", { class: `video-state ${video.status}`, role: "status" }, videoState(video));
  if (video.bandwidth_state === "suspended") state.textContent += " · Playback is suspended: this month's video bandwidth is over 120% of the plan.";
  else if (video.bandwidth_state === "degraded") state.textContent += " · Plays at 360p: this month's video bandwidth is over the plan's limit.";
  if (video.status !== "ready") return { element: state, stop: () => {} };

  const error = h("p", { class: "error", role: "alert" });
  const poster = h("img", { alt: "", class: "poster" });
  void thumbnailOf(video)
    .then((src) => {
      if (src) poster.src = src;
    })
    .catch(() => poster.remove());
  const play = h("button", { type: "button", class: "play", "aria-label": `Play ${video.title}` }, h("span", { "aria-hidden": "true" }, "▶"));
  const stage = h("div", { class: "player" }, poster, play);
  let stopHls = () => {};
  let element: HTMLVideoElement | null = null;

  play.addEventListener("click", async () => {
    play.disabled = true;
    error.textContent = "";
    try {
      const src = await playlistOf(video);
      const el = h("video", { controls: true, playsinline: true, "aria-label": video.title, class: "video" });
      if (poster.src) el.poster = poster.src;
      // hls.js wherever Media Source Extensions exist (the same player, levels and errors
      // everywhere); the browser's own HLS only where they do not (Safari on older iPhones).
      if (!("MediaSource" in window || "ManagedMediaSource" in window) && el.canPlayType(HLS_TYPE)) el.src = src;
      else {
        const { default: Hls } = await import("hls.js");
        if (!Hls.isSupported()) throw new Error("This browser cannot play HLS video.");
        // No worker: the page's CSP allows no blob: worker, and the main thread copes.
        const hls = new Hls({ enableWorker: false });
        hls.on(Hls.Events.MANIFEST_PARSED, () => {
          el.dataset.manifest = "parsed";
        });
        hls.on(Hls.Events.ERROR, (_e, data) => {
          if (data.fatal) error.textContent = `The video could not be played (${data.details}).`;
        });
        hls.loadSource(src);
        hls.attachMedia(el);
        stopHls = () => hls.destroy();
      }
      element = el;
      stage.replaceChildren(el);
      el.focus();
      await el.play().catch(() => {});
    } catch (e) {
      error.textContent = e instanceof ApiError || !(e instanceof Error) ? inWords(e) : e.message;
      play.disabled = false;
    }
  });
  return {
    element: h("div", {}, stage, state, error),
    stop: () => {
      element?.pause();
      stopHls();
    },
  };
}
