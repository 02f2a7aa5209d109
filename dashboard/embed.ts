// The embeddable player (CENTER_URL/embed/v/<id>, /embed/a/<id>): a page another site puts
// in an <iframe>. It reads the public item with no credential (GET /v1/videos/:id or
// /v1/audio/:id, which answer anonymously for a public item) and plays it: a video through
// hls.js where the browser has Media Source Extensions (its captions in the player's menu,
// from the master playlist), or the browser's own HLS; audio through <audio>. A private
// or missing item says it is not available. No cookie, no token, no storage.
// A share link's page (CENTER_URL/s/<token>) uses the same player for its video: it names
// the playlist, poster and title itself (data-src, data-poster, data-title: URLs that open
// the video through the link), and the API is not asked.

const root = document.getElementById("embed")!;
const { api, kind, id, src, poster, title } = document.body.dataset as {
  api: string;
  kind: "video" | "audio";
  id: string;
  src?: string;
  poster?: string;
  title?: string;
};

function say(text: string) {
  const p = document.createElement("p");
  p.className = "unavailable";
  p.setAttribute("role", "status");
  p.textContent = text;
  root.replaceChildren(p);
}

interface Video {
  title: string;
  status: string;
  playback_url?: string;
  thumbnail_url?: string;
}
interface Audio {
  title: string;
  url: string;
  thumbnailUrl?: string | null;
}

async function item<T>(): Promise<T | null> {
  const res = await fetch(`${api}/v1/${kind === "video" ? "videos" : "audio"}/${encodeURIComponent(id)}`, { credentials: "omit" });
  if (!res.ok) return null;
  return ((await res.json()) as { data: T }).data;
}

async function video() {
  const v = src ? { title: title ?? "", status: "ready", playback_url: src, thumbnail_url: poster } : await item<Video>();
  if (!v || v.status !== "ready" || !v.playback_url) return say("This video is not available.");
  document.title = v.title;
  const el = document.createElement("video");
  el.controls = true;
  el.playsInline = true;
  el.preload = "metadata";
  el.setAttribute("aria-label", v.title);
  if (v.thumbnail_url) el.poster = v.thumbnail_url;
  root.replaceChildren(el);
  if (!("MediaSource" in window || "ManagedMediaSource" in window) && el.canPlayType("application/vnd.apple.mpegurl")) {
    el.src = v.playback_url;
    return;
  }
  const { default: Hls } = await import("hls.js");
  if (!Hls.isSupported()) return say("This browser cannot play this video.");
  // No worker: the page's CSP allows no blob: worker, and the main thread copes.
  const hls = new Hls({ enableWorker: false });
  hls.on(Hls.Events.MANIFEST_PARSED, () => {
    el.dataset.manifest = "parsed";
  });
  hls.on(Hls.Events.ERROR, (_e, data) => {
    if (data.fatal) say(`The video could not be played (${data.details}).`);
  });
  hls.loadSource(v.playback_url);
  hls.attachMedia(el);
}

async function audio() {
  const a = await item<Audio>();
  if (!a) return say("This audio is not available.");
  document.title = a.title;
  const figure = document.createElement("figure");
  if (a.thumbnailUrl) {
    const img = document.createElement("img");
    img.src = a.thumbnailUrl;
    img.alt = "";
    figure.append(img);
  }
  const el = document.createElement("audio");
  el.controls = true;
  el.preload = "metadata";
  el.src = a.url;
  el.setAttribute("aria-label", a.title);
  const caption = document.createElement("figcaption");
  caption.textContent = a.title;
  figure.append(caption, el);
  root.replaceChildren(figure);
}

(kind === "video" ? video() : audio()).catch(() => say("This item could not be loaded."));
