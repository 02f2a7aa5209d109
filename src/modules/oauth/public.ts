// The OAuth provider's public surface: the access-token resolver the wiring hands to
// identity's principal lookup. Its tables and the rest of its files are its own.
export { accessTokenResolver } from "./resolver.ts";

export { pruneOAuthJob } from "./prune-oauth.job.ts";
