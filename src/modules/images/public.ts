// The images module's public surface: what other modules and the wiring may use of it.
export { imageEdgeResolver } from "./edge-resolver.ts";
