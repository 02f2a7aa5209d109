// The media edge's public surface: what a media kind implements and registers, how it
// drops what the edge holds of an object, the negotiation helper raster kinds share, and
// the bandwidth tally the attribution job reads.
export type { BandwidthDimension, CachePolicy, EdgeVariant, MediaResolver, ResolverRegistry, ServedObject } from "./resolver.ts";
export { BANDWIDTH_DIMENSIONS, createResolverRegistry } from "./resolver.ts";
export { IMAGE_KIND, invalidate, invalidateImage, onInvalidation } from "./invalidation.ts";
export { acceptsWebp } from "./http.ts";
export { createEdgeCache } from "./cache.ts";
export { BANDWIDTH_HASHES, createMeter, parseBandwidthField, type Meter } from "./meter.ts";
