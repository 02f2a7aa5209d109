// The MCP module's public surface: the delegated credentials the hosted server's tools use
// (built with the services, resolved by identity), and what `shelf mcp` serves over stdio.
export { createDelegation } from "./delegation.ts";
export { ShelfClient } from "./client.ts";
/** The MCP server (the SDK and its schemas), loaded when first asked for, not at an api node's start. */
export const loadMcpServer = () => import("./server.ts");
export { urlImageFetcher } from "./image-url.ts";
