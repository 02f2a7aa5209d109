// The media edge's public surface: what a media kind implements and registers, how it
// drops what the edge holds of an object, the negotiation helper raster kinds share, the
// parts src/wiring/services.ts builds (registry, caches, meter), and the job that attributes the
// bandwidth it tallies (and the month rollover's settling of it).
export type { EdgeVariant, MediaResolver, ServedObject, VouchedEdge } from "./resolver.ts";
export { createResolverRegistry } from "./resolver.ts";
export type { KindOperation } from "./openapi.ts";
export { IMAGE_KIND, invalidate, invalidateImage, onInvalidation } from "./invalidation.ts";
export { acceptsAvif, acceptsWebp, notModified, parseRange, REFUSAL } from "./http.ts";
export { createEdgeCache } from "./cache.ts";
export { createMeter } from "./meter.ts";
export { attributeImageBandwidthJob, settleEdgeTallies } from "./bandwidth-drain.job.ts";
