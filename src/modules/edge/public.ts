// The media edge's public surface: what a media kind implements and registers, how it
// drops what the edge holds of an object, the negotiation helper raster kinds share, the
// parts src/wiring/services.ts builds (registry, caches, meter), and the bandwidth tally the
// attribution job reads.
export type { BandwidthDimension, EdgeVariant, MediaResolver, ServedObject } from "./resolver.ts";
export { BANDWIDTH_DIMENSIONS, createResolverRegistry } from "./resolver.ts";
export type { KindOperation } from "./openapi.ts";
export { IMAGE_KIND, invalidate, invalidateImage, onInvalidation } from "./invalidation.ts";
export { acceptsWebp, REFUSAL } from "./http.ts";
export { createEdgeCache } from "./cache.ts";
export { BANDWIDTH_HASHES, createMeter, parseBandwidthField } from "./meter.ts";
