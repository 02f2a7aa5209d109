// The admin module's public surface: the operator's use cases that span modules, for the
// CLI (the routes are index.ts).
export { deleteAccount } from "./service.ts";
