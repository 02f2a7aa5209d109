// What a media kind tells the edge, and the registry kinds register with. The edge
// knows no kind's table, path shape or formats: a kind answers "is this path mine, and
// what is behind it", and the edge does the rest (caching, validators, ranges, privacy,
// metering) the same way for every kind.
import type { KindOperation } from "./openapi.ts";

/**
 * The quota a served byte counts against: image CDN egress, or video and audio
 * egress. Thumbnails of videos are images to the user, so they count as images.
 */
export type BandwidthDimension = "image_bandwidth" | "media_bandwidth";
export const BANDWIDTH_DIMENSIONS: readonly BandwidthDimension[] = ["image_bandwidth", "media_bandwidth"];

/**
 * One representation an object can be sent as. The bytes under a key never change (a
 * changed object gets a new key), so the edge keeps small ones in memory for as long as
 * it likes and the ETag never has to be computed from them.
 */
export interface EdgeVariant {
  /** Its key in the object store. */
  readonly key: string;
  readonly contentType: string;
  /** Bytes: the edge promises exactly this many (Content-Length, ranges) and meters them. */
  readonly size: number;
  /** Strong validator, quotes included. */
  readonly etag: string;
  /** Counted against this instead of the object's dimension (a video's thumbnail is an image). */
  readonly dimension?: BandwidthDimension;
  /** Cached this way instead of the object's way (a video's playlists briefly, its segments for good). */
  readonly cache?: CachePolicy;
  /**
   * Bytes the kind made itself rather than stored (a playlist filtered for the owner's
   * state): served from here, never read from storage. `size` is its size.
   */
  readonly body?: Blob;
  /**
   * The object is hosted elsewhere (a provider's CDN): the request, once admitted, is
   * answered 302 to this URL, made per request (it may carry a short-lived token), never
   * cached and not metered here.
   */
  readonly redirect?: () => Promise<string>;
  /**
   * The representation does not exist yet and is made on this request (an image's size
   * variant): called once the request is admitted, never before, and served as the variant
   * it resolves to. `key`, `size` and `etag` of this one are unused.
   */
  readonly make?: () => Promise<EdgeVariant>;
}

/**
 * How shared caches may keep a public object's responses: for a year (the URL's bytes
 * never change), only after asking again (a URL whose representation may change), or for
 * SHORT_MAX_AGE_S seconds (a playlist: what it lists follows the owner's bandwidth state,
 * which must show within minutes). Private objects are always `private, no-cache`.
 */
type CachePolicy = "immutable" | "revalidate" | "short";

export interface ServedObject {
  readonly ownerId: string;
  /** False: served to its owner only, with a credential that may read media. */
  readonly isPublic: boolean;
  readonly dimension: BandwidthDimension;
  readonly cache: CachePolicy;
  /** Every representation it has: dropped from memory together when the object changes. */
  readonly variants: readonly EdgeVariant[];
  /** Sent with every response for it, 304 and 416 too (Vary, a Content-Security-Policy). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface MediaResolver<O extends ServedObject = ServedObject> {
  /** Names the kind in invalidations and in the 404 envelope's `meta.entity`. No colon. */
  readonly kind: string;
  /**
   * The id of the object a request path names, given the path below MEDIA_URL
   * (`<id>.<ext>`, `v/<id>/720p/seg-3.ts`), or null when the path is not this kind's.
   * Every request asks every kind until one answers, so no I/O and nothing slow.
   */
  match(file: string): string | null;
  /**
   * Optional: the kind's check of a request's query, before any lookup or work (an image's
   * size query). No I/O. Throws the AppError to answer (a 400 that is the same whatever the
   * object, so it tells nothing of one).
   */
  precheck?(file: string, request: Request): void;
  /**
   * The object behind an id, read from the kind's own table, or null when there is none.
   * The edge keeps the answer (null too) for CACHE_TTL_MS, or until the kind invalidates it.
   */
  lookup(id: string): Promise<O | null>;
  /**
   * The variant this request gets (content negotiation), or null when the path names
   * nothing the object has (a wrong extension, an unknown segment): 404.
   */
  select(object: O, file: string, request: Request): EdgeVariant | null;
  /**
   * Optional: the kind's own rule for a request, asked before select and before the
   * edge's owner check. No I/O (it runs on every request). Throws the AppError to answer
   * (403 for a missing or bad signature, 451 while the owner's playback is suspended), or
   * returns true when the request proved its access itself (a signed URL): an owner-only
   * object is then served without a credential. False (or no admit): the edge's rule,
   * public objects to anyone and owner-only ones to their owner.
   */
  admit?(object: O, file: string, request: Request): boolean;
  /**
   * Optional: the kind's paths below MEDIA_URL for the OpenAPI document, when they are not
   * `<id>.<ext>` (path templates such as `v/{id}/{file}`, each with its words and refusals).
   */
  document?(): Record<string, KindOperation>;
}

export interface ResolverRegistry {
  /** Adds a kind. Paths are offered to kinds in the order they registered. */
  register<O extends ServedObject>(resolver: MediaResolver<O>): void;
  /** The registered kinds, read on every request (kinds may register after the edge is built). */
  readonly resolvers: readonly MediaResolver[];
}

export function createResolverRegistry(): ResolverRegistry {
  const resolvers: MediaResolver[] = [];
  return {
    register(resolver) {
      if (resolver.kind.includes(":")) throw new Error(`media kind ${resolver.kind}: a kind has no colon (invalidation messages are kind:id)`);
      if (resolvers.some((r) => r.kind === resolver.kind)) throw new Error(`media kind ${resolver.kind} is registered twice`);
      resolvers.push(resolver as unknown as MediaResolver);
    },
    resolvers,
  };
}

/** Whether a caller vouches for the owner-only object of `kind` and `id` (owned by `ownerId`). */
export type Vouch = (kind: string, id: string, ownerId: string) => boolean;

/**
 * The edge answering `path` (below MEDIA_URL, as sent) for a caller that has checked the
 * request's right itself (a share link, shares/media.ts): the owner-only objects `vouch`
 * names are served without the owner's credential (createEdge's `vouched`).
 */
export type VouchedEdge = (request: Request, path: string, vouch: Vouch) => Response | Promise<Response>;
