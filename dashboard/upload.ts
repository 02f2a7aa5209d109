// Upload: pick or drop files, many at once; each goes through the resumable endpoint
// (/v1/uploads, tus) with its own progress bar, so a dropped connection resumes where it
// stopped. A refusal (quota, plan, type, size) is told in the API's words. A video is then
// transcoded: its row follows it (GET /v1/videos/{id}/status every few seconds, as the API
// asks) until it is ready or failed, while the screen is shown.
import { type DetailedError, Upload } from "tus-js-client";
import { type Answer, accessToken, apiUrl, call, refresh } from "./api.ts";
import { bytes, h } from "./dom.ts";
import { duration } from "./media.ts";

/** How often a processing video is asked after (the API asks for every 5 to 10 s). */
const POLL_MS = 5000;

/** The tus kind of a file, by its type; documents go through the documents API (a later screen). */
function kindOf(file: File): "image" | "video" | "audio" | null {
  const major = file.type.split("/")[0];
  return major === "image" || major === "video" || major === "audio" ? major : null;
}

/** The envelope's message of a refused tus request, or words for a network failure. */
function refusal(e: Error): string {
  const res = (e as DetailedError).originalResponse;
  if (!res) return "The connection was lost. Try again to resume.";
  try {
    const body = JSON.parse(res.getBody());
    if (body?.error) {
      const words = String(body.error);
      return words.charAt(0).toUpperCase() + words.slice(1);
    }
  } catch {
    // not an envelope: fall through
  }
  return `The service refused the file (${res.getStatus()}).`;
}

/**
 * Follows the transcoding of the video `id` in `state` until it is ready or failed, or the
 * row leaves the page (the person went to another screen).
 */
function followVideo(id: string, row: HTMLElement, state: HTMLElement) {
  const path = `/v1/videos/${encodeURIComponent(id)}`;
  const check = async () => {
    if (!row.isConnected) return;
    try {
      const s = await call<Answer<"/v1/videos/{id}/status", "get">>("GET", `${path}/status`);
      if (s.status === "processing") {
        state.textContent = s.progress > 0 ? `Processing (${Math.round(s.progress * 100)}%)` : "Uploaded, processing";
      } else {
        // Ready or failed: the video itself says its length or why it failed.
        const v = await call<Answer<"/v1/videos/{id}", "get">>("GET", path);
        if (v.status === "ready") {
          state.textContent = `Ready${v.duration_seconds ? ` · ${duration(v.duration_seconds)}` : ""}`;
          row.classList.add("ready");
        } else if (v.status === "failed") {
          row.classList.remove("done");
          row.classList.add("failed");
          state.textContent = v.failure_reason ? `Processing failed: ${v.failure_reason}` : "Processing failed";
        }
        if (v.status !== "processing") return;
      }
    } catch {
      // Asked again at the next turn: the state is a convenience (the library says it too).
    }
    setTimeout(check, POLL_MS);
  };
  void check();
}

function uploadRow(file: File) {
  const progress = h("progress", { max: 100, value: 0, "aria-label": `Progress of ${file.name}` });
  const state = h("span", { class: "state" }, "Waiting");
  const row = h("li", { class: "upload" }, h("span", { class: "name" }, file.name), h("span", { class: "size" }, bytes(file.size)), progress, state);
  const kind = kindOf(file);
  const fail = (words: string) => {
    row.classList.add("failed");
    state.textContent = words;
  };
  if (!kind) {
    fail("Not an image, video or audio file.");
    return row;
  }
  let made: string | undefined;
  const upload = new Upload(file, {
    endpoint: apiUrl("/v1/uploads"),
    metadata: { kind, filename: file.name },
    chunkSize: 8 * 1024 * 1024,
    retryDelays: [0, 1000, 3000, 5000],
    // A fresh token on every request: an upload may outlast the access token.
    onBeforeRequest: (req) => {
      const t = accessToken();
      if (t) req.setHeader("Authorization", `Bearer ${t}`);
    },
    onShouldRetry: (err, _attempt, options) => {
      const status = err.originalResponse?.getStatus() ?? 0;
      if (status === 401) {
        void refresh();
        return true;
      }
      return status === 0 || status === 409 || status === 423 || status >= 500 ? (options.retryDelays?.length ?? 0) > 0 : false;
    },
    onProgress: (sent, total) => {
      const pct = total ? Math.round((sent / total) * 100) : 0;
      progress.value = pct;
      state.textContent = `${pct}%`;
    },
    // The PATCH that brings the last byte names what it made (X-Resource-Id).
    onAfterResponse: (_req, res) => {
      made = res.getHeader("X-Resource-Id") || made;
    },
    onError: (e) => fail(refusal(e)),
    onSuccess: () => {
      progress.value = 100;
      row.classList.add("done");
      state.textContent = kind === "video" ? "Uploaded, processing" : "Uploaded";
      if (kind === "video" && made) followVideo(made, row, state);
    },
  });
  state.textContent = "Uploading";
  upload.start();
  return row;
}

export function uploadScreen() {
  const list = h("ul", { class: "uploads", "aria-label": "Uploads" });
  const input = h("input", { id: "files", type: "file", multiple: true, class: "visually-hidden" });
  const add = (files: FileList | null) => {
    for (const f of Array.from(files ?? [])) list.prepend(uploadRow(f));
  };
  input.addEventListener("change", () => {
    add(input.files);
    input.value = "";
  });
  const zone = h(
    "div",
    { class: "dropzone", role: "group", "aria-label": "Drop files to upload" },
    h("p", {}, "Drop images, videos or audio here"),
    h("p", { class: "or" }, "or"),
    h("label", { for: "files", class: "button primary" }, "Choose files"),
    input,
  );
  zone.addEventListener("dragover", (e) => {
    e.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    add(e.dataTransfer?.files ?? null);
  });
  return h("section", {}, h("div", { class: "title-row" }, h("h1", {}, "Upload")), zone, list);
}
