// The bounds of collections, in one place (docs/api.md, "Collections", lists them).
export const COLLECTION_LIMITS = {
  /** Collections one account may have (403 COLLECTION_LIMIT_REACHED past it). */
  perAccount: 1000,
  /** Items one collection may hold (409 COLLECTION_FULL past it); also the most a reorder names. */
  itemsPerCollection: 1000,
  /** Items one create, add or remove names. */
  itemsPerRequest: 100,
  titleChars: 120,
  descriptionChars: 500,
  /** The largest page of collections or of a collection's items. */
  pageMax: 50,
} as const;
