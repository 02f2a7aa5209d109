// The collections module's public surface: what an account export reads of them, and what
// an account import makes and takes back through their own rules.
export { collectionsForExport } from "./export.ts";
export { assertCollectionsFit, heldCollectionIds, importCollection } from "./import.ts";
export type { ItemRef as CollectionItemRef } from "./kinds.ts";
export { deleteCollection } from "./service.ts";
export type { ItemKind as CollectionItemKind } from "./table.ts";
