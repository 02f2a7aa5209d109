// The edge's part of the OpenAPI document. Its one route is a wildcard taking every method
// and its answers are bytes, so the generator cannot describe it: the route is hidden and
// hands over these paths itself (OWN_PATHS).
import { type OwnPaths, TOUCHES_NO_PART } from "../../http/openapi.ts";

const header = (description: string, schema: Record<string, unknown> = { type: "string" }, required = true) => ({ description, required, schema });
const h = (name: string) => ({ $ref: `#/components/headers/${name}` });

const HEADERS = {
  EdgeETag: header("strong validator of the representation sent (quotes included)"),
  EdgeCacheControl: header(
    "`public, max-age=31536000, immutable` for a public object whose bytes never change (images), `public, no-cache` for one whose representation may, `private, no-cache` for an owner-only object",
  ),
  EdgeAcceptRanges: header("bytes", { type: "string", const: "bytes" }),
  EdgeNoSniff: header("nosniff: the Content-Type is to be believed", { type: "string", const: "nosniff" }),
  EdgeContentLength: header("bytes of this response's body (of the range, for a 206); HEAD sends it without the body", { type: "integer", minimum: 0 }),
  EdgeVary: header(
    "Accept, for a kind that negotiates (images); Origin, when MEDIA_CORS_ORIGINS lists origins (the answer depends on the request's Origin)",
    { type: "string" },
    false,
  ),
  EdgeAllowOrigin: header(
    "CORS: * (MEDIA_CORS_ORIGINS=*, the default), or the request's Origin when MEDIA_CORS_ORIGINS lists it; absent otherwise",
    { type: "string" },
    false,
  ),
  EdgeExposeHeaders: header(
    "CORS: the headers a page on another origin may read (Content-Range, ETag, ...), with Access-Control-Allow-Origin",
    { type: "string" },
    false,
  ),
  EdgeContentSecurityPolicy: header("for SVG: runs nothing and loads nothing (sandbox)", { type: "string" }, false),
};

const sent = {
  ETag: h("EdgeETag"),
  "Cache-Control": h("EdgeCacheControl"),
  "Accept-Ranges": h("EdgeAcceptRanges"),
  "X-Content-Type-Options": h("EdgeNoSniff"),
  Vary: h("EdgeVary"),
  "Content-Security-Policy": h("EdgeContentSecurityPolicy"),
  "Access-Control-Allow-Origin": h("EdgeAllowOrigin"),
  "Access-Control-Expose-Headers": h("EdgeExposeHeaders"),
};
const binary = { "*/*": { schema: { type: "string", format: "binary" } } };
const envelope = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };
const refused = {
  "Cache-Control": header("no-store", { type: "string", const: "no-store" }),
  "X-Content-Type-Options": h("EdgeNoSniff"),
  "Access-Control-Allow-Origin": h("EdgeAllowOrigin"),
  "Access-Control-Expose-Headers": h("EdgeExposeHeaders"),
};

/** How a kind's own paths differ from `<id>.<ext>`: its words, its path parameters, the refusals it adds. */
export interface KindOperation {
  summary: string;
  description: string;
  pathParameters: { name: string; description: string }[];
  /** Answers the kind's admit gives, by status (a 403, a 451), as error envelopes. */
  refusals: Record<number, string>;
  /** Its pictures take an image's size query (w, h, fit, q, format) and its 400. */
  sizeQuery?: boolean;
}

const SIZE_REFUSAL = "BAD_REQUEST (meta.param names it, meta.allowed lists what it may be): a size query asks for a size, fit, quality or format not offered";

const IMAGES: KindOperation = {
  summary: "An uploaded object's bytes, at the url its upload returned",
  description:
    "Public objects are served to anyone; an owner-only (private) object only to its owner's credential with media.read, and 404 to everyone else. Not JSON, except the envelope of a 404 or 502.",
  pathParameters: [{ name: "file", description: "<id>.<ext>, as the url of the upload names it" }],
  refusals: {},
  sizeQuery: true,
};

const q = (name: string, description: string, schema: Record<string, unknown>) => ({ name, in: "query", required: false, description, schema });
/** An image's size query (docs/api.md, "Image sizes"): a variant made once, then served as the original is. */
const IMAGE_QUERY = [
  q("w", "width in pixels, one of the allowed sizes (16 to 3840; docs/api.md); never enlarged past the original's", { type: "integer" }),
  q("h", "height in pixels, one of the allowed sizes", { type: "integer" }),
  q("fit", "with w and h: cover (crop to fill, the default), contain (fit with transparent bars) or inside (fit, keep the shape)", {
    type: "string",
    enum: ["cover", "contain", "inside"],
  }),
  q("q", "quality, a multiple of 5 from 20 to 100 (default 75)", { type: "integer", minimum: 20, maximum: 100, multipleOf: 5 }),
  q("format", "avif, webp, jpeg or png; absent: AVIF when Accept names it, then WebP, else the original's type (PNG for WebP and AVIF originals)", {
    type: "string",
    enum: ["avif", "webp", "jpeg", "png"],
  }),
];

function operation(head: boolean, kind: KindOperation = IMAGES) {
  const body = <T>(content: T) => (head ? {} : { content });
  const refusals = Object.fromEntries(
    Object.entries({ ...(kind.sizeQuery && { 400: SIZE_REFUSAL }), ...kind.refusals }).map(([status, description]) => [
      status,
      { description, headers: refused, ...body(envelope) },
    ]),
  );
  return {
    tags: ["media edge"],
    summary: head ? "The headers of GET, without the body" : kind.summary,
    description: kind.description,
    security: [{}, { bearer: [] }],
    parameters: [
      ...kind.pathParameters.map((p) => ({ ...p, in: "path", required: true, schema: { type: "string" } })),
      ...(kind.sizeQuery ? IMAGE_QUERY : []),
      {
        name: "Accept",
        in: "header",
        required: false,
        description: "naming image/webp (with a non-zero q) gets the WebP rendition of a raster image; with a size query, image/avif gets AVIF first",
        schema: { type: "string" },
      },
      { name: "If-None-Match", in: "header", required: false, description: "an ETag (or *): 304 when it matches", schema: { type: "string" } },
      {
        name: "Range",
        in: "header",
        required: false,
        description: "one range, bytes=a-b, bytes=a- or bytes=-n; anything else gets the whole object",
        schema: { type: "string" },
      },
      {
        name: "If-Range",
        in: "header",
        required: false,
        description: "the ETag the range was taken from; another gets the whole object",
        schema: { type: "string" },
      },
    ],
    responses: {
      200: {
        description: "the whole object: WebP to a client whose Accept names it, where the kind has a WebP rendition, else the original",
        headers: { ...sent, "Content-Length": h("EdgeContentLength") },
        ...body(binary),
      },
      206: {
        description: "the requested range",
        headers: { ...sent, "Content-Length": h("EdgeContentLength"), "Content-Range": header("bytes start-end/size") },
        ...body(binary),
      },
      304: { description: "Not Modified: If-None-Match names the ETag", headers: sent },
      404: {
        description: "NOT_FOUND (meta.entity: the kind, or media): no such object, a path no kind serves, or an owner-only object",
        headers: refused,
        ...body(envelope),
      },
      416: { description: "Range Not Satisfiable", headers: { ...sent, "Content-Range": header("bytes */size") } },
      502: { description: "STORAGE_ERROR: the object store failed", headers: refused, ...body(envelope) },
      ...refusals,
    },
  };
}

/** OPTIONS: the CORS preflight a player sends before a Range or a conditional GET. */
function preflight(kind: KindOperation = IMAGES) {
  const optional = (description: string) => header(description, { type: "string" }, false);
  return {
    tags: ["media edge"],
    summary: "CORS preflight: what a page on another origin may ask",
    description:
      "Answered for any path a kind serves, before any lookup (it says nothing of the object). With an origin MEDIA_CORS_ORIGINS allows, the Access-Control-Allow-* headers; without one, only Allow.",
    security: [{}],
    [TOUCHES_NO_PART]: true,
    parameters: [
      ...kind.pathParameters.map((p) => ({ ...p, in: "path", required: true, schema: { type: "string" } })),
      { name: "Origin", in: "header", required: false, description: "the page's origin", schema: { type: "string" } },
      { name: "Access-Control-Request-Method", in: "header", required: false, description: "GET or HEAD", schema: { type: "string" } },
      {
        name: "Access-Control-Request-Headers",
        in: "header",
        required: false,
        description: "what the request will send, e.g. range, if-none-match",
        schema: { type: "string" },
      },
    ],
    responses: {
      204: {
        description: "what may be asked",
        headers: {
          Allow: header("GET, HEAD, OPTIONS"),
          "Access-Control-Allow-Origin": h("EdgeAllowOrigin"),
          "Access-Control-Allow-Methods": optional("GET, HEAD, OPTIONS"),
          "Access-Control-Allow-Headers": optional("Range, If-Range, If-None-Match, If-Modified-Since, Accept, Authorization, X-Request-Id"),
          "Access-Control-Max-Age": optional("seconds a browser may keep this answer"),
          Vary: h("EdgeVary"),
        },
      },
      404: { description: "NOT_FOUND (meta.entity: media): a path no kind serves", headers: refused, content: envelope },
    },
  };
}

/**
 * GET, HEAD and OPTIONS MEDIA_URL/{file}, and the paths kinds document below MEDIA_URL themselves
 * (a video's `v/{id}/...`); on a host of its own, the paths name that server.
 */
export function edgeDocumentation(mediaUrl: string, publicUrl: string, kinds: readonly { document?(): Record<string, KindOperation> }[] = []): OwnPaths {
  const media = new URL(mediaUrl);
  const prefix = media.pathname.replace(/\/+$/, "");
  const servers = media.origin !== new URL(publicUrl).origin ? { servers: [{ url: media.origin }] } : {};
  const paths: OwnPaths["paths"] = { [`${prefix}/{file}`]: { ...servers, get: operation(false), head: operation(true), options: preflight() } };
  for (const kind of kinds) {
    for (const [path, op] of Object.entries(kind.document?.() ?? {}))
      paths[`${prefix}/${path}`] = { ...servers, get: operation(false, op), head: operation(true, op), options: preflight(op) };
  }
  return { paths, headers: HEADERS };
}
