// The media edge's public surface: what a media kind implements and registers, how it
// drops what the edge holds of an object, the negotiation helper raster kinds share, the
// parts src/services.ts builds (registry, caches, meter), and the drain of the bandwidth
// it tallies into the usage ledger (its hourly job; the month rollover's settling).
export type { EdgeVariant, MediaResolver, ServedObject } from "./resolver.ts";
export { createResolverRegistry } from "./resolver.ts";
export type { KindOperation } from "./openapi.ts";
export { IMAGE_KIND, invalidate, invalidateImage, onInvalidation } from "./invalidation.ts";
export { acceptsWebp, REFUSAL } from "./http.ts";
export { createEdgeCache } from "./cache.ts";
export { createMeter } from "./meter.ts";
export { settleEdgeTallies } from "./bandwidth-drain.ts";
export { attributeImageBandwidth } from "./jobs.ts";
