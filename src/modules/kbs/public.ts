// The KB module's public surface: what documents (and later sync) use of it.
export { createKb, getKb, lockKb, moveKbCounts } from "./service.ts";
