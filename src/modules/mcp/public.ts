// The MCP module's public surface: the delegated credentials the hosted server's tools use
// (built with the services, resolved by identity), and what `shelf mcp` serves over stdio.
export { createDelegation } from "./delegation.ts";
export { ShelfClient } from "./client.ts";
export { createMcpServer } from "./server.ts";
export { urlImageFetcher } from "./image-url.ts";
