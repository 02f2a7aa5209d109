// The edge's two in-process caches, both bounded:
// - image records (who owns it, public or not, sizes, ETags), at most ENTRY_MAX of them,
//   each trusted for CACHE_TTL_MS only, then read again from the database;
// - the bytes of small hot objects, at most BYTES_MAX in all. Objects are immutable per
//   key, so bytes never go stale; they are dropped when their image is deleted.

import { Lru, TtlCache } from "../../infra/cache.ts";
import type { Variant } from "../images/objects.ts";

const ENTRY_MAX = 100_000;
/** Objects up to this size are kept in memory once requested; larger ones stream from storage. */
export const HOT_OBJECT_MAX = 1024 * 1024;
const BYTES_MAX = 64 * 1024 * 1024;

export interface EdgeImage {
  id: string;
  ownerId: string;
  format: "jpeg" | "png" | "gif" | "webp" | "avif" | "svg";
  isPublic: boolean;
  size: number;
  webpSize: number | null;
}

export function createEdgeCache(now: () => number = () => performance.now()) {
  // null is cached too (unknown ids), so a flood of misses does not reach the database.
  const records = new TtlCache<EdgeImage | null>(ENTRY_MAX, now);
  const bytes = new Lru<Uint8Array>(BYTES_MAX, (b) => b.length);
  const bytesKey = (id: string, variant: Variant) => `${id}:${variant}`;
  return {
    record: (id: string) => records.get(id),
    setRecord: (id: string, v: EdgeImage | null) => records.set(id, v),
    bytes: (id: string, variant: Variant) => bytes.get(bytesKey(id, variant)),
    setBytes: (id: string, variant: Variant, b: Uint8Array) => bytes.set(bytesKey(id, variant), b),
    /** Drops an image's record and the bytes of both its variants. */
    drop(id: string) {
      records.delete(id);
      bytes.delete(bytesKey(id, "original"));
      bytes.delete(bytesKey(id, "webp"));
    },
  };
}
