// What the media edge serves of a video under MEDIA_URL/v/<id>/ (paths in playback.ts):
// its HLS playlists and segments, the progressive MP4 and the thumbnail (with a size query,
// ?w=256 as an image's, a variant of it made on first request). The edge does the
// HTTP (validators, ranges, caching headers, metering); this kind says what a path is and
// who may have it: a private video only through a signed URL (403 otherwise, on every
// request), nothing that plays while its owner's bandwidth is suspended (451), and the
// master playlist with only the lowest rendition while it is degraded.
import type { Deps } from "../../core/deps.ts";
import { Lru } from "../../infra/cache.ts";
import { rowById } from "../../infra/db/prepared.ts";
import { AppError } from "../../core/errors.ts";
import { type EdgeVariant, type MediaResolver, REFUSAL, type ServedObject } from "../edge/public.ts";
import { derivedVariants, type VariantAsk } from "../images/public.ts";
import { type BandwidthState, createBandwidthStates } from "./bandwidth.ts";
import { captionsPrefix, hlsPrefix, videoPrefix } from "./layout.ts";
import { muxPlayback } from "./mux-playback.ts";
import { DIRECT, MASTER, masterWithOnly, masterWithSubtitles, parsePlaybackPath, SUBS, subtitlePlaylist } from "./playback.ts";
import { playbackDocument } from "./playback-openapi.ts";
import { createPlaybackSigner } from "./sign.ts";
import { videos } from "./table.ts";

/** The videos module's kind, as the edge and its invalidations name it. */
export const VIDEO_KIND = "video";

const unsigned = () => new AppError("FORBIDDEN", "this video plays only through a valid signed URL", { entity: VIDEO_KIND }, REFUSAL);
const suspended = () =>
  new AppError("BANDWIDTH_SUSPENDED", "video playback is suspended: the owner's monthly video bandwidth is over 120% of the plan", {}, REFUSAL);

const TYPES: Record<string, string> = {
  m3u8: "application/vnd.apple.mpegurl",
  ts: "video/mp2t",
  mp4: "video/mp4",
  jpg: "image/jpeg",
  vtt: "text/vtt; charset=utf-8",
};
const typeOf = (file: string) => TYPES[file.slice(file.lastIndexOf(".") + 1)];

interface ServedVideo extends ServedObject {
  readonly id: string;
  readonly state: BandwidthState;
  /** By file name below v/<id>/ (without a signature segment). */
  readonly files: ReadonlyMap<string, EdgeVariant>;
  /** The file name of the thumbnail: served as an image, also while playback is suspended. */
  readonly thumbnail: string | null;
  /** The master playlist a degraded owner's new sessions get; null when not degraded. */
  readonly degradedMaster: EdgeVariant | null;
  /** Hosted by Mux: its playlists and poster are sent there (mux-playback.ts). */
  readonly muxPlaybackId: string | null;
}

const byId = rowById("edge_video_by_id", videos, videos.id, {
  id: videos.id,
  ownerId: videos.ownerId,
  isPublic: videos.isPublic,
  status: videos.status,
  renditions: videos.renditions,
  directKey: videos.directKey,
  thumbnailKey: videos.thumbnailKey,
  customThumbnailKey: videos.customThumbnailKey,
  readyAt: videos.readyAt,
  provider: videos.provider,
  providerPlaybackId: videos.providerPlaybackId,
  captions: videos.captions,
  durationSeconds: videos.durationSeconds,
  trashedAt: videos.trashedAt,
});
type Row = NonNullable<Awaited<ReturnType<typeof byId>>>;

/** What a video's stored files are, kept while the row says they have not changed. */
interface Listing {
  version: string;
  /** By file name below v/<id>/: its key and size. */
  files: Map<string, { key: string; size: number }>;
  thumbnail: string | null;
  /** Built on first need, per visibility (the edge keeps headers per variant object). */
  built?: { isPublic: boolean; files: Map<string, EdgeVariant>; variants: EdgeVariant[] };
  degraded?: EdgeVariant | null;
  /** The master playlist with the caption tracks in it, made once per listing (none without captions). */
  captioned?: EdgeVariant | null;
}

const LISTINGS_MAX = 2_000;
/** The path a Mux-hosted video's poster has at the edge when the owner set none. */
const MUX_THUMBNAIL = "thumb.jpg";

export function videoEdgeResolver(deps: Deps): MediaResolver<ServedVideo> {
  const signer = createPlaybackSigner(deps.config.JWT_SECRET);
  // A thumbnail's size query (?w=256, as an image's): its variants, made on first request.
  const sized = derivedVariants(deps);
  const asked = new WeakMap<Request, VariantAsk | null>();
  const states = createBandwidthStates(deps);
  const listings = new Lru<Listing>(LISTINGS_MAX);
  const mux = muxPlayback(deps.config);

  /** The files the row says the video has, listed from the store once per version of the row. */
  async function listingOf(row: Row): Promise<Listing> {
    const thumbKey = row.customThumbnailKey ?? row.thumbnailKey;
    const ready = row.status === "ready";
    const version = `${row.ownerId}|${row.status}|${row.readyAt?.getTime()}|${row.renditions}|${row.directKey}|${thumbKey}|${row.captions.map((t) => t.file)}`;
    const had = listings.get(row.id);
    if (had?.version === version) return had;
    const prefix = videoPrefix(row);
    const hls = hlsPrefix(row).slice(prefix.length);
    const subs = captionsPrefix(row).slice(prefix.length);
    const captionFiles = new Set(row.captions.map((t) => t.file));
    const thumbnail = thumbKey ? thumbKey.slice(thumbKey.lastIndexOf("/") + 1) : null;
    const files = new Map<string, { key: string; size: number }>();
    for await (const o of deps.storage.list(prefix)) {
      const rel = o.key.slice(prefix.length);
      let name: string | null = null;
      // The MP4 may be the original itself (already H.264/AAC in MP4): served as direct.mp4 either way.
      if (ready && o.key === row.directKey) name = DIRECT;
      else if (rel === thumbnail) name = rel;
      else if (rel.startsWith(subs) && captionFiles.has(rel.slice(subs.length))) name = `${SUBS}${rel.slice(subs.length)}`;
      else if (ready && rel.startsWith(hls)) {
        const file = rel.slice(hls.length);
        const slash = file.indexOf("/");
        if (file === MASTER || (slash > 0 && row.renditions.includes(file.slice(0, slash)) && !file.includes("/", slash + 1))) name = file;
      }
      if (name && typeOf(name)) files.set(name, { key: o.key, size: o.size });
    }
    const listing: Listing = { version, files, thumbnail: thumbnail && files.has(thumbnail) ? thumbnail : null };
    listings.set(row.id, listing);
    return listing;
  }

  const etag = (id: string, file: string, size: number) => `"${id}/${file}/${size}"`;

  /** A playlist the resolver made (not stored), served short-cached as the stored ones are. */
  function madePlaylist(id: string, key: string, name: string, text: string): EdgeVariant {
    const body = new Blob([text], { type: TYPES.m3u8 });
    return { key, size: body.size, contentType: TYPES.m3u8!, etag: etag(id, name, body.size), cache: "short", body };
  }

  /** The master playlist with the video's caption tracks as a subtitles group, made once per listing. */
  async function captionedMaster(row: Row, listing: Listing): Promise<EdgeVariant | null> {
    if (listing.captioned !== undefined) return listing.captioned;
    const stored = listing.files.get(MASTER);
    const tracks = row.captions.filter((t) => listing.files.has(`${SUBS}${t.file}`));
    const bytes = stored && tracks.length > 0 && (await deps.storage.read(stored.key));
    if (!stored || !bytes) return (listing.captioned = null);
    const text = masterWithSubtitles(new TextDecoder().decode(bytes), tracks);
    // The tracks' files are in the name: a replaced track makes another ETag.
    return (listing.captioned = madePlaylist(row.id, `${stored.key}#subs`, `${MASTER}/${tracks.map((t) => t.file).join(",")}`, text));
  }

  function built(row: Row, listing: Listing, captioned: EdgeVariant | null) {
    if (listing.built?.isPublic === row.isPublic) return listing.built;
    const files = new Map<string, EdgeVariant>();
    for (const [file, { key, size }] of listing.files) {
      const playlist = file.endsWith(".m3u8");
      files.set(file, {
        key,
        size,
        contentType: typeOf(file)!,
        etag: etag(row.id, file, size),
        ...(playlist ? { cache: "short" as const } : {}),
        ...(file === listing.thumbnail ? { dimension: "image_bandwidth" as const } : {}),
      });
    }
    if (captioned) {
      files.set(MASTER, captioned);
      for (const t of row.captions) {
        const name = `${SUBS}${t.language}.m3u8`;
        if (files.has(`${SUBS}${t.file}`))
          files.set(name, madePlaylist(row.id, `${captioned.key}/${t.file}`, name, subtitlePlaylist(t.file, row.durationSeconds ?? 0)));
      }
    }
    listing.built = { isPublic: row.isPublic, files, variants: [...files.values()] };
    return listing.built;
  }

  /** The master playlist with the lowest rendition only, made once per listing. */
  async function degradedMaster(row: Row, listing: Listing, master: EdgeVariant | undefined): Promise<EdgeVariant | null> {
    if (listing.degraded !== undefined) return listing.degraded;
    // The captioned master is made here, not stored: its own bytes.
    const bytes = master && (master.body ? await master.body.bytes() : await deps.storage.read(master.key));
    const lowest = row.renditions[0];
    if (!bytes || !lowest) return (listing.degraded = null);
    const body = new Blob([masterWithOnly(new TextDecoder().decode(bytes), lowest)], { type: TYPES.m3u8 });
    listing.degraded = {
      key: `${master.key}#${lowest}`,
      size: body.size,
      contentType: TYPES.m3u8!,
      etag: etag(row.id, `${MASTER}/${lowest}`, body.size),
      cache: "short",
      body,
    };
    return listing.degraded;
  }

  /** A Mux-hosted video's master playlist and poster as redirects; its other paths are Mux's own (404 here). */
  function muxVariant(video: ServedVideo, file: string, token: string | null): EdgeVariant | null {
    const local = video.files.get(file);
    if (local) return local;
    const where = file === MASTER ? mux.stream : file === MUX_THUMBNAIL && video.thumbnail === MUX_THUMBNAIL ? mux.thumbnail : null;
    if (!where) return null;
    const target = {
      playbackId: video.muxPlaybackId!,
      degraded: video.state === "degraded",
      signedUntilS: token ? Number(token.split(".")[1]) : null,
      nowS: Math.floor(deps.clock.nowMs() / 1000),
    };
    const contentType = file === MASTER ? TYPES.m3u8! : TYPES.jpg!;
    return { key: `mux:${target.playbackId}/${file}`, size: 0, contentType, etag: '""', redirect: () => where(target) };
  }

  return {
    kind: VIDEO_KIND,
    document: playbackDocument,
    match(file) {
      return file.startsWith("v/") ? (parsePlaybackPath(file)?.id ?? null) : null;
    },
    precheck(file, request) {
      // Only a thumbnail (a .jpg) takes a size query; playlists and segments are not read for one.
      if (file.endsWith(".jpg")) asked.set(request, sized.ask(request));
    },
    async lookup(id) {
      const row = await byId(deps.db, id);
      // A trashed video plays for nobody: 404 until it is restored.
      if (!row || row.trashedAt) return null;
      const listing = await listingOf(row);
      const muxPlaybackId = row.status === "ready" && row.provider === "mux" ? row.providerPlaybackId : null;
      if (listing.files.size === 0 && !muxPlaybackId) return null;
      const captioned = row.status === "ready" && row.captions.length > 0 ? await captionedMaster(row, listing) : null;
      const { files, variants } = built(row, listing, captioned);
      const state = row.status === "ready" ? await states.of(row.ownerId) : "ok";
      const degraded = state === "degraded" ? await degradedMaster(row, listing, files.get(MASTER)) : null;
      return {
        id: row.id,
        ownerId: row.ownerId,
        isPublic: row.isPublic,
        dimension: "media_bandwidth",
        cache: "immutable",
        variants: degraded ? [...variants, degraded] : variants,
        state,
        files,
        // Mux makes the poster unless the owner set one.
        thumbnail: listing.thumbnail ?? (muxPlaybackId ? MUX_THUMBNAIL : null),
        degradedMaster: degraded,
        muxPlaybackId,
      };
    },
    admit(video, path) {
      const p = parsePlaybackPath(path)!;
      // A signature is checked wherever one is sent: a wrong one never plays, public or not.
      if (p.token !== null ? !signer.verify(video.id, p.token, deps.clock.nowMs()) : !video.isPublic) throw unsigned();
      if (video.state === "suspended" && p.file !== video.thumbnail) throw suspended();
      return p.token !== null;
    },
    select(video, path, request) {
      const { file, token } = parsePlaybackPath(path)!;
      const ask = file === video.thumbnail ? asked.get(request) : null;
      const picture = ask ? video.files.get(file) : undefined;
      // A Mux-hosted poster is Mux's: sent there as it is.
      if (ask && picture) return sized.variant(picture, ask, request.headers.get("accept"));
      if (video.muxPlaybackId) return muxVariant(video, file, token);
      if (file === MASTER && video.degradedMaster) return video.degradedMaster;
      return video.files.get(file) ?? null;
    },
  };
}
