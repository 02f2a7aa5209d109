// What the media edge serves of an image at MEDIA_URL/<id>.<ext>: the stored original,
// or its WebP rendition to clients that name image/webp; SVG with a CSP that runs and
// loads nothing. Its bytes count against image bandwidth.
import type { DbOrTx } from "../../infra/db/index.ts";
import { rowById } from "../../infra/db/prepared.ts";
import { IMAGE_ID } from "../../infra/ids.ts";
import { acceptsWebp, IMAGE_KIND, type EdgeVariant, type MediaResolver, type ServedObject } from "../edge/public.ts";
import { FORMATS, IMAGE_FORMATS } from "./formats.ts";
import { etagOf, objectKey } from "./objects.ts";
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
}

const byId = rowById("edge_image_by_id", images, images.id, {
  id: images.id,
  ownerId: images.ownerId,
  format: images.format,
  isPublic: images.isPublic,
  size: images.size,
  webpSize: images.webpSize,
});
type Row = NonNullable<Awaited<ReturnType<typeof byId>>>;

function served(row: Row): ServedImage {
  const original = { key: objectKey(row, "original"), contentType: FORMATS[row.format].mime, size: row.size, etag: etagOf(row, "original") };
  const webp = row.webpSize === null ? null : { key: objectKey(row, "webp"), contentType: "image/webp", size: row.webpSize, etag: etagOf(row, "webp") };
  return {
    ownerId: row.ownerId,
    isPublic: row.isPublic,
    dimension: "image_bandwidth",
    cache: "immutable",
    variants: webp ? [original, webp] : [original],
    headers: row.format === "svg" ? SVG_HEADERS : RASTER_HEADERS,
    suffix: `.${FORMATS[row.format].ext}`,
    original,
    webp,
  };
}

/** The images kind, reading its own table through a prepared statement (every edge miss runs it). */
export function imageEdgeResolver(db: DbOrTx): MediaResolver<ServedImage> {
  return {
    kind: IMAGE_KIND,
    match(file) {
      return FILE.exec(file)?.[1] ?? null;
    },
    async lookup(id) {
      const row = await byId(db, id);
      return row ? served(row) : null;
    },
    select(image, file, request) {
      // The id is 11 characters without a dot, so the suffix is the whole extension.
      if (!file.endsWith(image.suffix)) return null;
      return image.webp && acceptsWebp(request.headers.get("accept")) ? image.webp : image.original;
    },
  };
}
