// Serving the media edge: GET, HEAD and OPTIONS of MEDIA_URL/<path>, for every media kind
// at once (index.ts mounts it). Each kind's resolver (resolver.ts) says which paths are its
// and what is behind them; the rest is done here: strong ETags and 304, byte ranges, HEAD,
// CORS (cors.ts) and its preflight, caching headers, owner-only objects, the in-memory
// caches, and the metering of every byte served per quota dimension, owner and month.
//
// The path of a request whose record and bytes are both in memory has no await: it
// answers from the handler's own call (this is the benchmark's path).
import { notePrincipal } from "../../http/access-log.ts";
import { refuseGetBody } from "../../http/body-limit.ts";
import { errorAnswer, newRequestId, requestIdOf } from "../../http/core.ts";
import { AppError, storageError } from "../../core/errors.ts";
import { dayKey } from "../../infra/clock.ts";
import { databaseUnavailableCode } from "../../infra/db/unavailable.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { HOT_OBJECT_MAX } from "./cache.ts";
import { edgeCors } from "./cors.ts";
import { exactLength } from "./exact-length.ts";
import { IMMUTABLE, notModified, parseRange, PRIVATE, REFUSAL, REVALIDATE, SHORT } from "./http.ts";
import type { EdgeVariant, MediaResolver, ServedObject, Vouch } from "./resolver.ts";

const missing = (entity: string) => new AppError("NOT_FOUND", `${entity} not found`, { entity }, REFUSAL);
const storageFailed = (err?: unknown) => storageError(err, "object storage failed", REFUSAL);

/** A path no kind claims. */
const UNCLAIMED = "media";

const CACHE_CONTROL = { immutable: IMMUTABLE, revalidate: REVALIDATE, short: SHORT } as const;
const DAY_MS = 86_400_000;

const noSuchRoute = () => new AppError("NOT_FOUND", "no such route", { entity: "route" }, REFUSAL);

/** The edge's serving function, for the parts of this process; `route` answers every request, errors included. */
export function edgeServer({ deps, identity, meter, edgeCache: cache, edgeResolvers }: RouteServices) {
  const prefix = new URL(deps.config.MEDIA_URL).pathname.replace(/\/+$/, "");
  const { resolvers } = edgeResolvers;
  const cors = edgeCors(deps.config.mediaCorsOrigins);
  // Bound once per kind (a no-op with metrics off), found by the resolver's place on a hit.
  const meterAt = resolvers.map((r) => deps.metrics.edge(r.kind));
  const meters = new Map(resolvers.map((r, i) => [r.kind, meterAt[i]!]));
  const meterOf = (kind: string) => meters.get(kind) ?? deps.metrics.edge(kind);

  /**
   * GET, HEAD or OPTIONS of `path` (below the prefix, as sent); throws the AppError to answer.
   * `vouch`: a caller that has checked the request's right itself (a live share link) says
   * which owner-only objects it opens.
   */
  function serve(request: Request, path: string, requestId: string, vouch?: Vouch): Response | Promise<Response> {
    if (request.method === "OPTIONS") return preflight(request, path, requestId);
    if (request.method !== "GET" && request.method !== "HEAD") throw noSuchRoute();
    const refused = refuseGetBody(request, REFUSAL);
    if (refused) throw refused;
    const file = path.includes("%") ? decoded(path) : path;
    if (file === null) throw missing(UNCLAIMED);
    for (let i = 0; i < resolvers.length; i++) {
      const resolver = resolvers[i]!;
      const id = resolver.match(file);
      if (id === null) continue;
      resolver.precheck?.(file, request);
      const hit = cache.record(resolver.kind, id);
      if (hit) {
        (meterAt[i] ?? meterOf(resolver.kind)).hit();
        return answer(request, requestId, file, resolver, hit.v, id, vouch);
      }
      meterOf(resolver.kind).miss();
      return resolver.lookup(id).then((object) => {
        cache.setRecord(resolver.kind, id, object);
        return answer(request, requestId, file, resolver, object, id, vouch);
      });
    }
    throw missing(UNCLAIMED);
  }

  /**
   * OPTIONS (a player's CORS preflight, for a Range or an If-None-Match): 204 with what may
   * be asked, for any path a kind claims, before any lookup (a preflight carries no
   * credential, and its answer says nothing of the object). Other paths are 404 as for GET.
   */
  function preflight(request: Request, path: string, requestId: string): Response {
    const file = path.includes("%") ? decoded(path) : path;
    if (file === null || !resolvers.some((r) => r.match(file) !== null)) throw missing(UNCLAIMED);
    const headers = cors.preflight(request);
    headers.set("x-request-id", requestId);
    return new Response(null, { status: 204, headers });
  }

  /** The CORS headers of `request`'s answer added to `headers` (what cors.ts says). */
  function withCors(request: Request, headers: Headers): Headers {
    for (const [name, value] of Object.entries(cors.always)) headers.append(name, value);
    cors.apply(request, headers);
    return headers;
  }

  function answer(
    request: Request,
    requestId: string,
    file: string,
    resolver: MediaResolver,
    object: ServedObject | null,
    id: string,
    vouch: Vouch | undefined,
  ): Response | Promise<Response> {
    if (!object) throw missing(resolver.kind);
    const admitted = resolver.admit ? resolver.admit(object, file, request) : false;
    const variant = resolver.select(object, file, request);
    if (!variant) throw missing(resolver.kind);
    if (object.isPublic || admitted || vouch?.(resolver.kind, id, object.ownerId)) return serveVariant(request, requestId, resolver.kind, object, variant);
    return isOwner(request, object).then((owner) => {
      if (!owner) throw missing(resolver.kind);
      return serveVariant(request, requestId, resolver.kind, object, variant);
    });
  }

  /** The answer once admitted: a variant still to make is made first (never for a request that is refused). */
  function serveVariant(request: Request, requestId: string, kind: string, object: ServedObject, variant: EdgeVariant): Response | Promise<Response> {
    if (!variant.make) return respond(request, requestId, kind, object, variant);
    return variant.make().then((made) => respond(request, requestId, kind, object, made));
  }

  /** Owner-only objects: their owner, with a credential that may read media. */
  async function isOwner(request: Request, object: ServedObject): Promise<boolean> {
    const header = request.headers.get("authorization");
    if (!header) return false;
    // A credential that does not hold is a stranger (404 below); the database away says
    // nothing about the credential, and is answered as such (503 by errorAnswer).
    const principal = await identity.resolvePrincipal(header).catch((e) => {
      if (databaseUnavailableCode(e)) throw e;
      return null;
    });
    if (principal) notePrincipal(request, principal);
    return !!principal && principal.userId === object.ownerId && principal.scopes.includes("media.read");
  }

  // The headers every answer of a variant shares, built once per cached record (a record
  // is replaced after CACHE_TTL_MS, its variants with it): copying a Headers is cheaper
  // than building one from an object on every request.
  const shared = new WeakMap<EdgeVariant, Headers>();
  function sharedHeaders(object: ServedObject, variant: EdgeVariant): Headers {
    let h = shared.get(variant);
    if (!h) {
      h = new Headers({
        "content-type": variant.contentType,
        etag: variant.etag,
        "cache-control": !object.isPublic ? PRIVATE : CACHE_CONTROL[variant.cache ?? object.cache],
        "accept-ranges": "bytes",
        "x-content-type-options": "nosniff",
        ...object.headers,
      });
      // Appended: a kind's own Vary (Accept) and the policy's (Origin) are both kept.
      for (const [name, value] of Object.entries(cors.always)) h.append(name, value);
      shared.set(variant, h);
    }
    return h;
  }

  // A browser following a redirect across origins checks CORS on the redirect too.
  async function redirected(request: Request, requestId: string, location: () => Promise<string>): Promise<Response> {
    const headers = new Headers({ location: await location(), "cache-control": "no-store", "x-request-id": requestId });
    return new Response(null, { status: 302, headers: withCors(request, headers) });
  }

  // The headers of a whole 200 of a variant (its length included), built once per cached
  // record like the shared ones: the common answer of a cached hit is then one Response
  // made from them and its request id (docs/benchmarks.md, "The media edge against nginx").
  const whole = new WeakMap<EdgeVariant, Headers>();
  function wholeHeaders(object: ServedObject, variant: EdgeVariant): Headers {
    let h = whole.get(variant);
    if (!h) {
      h = new Headers(sharedHeaders(object, variant));
      h.set("content-length", String(variant.size));
      whole.set(variant, h);
    }
    return h;
  }

  /**
   * A whole GET with no validator and no range, of bytes this node holds in memory or of
   * a file it sends through the kernel: the answer with no per-request header building.
   * Undefined when the request needs the general path (respond, below).
   */
  function wholeAnswer(request: Request, requestId: string, kind: string, object: ServedObject, variant: EdgeVariant): Response | undefined {
    const asked = request.headers;
    if (request.method !== "GET" || asked.has("range") || asked.has("if-none-match")) return undefined;
    const { size } = variant;
    const body = variant.body ?? (size <= HOT_OBJECT_MAX ? cache.bytes(variant.key) : fileBody(kind, variant, 0, size - 1));
    // A body of another length than the record's takes the general path (it says why).
    if (!body || body.size !== size) return undefined;
    const res = new Response(body, { status: 200, headers: wholeHeaders(object, variant) });
    res.headers.set("x-request-id", requestId);
    cors.apply(request, res.headers);
    meter.add(variant.dimension ?? object.dimension, dayNow(), object.ownerId, size);
    meterOf(kind).sent(size);
    return res;
  }

  function respond(request: Request, requestId: string, kind: string, object: ServedObject, variant: EdgeVariant): Response | Promise<Response> {
    if (variant.redirect) return redirected(request, requestId, variant.redirect);
    const fast = wholeAnswer(request, requestId, kind, object, variant);
    if (fast) return fast;
    const { size, etag } = variant;
    const headers = new Headers(sharedHeaders(object, variant));
    headers.set("x-request-id", requestId);
    cors.apply(request, headers);

    if (notModified(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
    const range = parseRange(request.headers.get("range"), request.headers.get("if-range"), size, etag);
    if (range === "unsatisfiable") {
      headers.set("content-range", `bytes */${size}`);
      return new Response(null, { status: 416, headers });
    }
    const start = range ? range.start : 0;
    const end = range ? range.end : size - 1;
    const length = end - start + 1;
    const status = range ? 206 : 200;
    if (range) headers.set("content-range", `bytes ${start}-${end}/${size}`);
    headers.set("content-length", String(length));
    if (request.method === "HEAD") return new Response(null, { status, headers });

    // Small objects from memory, larger ones from their file where the store has files.
    const file = !variant.body && size > HOT_OBJECT_MAX ? fileBody(kind, variant, start, end) : undefined;
    if (file) return sent(kind, object, variant, file, status, headers, length);
    const hot = variant.body ?? (size <= HOT_OBJECT_MAX ? cache.bytes(variant.key) : undefined);
    // A cached object shorter than its record says is reported by load().
    if (hot && hot.size > end)
      return sent(kind, object, variant, start === 0 && end === hot.size - 1 ? hot : hot.slice(start, end + 1), status, headers, length);
    return load(kind, variant, start, end, !!range).then((body) => {
      if (!body) {
        // Deleted since its record was cached (a delete removes the objects after its
        // invalidation), or lost: the same 404 as an unknown object.
        deps.log.warn("edge object missing", { kind, key: variant.key });
        throw missing(kind);
      }
      return sent(kind, object, variant, body, status, headers, length);
    });
  }

  // The UTC day every byte served now is counted in (its month follows from it), worked
  // out again only when the clock leaves it (not a Date and a string per request).
  let day = { key: "", from: 0, to: -1 };
  function dayNow(): string {
    const ms = deps.clock.nowMs();
    if (ms < day.from || ms >= day.to) {
      const from = ms - (ms % DAY_MS);
      day = { key: dayKey(new Date(ms)), from, to: from + DAY_MS };
    }
    return day.key;
  }

  function sent(kind: string, object: ServedObject, variant: EdgeVariant, body: BodyInit, status: number, headers: Headers, length: number): Response {
    // Counted when the response starts: a client that hangs up early is still charged.
    meter.add(variant.dimension ?? object.dimension, dayNow(), object.ownerId, length);
    meterOf(kind).sent(length);
    return new Response(body, { status, headers });
  }

  /**
   * A large object on embedded storage: the file itself as the body, which Bun sends from
   * disk (sendfile) as its static routes do, with no stream through JavaScript and no
   * await. Its size is read afresh on each request (one stat), so a file deleted or cut
   * behind a cached record answers as the stream would: 404, or 502 rather than a short
   * body. Undefined where the store has no local files.
   */
  function fileBody(kind: string, variant: EdgeVariant, start: number, end: number): Blob | undefined {
    let file: Blob | null | undefined;
    try {
      file = deps.storage.file?.(variant.key);
    } catch (err) {
      deps.log.error("edge object read failed", { kind, key: variant.key, err });
      throw storageFailed(err);
    }
    if (file === undefined) return undefined;
    if (file === null) {
      deps.log.warn("edge object missing", { kind, key: variant.key });
      throw missing(kind);
    }
    if (file.size !== variant.size) {
      const m = { kind, key: variant.key, start, expected: variant.size, got: file.size };
      if (file.size <= end) {
        deps.log.error("edge object read failed", { ...m, err: new Error(`the object has ${file.size} bytes, its record says ${variant.size}`) });
        throw storageFailed();
      }
      deps.log.warn("object store returned a body of the wrong length; sent exactly the advertised bytes", m);
    }
    return start === 0 && end === file.size - 1 ? file : file.slice(start, end + 1);
  }

  // Concurrent misses on one object read it from storage once.
  const loading = new Map<string, Promise<Blob | null>>();
  function hotBytes(key: string): Promise<Blob | null> {
    let p = loading.get(key);
    if (!p) {
      p = deps.storage
        .read(key)
        .then((b) => {
          if (!b) return null;
          cache.setBytes(key, b);
          return cache.bytes(key) ?? new Blob([b as Uint8Array<ArrayBuffer>]);
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
  async function load(kind: string, variant: EdgeVariant, start: number, end: number, ranged: boolean): Promise<BodyInit | null> {
    try {
      if (variant.size <= HOT_OBJECT_MAX) {
        const bytes = cache.bytes(variant.key) ?? (await hotBytes(variant.key));
        if (!bytes) return null;
        if (bytes.size <= end) throw new Error(`the object has ${bytes.size} bytes, its record says ${end + 1}`);
        return start === 0 && end === bytes.size - 1 ? bytes : bytes.slice(start, end + 1);
      }
      const stream = await deps.storage.get(variant.key, ranged ? { start, end } : undefined);
      return (
        stream &&
        exactLength(stream, end - start + 1, (m) =>
          deps.log.warn("object store returned a body of the wrong length; sent exactly the advertised bytes", { kind, key: variant.key, start, ...m }),
        )
      );
    } catch (err) {
      deps.log.error("edge object read failed", { kind, key: variant.key, err });
      throw storageFailed(err);
    }
  }

  /**
   * The answer to an AppError (or anything else) thrown while serving, as Elysia's onError
   * gives it, with the CORS headers: a player on another origin reads why it was refused.
   */
  function failed(error: unknown, request: Request, requestId: string): Response {
    const { status, headers, body } = errorAnswer(error, "UNKNOWN", request, requestId, deps.log);
    // Its length said, as every other answer of the edge says it (the access line reads it).
    const text = JSON.stringify(body);
    const h = new Headers({
      ...headers,
      "content-type": "application/json;charset=utf-8",
      "content-length": String(Buffer.byteLength(text)),
      "x-request-id": requestId,
    });
    return new Response(text, { status, headers: withCors(request, h) });
  }

  /** The edge as an Elysia handler (app.handle): the request id is the one the core set. */
  const route = (request: Request) => answered(request, requestIdOf(request));
  /** The edge as a Bun route of the listening server: nothing else asks for its request id. */
  const serverRoute = (request: Request) => answered(request, newRequestId(request));

  /** Every answer, errors included, made here. */
  function answered(request: Request, requestId: string): Response | Promise<Response> {
    try {
      const out = serve(request, pathBelow(request.url, prefix), requestId);
      return out instanceof Promise ? out.catch((e) => failed(e, request, requestId)) : out;
    } catch (e) {
      return failed(e, request, requestId);
    }
  }

  /**
   * The edge answering `path` (below MEDIA_URL, as sent) for a caller that vouches for the
   * request (a share link's media, shares/media.ts): owner-only objects it names are served
   * without the owner's credential. The kinds' own rules still hold (a video's signature,
   * a suspended owner's 451), and every byte is metered to the owner as on the edge.
   */
  const vouched = (request: Request, path: string, vouch: Vouch): Response | Promise<Response> => {
    const requestId = requestIdOf(request);
    try {
      const out = serve(request, path, requestId, vouch);
      return out instanceof Promise ? out.catch((e) => failed(e, request, requestId)) : out;
    } catch (e) {
      return failed(e, request, requestId);
    }
  };

  return { prefix, resolvers, route, serverRoute, vouched };
}

/** The path after `prefix/` in a request URL, as sent (still percent-encoded), without the query. */
function pathBelow(url: string, prefix: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2) + prefix.length + 1;
  const query = url.indexOf("?", start);
  return query < 0 ? url.slice(start) : url.slice(start, query);
}

/** A wildcard path arrives as sent; a kind matches it decoded, as a named parameter would be. */
function decoded(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}
