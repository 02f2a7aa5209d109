// What the media edge serves of an audio file, under MEDIA_URL/a/:
//   a/<id>.<ext>      the file itself (url), as the MIME type of its format
//   a/<id>/cover.jpg  its embedded cover (thumbnailUrl), when it had one; with a size
//                     query (?w=256, as an image's) a variant of it, made on first request
//   a/<id>/cover.svg  the default thumbnail of its format, when it had none
// The edge does the HTTP (validators, ranges, caching, metering per owner): the file's
// bytes count in media bandwidth, its thumbnail's in image bandwidth. Audio has no rule of
// its own (no admit): the video bandwidth state never stops it, and a private
// file is served to its owner's credential only, as every owner-only object is.
import type { Deps } from "../../core/deps.ts";
import { rowById } from "../../infra/db/prepared.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import type { EdgeVariant, KindOperation, MediaResolver, ServedObject } from "../edge/public.ts";
import { derivedVariants, type VariantAsk } from "../images/public.ts";
import { AUDIO_FORMATS, type AudioFormat, defaultThumbnail, MIME } from "./formats.ts";
import { audio } from "./table.ts";

/** The audio module's kind, as the edge and its invalidations name it. */
export const AUDIO_KIND = "audio";

const ID = ID_PATTERN.slice(1, -1);
const PATH = new RegExp(`^a/(${ID})(?:\\.(${AUDIO_FORMATS.join("|")})|/(cover\\.jpg|cover\\.svg))$`);

export const audioUrl = (mediaUrl: string, id: string, format: AudioFormat) => `${mediaUrl}/a/${id}.${format}`;
export const thumbnailUrl = (mediaUrl: string, id: string, hasCover: boolean) => `${mediaUrl}/a/${id}/cover.${hasCover ? "jpg" : "svg"}`;

/** The default thumbnails: fixed pictures, made once. */
const DEFAULTS = new Map(AUDIO_FORMATS.map((f) => [f, new Blob([defaultThumbnail(f)], { type: "image/svg+xml" })]));

// An SVG opened directly runs nothing and loads nothing; the header is harmless on the rest.
const HEADERS = { "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox" } as const;

interface ServedAudio extends ServedObject {
  readonly format: AudioFormat;
  readonly file: EdgeVariant;
  readonly thumbnail: EdgeVariant;
  readonly hasCover: boolean;
}

const byId = rowById("edge_audio_by_id", audio, audio.id, {
  id: audio.id,
  ownerId: audio.ownerId,
  isPublic: audio.isPublic,
  format: audio.format,
  sizeBytes: audio.sizeBytes,
  objectKey: audio.objectKey,
  coverKey: audio.coverKey,
  coverBytes: audio.coverBytes,
  trashedAt: audio.trashedAt,
});
type Row = NonNullable<Awaited<ReturnType<typeof byId>>>;

function served(row: Row): ServedAudio {
  const file: EdgeVariant = { key: row.objectKey, contentType: MIME[row.format], size: row.sizeBytes, etag: `"${row.id}/${row.format}/${row.sizeBytes}"` };
  const svg = DEFAULTS.get(row.format)!;
  const thumbnail: EdgeVariant = row.coverKey
    ? { key: row.coverKey, contentType: "image/jpeg", size: row.coverBytes, etag: `"${row.id}/cover/${row.coverBytes}"`, dimension: "image_bandwidth" }
    : {
        key: `audio-default/${row.format}.svg`,
        contentType: "image/svg+xml",
        size: svg.size,
        etag: `"default-${row.format}/${svg.size}"`,
        dimension: "image_bandwidth",
        body: svg,
      };
  return {
    ownerId: row.ownerId,
    isPublic: row.isPublic,
    dimension: "media_bandwidth",
    cache: "immutable",
    variants: [file, thumbnail],
    headers: HEADERS,
    format: row.format,
    file,
    thumbnail,
    hasCover: row.coverKey !== null,
  };
}

function document(): Record<string, KindOperation> {
  const description =
    "An audio file's bytes (url of the audio resource) as the MIME type of the format its bytes showed, with ranges; and its thumbnail (thumbnailUrl): the embedded cover as a JPEG, or the format's default SVG. " +
    "The file counts in media bandwidth, the thumbnail in image bandwidth; the video bandwidth state never stops audio. A private file, and its thumbnail, only to its owner's credential with media.read (404 to everyone else).";
  return {
    "a/{file}": { summary: "An audio file", description, pathParameters: [{ name: "file", description: "<id>.<ext>, as url names it" }], refusals: {} },
    "a/{id}/{file}": {
      summary: "An audio file's thumbnail",
      description,
      pathParameters: [
        { name: "id", description: "the audio file's id" },
        { name: "file", description: "cover.jpg (an embedded cover; takes an image's size query) or cover.svg (the default), as thumbnailUrl names it" },
      ],
      refusals: {},
      sizeQuery: true,
    },
  };
}

export function audioEdgeResolver(deps: Deps): MediaResolver<ServedAudio> {
  const sized = derivedVariants(deps);
  // The size query as precheck read it, for select on the same request.
  const asked = new WeakMap<Request, VariantAsk | null>();
  return {
    kind: AUDIO_KIND,
    document,
    match(file) {
      return file.startsWith("a/") ? (PATH.exec(file)?.[1] ?? null) : null;
    },
    precheck(file, request) {
      // Only a cover takes a size query; the file's own query is not read.
      if (file.endsWith("/cover.jpg")) asked.set(request, sized.ask(request));
    },
    async lookup(id) {
      const row = await byId(deps.db, id);
      // A trashed file is served to nobody: 404 until it is restored.
      return row && !row.trashedAt ? served(row) : null;
    },
    select(a, file, request) {
      const m = PATH.exec(file)!;
      if (m[2] !== undefined) return m[2] === a.format ? a.file : null;
      if ((m[3] === "cover.jpg") !== a.hasCover) return null;
      const ask = a.hasCover ? asked.get(request) : null;
      return ask ? sized.variant(a.thumbnail, ask, request.headers.get("accept")) : a.thumbnail;
    },
  };
}
