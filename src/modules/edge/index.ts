// The media edge: GET MEDIA_URL/<id>.<ext>, served by the api role (a CDN may sit in
// front). WebP to clients that take it (raster images), else the stored original; strong
// ETags, 304, byte ranges, immutable caching. Hot records and small objects are served
// from memory; every byte served is metered per owner and month.
import { Elysia } from "elysia";
import { eq, sql } from "drizzle-orm";
import { AppError } from "../../http/errors.ts";
import { monthKey } from "../../infra/clock.ts";
import type { Services } from "../../services.ts";
import { FORMATS, formatOfExt } from "../images/formats.ts";
import { etagOf, objectKey, type Variant } from "../images/objects.ts";
import { images } from "../images/table.ts";
import { HOT_OBJECT_MAX, type EdgeImage } from "./cache.ts";
import { exactLength } from "./exact-length.ts";
import { acceptsWebp, IMMUTABLE, notModified, parseRange, PRIVATE, SVG_CSP } from "./http.ts";

const FILE = /^([A-Za-z0-9_-]{11})\.([a-z0-9]{2,5})$/;

const missing = () => new AppError("NOT_FOUND", "image not found", { entity: "image" }, { "cache-control": "no-store", "x-content-type-options": "nosniff" });

export const edgeModule = ({ deps, authn, meter, edgeCache: cache }: Services) => {
  const prefix = new URL(deps.config.MEDIA_URL).pathname.replace(/\/+$/, "");
  const byId = deps.db
    .select({
      id: images.id,
      ownerId: images.ownerId,
      format: images.format,
      isPublic: images.isPublic,
      size: images.size,
      webpSize: images.webpSize,
    })
    .from(images)
    .where(eq(images.id, sql.placeholder("id")))
    .prepare("edge_image_by_id");

  async function record(id: string): Promise<EdgeImage | null> {
    const hit = cache.record(id);
    if (hit) return hit.v;
    const [row] = await byId.execute({ id });
    cache.setRecord(id, row ?? null);
    return row ?? null;
  }

  // Concurrent misses on one object read it from storage once.
  const loading = new Map<string, Promise<Uint8Array | null>>();
  function hotBytes(img: EdgeImage, variant: Variant): Promise<Uint8Array | null> {
    const key = objectKey(img, variant);
    let p = loading.get(key);
    if (!p) {
      p = deps.storage
        .read(key)
        .then((b) => {
          if (b) cache.setBytes(img.id, variant, b);
          return b;
        })
        .finally(() => loading.delete(key));
      loading.set(key, p);
    }
    return p;
  }

  /**
   * The body, exactly bytes start..end of the variant whatever the store hands back:
   * small objects from memory, larger ones streamed; null when the object is gone.
   */
  async function load(img: EdgeImage, variant: Variant, start: number, end: number, range: boolean): Promise<BodyInit | null> {
    try {
      if (isHot(img, variant)) {
        const bytes = cache.bytes(img.id, variant) ?? (await hotBytes(img, variant));
        if (!bytes) return null;
        if (bytes.length <= end) throw new Error(`the object has ${bytes.length} bytes, its record says ${end + 1}`);
        return bytes.subarray(start, end + 1) as Uint8Array<ArrayBuffer>;
      }
      const stream = await deps.storage.get(objectKey(img, variant), range ? { start, end } : undefined);
      return (
        stream &&
        exactLength(stream, end - start + 1, (m) =>
          deps.log.warn("object store returned a body of the wrong length; sent exactly the advertised bytes", { id: img.id, variant, start, ...m }),
        )
      );
    } catch (err) {
      deps.log.error("image object read failed", { id: img.id, variant, err });
      throw new AppError("STORAGE_ERROR", "object storage failed", {}, { "cache-control": "no-store", "x-content-type-options": "nosniff" });
    }
  }

  /** Private images: only their owner, with a credential that may read media. */
  async function isOwner(request: Request, img: EdgeImage): Promise<boolean> {
    const header = request.headers.get("authorization");
    if (!header) return false;
    const principal = await authn.authenticate(header).catch(() => null);
    return !!principal && principal.userId === img.ownerId && principal.scopes.includes("media.read");
  }

  const isHot = (img: EdgeImage, variant: Variant) => (variant === "webp" ? img.webpSize! : img.size) <= HOT_OBJECT_MAX;

  async function serve(request: Request, file: string): Promise<Response> {
    const m = FILE.exec(file);
    const format = m && formatOfExt(m[2]!);
    if (!m || !format) throw missing();
    const img = await record(m[1]!);
    if (!img || img.format !== format) throw missing();
    const owner = !img.isPublic && (await isOwner(request, img));
    if (!img.isPublic && !owner) throw missing();

    const webp = img.webpSize !== null && acceptsWebp(request.headers.get("accept"));
    const variant: Variant = webp ? "webp" : "original";
    const size = webp ? img.webpSize! : img.size;
    const etag = etagOf(img, variant);
    const headers: Record<string, string> = {
      "content-type": webp ? "image/webp" : FORMATS[img.format].mime,
      etag,
      "cache-control": img.isPublic ? IMMUTABLE : PRIVATE,
      vary: "Accept",
      "accept-ranges": "bytes",
      "x-content-type-options": "nosniff",
    };
    if (img.format === "svg") headers["content-security-policy"] = SVG_CSP;

    if (notModified(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
    const range = parseRange(request.headers.get("range"), request.headers.get("if-range"), size, etag);
    if (range === "unsatisfiable") {
      return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${size}` } });
    }
    const head = request.method === "HEAD";
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    const length = end - start + 1;
    if (range) headers["content-range"] = `bytes ${start}-${end}/${size}`;
    const status = range ? 206 : 200;
    if (head) return new Response(null, { status, headers: { ...headers, "content-length": String(length) } });

    const body = await load(img, variant, start, end, !!range);
    if (!body) {
      // Deleted since its record was cached (the delete removes the objects after its
      // invalidation), or lost: the same 404 as an unknown image.
      deps.log.warn("image object missing", { id: img.id, variant });
      throw missing();
    }
    headers["content-length"] = String(length);
    // Counted when the response starts: a client that hangs up early is still charged.
    meter.add(monthKey(deps.clock.now()), img.ownerId, length);
    return new Response(body, { status, headers });
  }

  return new Elysia({ name: "edge" })
    .get(`${prefix}/:file`, ({ request, params }) => serve(request, params.file), { detail: { hide: true } })
    .route("HEAD", `${prefix}/:file`, ({ request, params }) => serve(request, params.file), { detail: { hide: true } });
};
