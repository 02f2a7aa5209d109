// Edge cache invalidation across api nodes: an object deleted, or whose visibility
// changed, is dropped by this node's edge at once (before the request that changed it
// answers) and by every other node's through the kv. Each cached entry is also
// re-validated by its kind's lookup within CACHE_TTL_MS, should a message be lost.
import type { Deps } from "../../core/deps.ts";
import { broadcast, listen, type Listening } from "../../infra/broadcast.ts";

export const EDGE_CHANNEL = "edge:invalidate";

/** The images module's kind, as its resolver registers it. */
export const IMAGE_KIND = "image";

/** Drops what the edge holds of `kind`'s object `id`, on every node. */
export function invalidate(deps: Pick<Deps, "kv" | "log">, kind: string, id: string): Promise<void> {
  return broadcast(deps, EDGE_CHANNEL, `${kind}:${id}`);
}

export function invalidateImage(deps: Pick<Deps, "kv" | "log">, id: string): Promise<void> {
  return invalidate(deps, IMAGE_KIND, id);
}

/** Calls `onDrop(kind, id)` for every invalidation, from this process or any node, until closed. */
export function onInvalidation(deps: Pick<Deps, "kv" | "log">, onDrop: (kind: string, id: string) => void): Listening {
  return listen(deps, EDGE_CHANNEL, (message) => {
    const colon = message.indexOf(":");
    if (colon > 0) onDrop(message.slice(0, colon), message.slice(colon + 1));
  });
}
