// The videos module's public surface.
export { videoEdgeResolver, VIDEO_KIND } from "./edge-resolver.ts";
export { recordBandwidthCrossings } from "./bandwidth.ts";
export { type ProviderEgress, providerEgress, splitByStorage } from "./bandwidth-egress.ts";
