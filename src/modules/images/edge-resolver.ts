// What the media edge serves of an image at MEDIA_URL/<id>.<ext>: the stored original,
// or its WebP rendition to clients that name image/webp; SVG with a CSP that runs and
// loads nothing. With a size query (?w=&h=&fit=&q=&format=, variants/params.ts) a raster
// image is served as a variant, made on its first request (variants/made.ts); an SVG is
// served as it is, since it scales itself. Its bytes count against image bandwidth.
import type { Deps } from "../../core/deps.ts";
import { rowById } from "../../infra/db/prepared.ts";
import { IMAGE_ID } from "../../infra/ids.ts";
import { acceptsAvif, acceptsWebp, IMAGE_KIND, type EdgeVariant, type MediaResolver, type ServedObject } from "../edge/public.ts";
import { FORMATS, type ImageFormat, IMAGE_FORMATS } from "./formats.ts";
import { etagOf, objectKey } from "./objects.ts";
import { type VariantSource, variantMaker } from "./variants/made.ts";
import { allowedSizes, readAsk, type VariantAsk, type VariantFormat, type VariantSpec, variantName } from "./variants/params.ts";
import { images } from "./table.ts";

/** `<id>.<ext>` with the extension of an accepted format: any other name is no image. */
const FILE = new RegExp(`^(${IMAGE_ID})\\.(?:${IMAGE_FORMATS.map((f) => FORMATS[f].ext).join("|")})$`);

/** An SVG opened directly runs nothing and loads nothing, even if sanitizing missed something. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";
// Every image varies on Accept, an SVG too: one header set per kind of image, shared by all records.
const RASTER_HEADERS = { vary: "Accept" } as const;
const SVG_HEADERS = { vary: "Accept", "content-security-policy": SVG_CSP } as const;

interface ServedImage extends ServedObject {
  /** `.<ext>`: a request naming another extension is 404. */
  readonly suffix: string;
  readonly original: EdgeVariant;
  readonly webp: EdgeVariant | null;
  readonly source: VariantSource;
  /** Variants this node has served, by name: kept with the record and dropped with it. */
  readonly made: Map<string, EdgeVariant>;
}

const byId = rowById("edge_image_by_id", images, images.id, {
  id: images.id,
  ownerId: images.ownerId,
  format: images.format,
  isPublic: images.isPublic,
  size: images.size,
  webpSize: images.webpSize,
  width: images.width,
  height: images.height,
  frames: images.frames,
  trashedAt: images.trashedAt,
});
type Row = NonNullable<Awaited<ReturnType<typeof byId>>>;

function served(row: Row): ServedImage {
  const original = { key: objectKey(row, "original"), contentType: FORMATS[row.format].mime, size: row.size, etag: etagOf(row, "original") };
  const webp = row.webpSize === null ? null : { key: objectKey(row, "webp"), contentType: "image/webp", size: row.webpSize, etag: etagOf(row, "webp") };
  const made = new Map<string, EdgeVariant>();
  return {
    ownerId: row.ownerId,
    isPublic: row.isPublic,
    dimension: "image_bandwidth",
    cache: "immutable",
    // Read when the record is dropped: the made variants' bytes go with the others.
    get variants() {
      return [original, ...(webp ? [webp] : []), ...made.values()];
    },
    headers: row.format === "svg" ? SVG_HEADERS : RASTER_HEADERS,
    suffix: `.${FORMATS[row.format].ext}`,
    original,
    webp,
    source: { id: row.id, ownerId: row.ownerId, format: row.format, width: row.width, height: row.height, frames: row.frames },
    made,
  };
}

/**
 * The format of a variant that names none: AVIF where the client takes it (not for an
 * animation: AVIF variants are stills), then WebP, else a format every client reads: the
 * original's, PNG in place of WebP and AVIF, GIF for an animation.
 */
function negotiated(format: ImageFormat, frames: number, accept: string | null): VariantFormat {
  if (frames === 1 && acceptsAvif(accept)) return "avif";
  if (acceptsWebp(accept)) return "webp";
  if (frames > 1) return "gif";
  return format === "jpeg" || format === "png" || format === "gif" ? format : "png";
}

/** A size query as read once: what it asks, and its variants' names by format (made at their first use). */
interface Asked {
  ask: VariantAsk;
  names: Partial<Record<VariantFormat, string>>;
}

/** How many size queries a node keeps read (a client asks the same few again and again; a cache-busting one is read afresh). */
const ASKS_KEPT = 256;

/** The images kind, reading its own table through a prepared statement (every edge miss runs it). */
export function imageEdgeResolver(deps: Deps): MediaResolver<ServedImage> {
  const sizes = allowedSizes(deps.config.IMAGE_SIZES);
  const maker = variantMaker(deps);
  // Size queries by their text, read once: parsing a query was most of what a cached
  // variant's hit cost beyond its original's (docs/benchmarks.md, "(t) as deployed").
  const asks = new Map<string, Asked | null>();
  function askedOf(url: string): Asked | null {
    const query = url.slice(url.indexOf("?") + 1);
    let asked = asks.get(query);
    if (asked === undefined) {
      // A query that is refused throws here, and is not kept.
      const ask = readAsk(url, sizes);
      asked = ask && { ask, names: {} };
      if (asks.size >= ASKS_KEPT) asks.delete(asks.keys().next().value!);
      asks.set(query, asked);
    }
    return asked;
  }
  return {
    kind: IMAGE_KIND,
    match(file) {
      return FILE.exec(file)?.[1] ?? null;
    },
    precheck(_file, request) {
      // Checked for every image, an SVG too: a bad query is the same 400 whatever it names.
      if (request.url.includes("?")) askedOf(request.url);
    },
    async lookup(id) {
      const row = await byId(deps.db, id);
      // A trashed image is served to nobody, its owner neither: 404 until it is restored.
      return row && !row.trashedAt ? served(row) : null;
    },
    select(image, file, request) {
      // The id is 11 characters without a dot, so the suffix is the whole extension.
      if (!file.endsWith(image.suffix)) return null;
      const accept = request.headers.get("accept");
      const asked = request.url.includes("?") ? askedOf(request.url) : null;
      if (!asked || image.source.format === "svg") return image.webp && acceptsWebp(accept) ? image.webp : image.original;
      const { ask, names } = asked;
      const format = ask.format ?? negotiated(image.source.format, image.source.frames, accept);
      const name = (names[format] ??= variantName({ ...ask, format }));
      const known = image.made.get(name);
      if (known) return known;
      const spec: VariantSpec = { ...ask, format };
      return {
        ...image.original,
        make: () =>
          maker.make(image.source, spec).then((v) => {
            image.made.set(name, v);
            return v;
          }),
      };
    },
  };
}
