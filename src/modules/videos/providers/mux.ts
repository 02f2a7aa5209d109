// Mux (https://docs.mux.com): the original goes up through a direct upload whose new
// asset carries the video's id as `passthrough`; Mux then reports the asset by webhook.
// Webhooks are signed per its documentation: `Mux-Signature: t=<unix s>,v1=<hex>` where
// v1 is HMAC-SHA256 with the webhook signing secret over "<t>.<raw body>".
import type { Deps } from "../../../core/deps.ts";
import { AppError } from "../../../core/errors.ts";
import type { ProviderEvent } from "../state.ts";
import type { Rendition, VideoRow } from "../table.ts";
import { videos } from "../table.ts";
import { deleteVideoObjects } from "../objects.ts";
import { verifySignature } from "./callback-signature.ts";
import { checkMuxAssetData } from "./mux-event.ts";
import { eq } from "drizzle-orm";
import type { VideoProvider } from "./types.ts";

const API = "https://api.mux.com/video/v1";

/** The fields of a Mux asset this adapter reads (webhook `data`, and GET /assets/:id). */
interface MuxAsset {
  id: string;
  status?: "preparing" | "ready" | "errored";
  duration?: number;
  passthrough?: string;
  max_stored_resolution?: "Audio only" | "SD" | "HD" | "FHD" | "UHD";
  errors?: { type?: string; messages?: string[] };
  playback_ids?: { id?: string; policy?: string }[];
}

const LADDERS: Record<string, Rendition[]> = { SD: ["360p"], HD: ["360p", "720p"], FHD: ["360p", "720p", "1080p"], UHD: ["360p", "720p", "1080p"] };

/** A Mux asset as a provider event (null while it is still being prepared). */
function muxAssetEvent(eventId: string, asset: MuxAsset): ProviderEvent | null {
  // The asset's id rides along even when passthrough names the video: should that video be
  // gone, the asset is deleted by it (state.ts).
  const which = asset.passthrough ? { videoId: asset.passthrough, assetId: asset.id } : { assetId: asset.id };
  if (asset.status === "ready") {
    return {
      id: eventId,
      ...which,
      type: "ready",
      result: {
        durationSeconds: asset.duration ?? 0,
        renditions: LADDERS[asset.max_stored_resolution ?? "SD"] ?? ["360p"],
        thumbnailKey: null,
        directKey: null,
        assetId: asset.id,
        ...(asset.playback_ids?.[0]?.id && { playbackId: asset.playback_ids[0].id }),
      },
    };
  }
  if (asset.status === "errored")
    return { id: eventId, ...which, type: "failed", reason: asset.errors?.messages?.join("; ") || "Mux could not process the file" };
  return null;
}

export function muxProvider(deps: Deps, fetchFn: typeof fetch = fetch): VideoProvider {
  const c = deps.config;
  const auth = `Basic ${Buffer.from(`${c.MUX_TOKEN_ID ?? ""}:${c.MUX_TOKEN_SECRET ?? ""}`).toString("base64")}`;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetchFn(`${API}${path}`, {
      method,
      headers: { authorization: auth, ...(body !== undefined && { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    if (method === "DELETE" && res.status === 404) return null;
    if (!res.ok) throw new Error(`Mux ${method} ${path} answered ${res.status}`);
    return res.status === 204 ? null : ((await res.json()) as { data: Record<string, unknown> }).data;
  };

  /**
   * A video deleted while Mux was still making its asset: the asset its upload made is
   * deleted, and an upload that has made none is cancelled so that it never does. Mux
   * refuses to cancel an upload that is making its asset; that throws, and the retry finds
   * the asset.
   */
  const dropUpload = async (uploadId: string) => {
    const upload = (await api("GET", `/uploads/${uploadId}`)) as { asset_id?: string; status?: string } | null;
    if (upload?.asset_id) await api("DELETE", `/assets/${upload.asset_id}`);
    else if (upload?.status === "waiting") await api("PUT", `/uploads/${uploadId}/cancel`);
  };

  return {
    name: "mux",
    async run(r) {
      if (r.job.kind === "delete") {
        const { assetId, uploadId } = r.job.payload;
        if (typeof assetId === "string") await api("DELETE", `/assets/${assetId}`);
        else if (typeof uploadId === "string") await dropUpload(uploadId);
        // An asset reported for a video already gone has no objects here (and no owner).
        if (r.job.ownerId) await deleteVideoObjects(deps.storage, { ownerId: r.job.ownerId, id: r.job.videoId });
        return undefined;
      }
      const [video] = await deps.db.select().from(videos).where(eq(videos.id, r.job.videoId));
      if (video?.status !== "processing" || !video.originalKey) {
        const reason = !video ? "the video was deleted" : video.status !== "processing" ? `the video is ${video.status}` : "the original is gone";
        return { outcome: "skipped", reason };
      }
      // A direct upload made by an earlier attempt is reused: the asset is made once.
      let upload = r.job.payload.upload as { id: string; url: string } | undefined;
      if (!upload) {
        const made = (await api("POST", "/uploads", {
          cors_origin: c.PUBLIC_URL,
          new_asset_settings: {
            playback_policy: [c.MUX_SIGNING_KEY_ID && c.MUX_SIGNING_KEY ? "signed" : "public"],
            passthrough: video.id,
            mp4_support: "capped-1080p",
          },
        })) as { id: string; url: string };
        upload = { id: made.id, url: made.url };
        await r.checkpoint({ ...r.job.payload, upload });
      }
      const source = await deps.storage.get(video.originalKey);
      if (!source) throw new Error("the original is gone");
      const res = await fetchFn(upload.url, { method: "PUT", body: source, headers: { "content-length": String(video.sizeBytes) } });
      if (!res.ok) throw new Error(`the Mux upload answered ${res.status}`);
      await deps.db
        .update(videos)
        .set({ providerAssetId: `upload:${upload.id}`, processingStartedAt: deps.clock.now() })
        .where(eq(videos.id, video.id));
      return { outcome: "submitted" };
    },
    parseCallback(raw, headers, now) {
      if (!c.MUX_WEBHOOK_SECRET) throw new AppError("UNAUTHORIZED", "callback refused: no Mux webhook secret is configured");
      verifySignature(c.MUX_WEBHOOK_SECRET, headers.get("mux-signature"), raw, now);
      let event: { id?: string; type?: string; data?: MuxAsset };
      try {
        event = JSON.parse(raw);
      } catch {
        throw new AppError("BAD_REQUEST", "the callback body is not JSON");
      }
      if (typeof event.id !== "string" || typeof event.type !== "string") throw new AppError("BAD_REQUEST", "the callback is not a Mux event");
      if ((event.type !== "video.asset.ready" && event.type !== "video.asset.errored") || !event.data?.id) return null;
      checkMuxAssetData(event.data);
      return muxAssetEvent(event.id, event.data);
    },
    async status(_deps, video: VideoRow) {
      let assetId = video.providerAssetId;
      if (assetId?.startsWith("upload:")) {
        // Until the asset is reported its id is known through the upload that made it.
        const upload = (await api("GET", `/uploads/${assetId.slice("upload:".length)}`)) as { asset_id?: string } | null;
        assetId = upload?.asset_id ?? null;
      }
      if (!assetId) return null;
      const asset = (await api("GET", `/assets/${assetId}`)) as MuxAsset | null;
      return asset ? muxAssetEvent(`reconcile:${video.id}:${asset.status}`, { ...asset, passthrough: video.id }) : null;
    },
  };
}
