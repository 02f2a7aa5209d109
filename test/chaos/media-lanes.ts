// The media load: image, audio and video uploads (a video transcodes on a worker), tus
// uploads cut half way and resumed from their URL, and list and edge reads. Each lane
// loops until told to stop; a 201 (or a finished tus upload) goes in the ledger.
import * as tus from "tus-js-client";
import { fixture } from "../audio/fixtures.ts";
import { png } from "../images/fixtures.ts";
import { clip } from "../videos/fixtures.ts";
import type { Traffic } from "./traffic.ts";

const form = (bytes: Uint8Array, filename: string, fields: Record<string, string> = {}) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  f.set("file", new File([bytes as Uint8Array<ArrayBuffer>], filename, { type: "application/octet-stream" }));
  return f;
};

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

/** One upload lane: POST a form, and on 201 note what was made. */
async function uploads(t: Traffic, stop: () => boolean, key: string, kind: "image" | "audio" | "video") {
  const path = { image: "/v1/images", audio: "/v1/audio", video: "/v1/videos" }[kind];
  const bytes = kind === "image" ? await png(24, 16) : kind === "audio" ? await fixture("mp3") : await clip({ seconds: 1, size: "160x90" });
  const processing: string[] = [];
  for (let n = 0; !stop(); n++) {
    // Videos at the pace two workers transcode them: at most two waiting at a time.
    if (kind === "video" && processing.length >= 2) {
      const res = await t.send(kind, `${path}/${processing[0]}`, { headers: auth(key), retry: true });
      if (res.status !== 200 || JSON.parse(res.text).data.status === "processing") await t.changes.next(1_000);
      else processing.shift();
      continue;
    }
    const fields: Record<string, string> = kind === "image" ? { is_public: "true" } : {};
    const res = await t.send(kind, path, {
      method: "POST",
      headers: auth(key),
      body: form(bytes, `chaos-${n}.${kind === "image" ? "png" : kind === "audio" ? "mp3" : "mp4"}`, fields),
    });
    if (res.status === 201) {
      const data = JSON.parse(res.text).data;
      t.ledger.push({ kind, id: data.id, key, edge: kind === "image" ? new URL(data.url).pathname : undefined });
      if (kind === "video") processing.push(data.id);
    } else if (res.status >= 500 || res.status === 0) await t.changes.next(500);
  }
}

/** tus-js-client on the node `send` would pick, its answers counted like every other. */
function tusUpload(t: Traffic, base: string, key: string, bytes: Uint8Array, uploadUrl: string | null, until?: number) {
  return new Promise<{ url: string; resourceId?: string; cut: boolean }>((resolve, reject) => {
    let resourceId: string | undefined;
    let cut = false;
    const upload = new tus.Upload(Buffer.from(bytes), {
      endpoint: `${base}/v1/uploads`,
      uploadUrl,
      headers: auth(key),
      metadata: { kind: "audio", filename: "chaos.mp3" },
      chunkSize: Math.ceil(bytes.length / 4),
      retryDelays: [],
      onAfterResponse(req, res) {
        const status = res.getStatus();
        t.count("tus", `${req.getMethod()} /v1/uploads`, status, res.getHeader("retry-after") ?? null, status >= 500 ? res.getBody() : "");
        resourceId = res.getHeader("x-resource-id") ?? resourceId;
      },
      onChunkComplete(_chunk, acknowledged, total) {
        if (until === undefined || cut || acknowledged < total * until || acknowledged === total) return;
        cut = true;
        upload.abort(false).then(() => resolve({ url: upload.url!, cut }), reject);
      },
      onError: reject,
      onSuccess: () => resolve({ url: upload.url!, resourceId, cut }),
    });
    upload.start();
  });
}

/** Uploads cut at half and resumed by a new client that knows only the URL, until each finishes. */
async function tusLane(t: Traffic, stop: () => boolean, key: string) {
  const bytes = await fixture("mp3");
  while (!stop()) {
    let url: string | null = null;
    let done: { resourceId?: string } | undefined;
    for (let attempt = 0; !done && attempt < 30; attempt++) {
      const node = await t.node();
      try {
        const r = await tusUpload(t, node.base, key, bytes, url, url ? undefined : 0.5);
        url = r.url.replace(/^https?:\/\/[^/]+/, node.base);
        if (!r.cut) done = r;
      } catch {
        // A cut connection or a 503: resumed from the URL (a new upload if it was never created).
        t.dropped++;
        await t.changes.next(500);
      }
    }
    if (done?.resourceId) t.ledger.push({ kind: "tus", id: done.resourceId, key });
  }
}

/** List and edge reads: the media lists, the KB list, and a public image's bytes. */
async function reads(t: Traffic, stop: () => boolean, key: string) {
  const paths = ["/v1/images", "/v1/videos", "/v1/kbs"];
  for (let n = 0; !stop(); n++) {
    const images = t.ledger.filter((a) => a.edge);
    const edge = images.length && n % 2 ? images[n % images.length]!.edge! : undefined;
    const res = await t.send("reads", edge ?? paths[n % paths.length]!, { headers: auth(key), retry: true });
    if (res.status === 503) await t.changes.next(500);
  }
}

export function mediaLanes(t: Traffic, stop: () => boolean, keys: { image: string; audio: string; video: string; tus: string; reads: string }) {
  return [
    uploads(t, stop, keys.image, "image"),
    uploads(t, stop, keys.audio, "audio"),
    uploads(t, stop, keys.video, "video"),
    tusLane(t, stop, keys.tus),
    reads(t, stop, keys.reads),
  ];
}
