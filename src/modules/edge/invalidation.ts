// Edge cache invalidation across api nodes: a deleted image, or one whose visibility
// changed, is dropped by this node's edge at once (before the request that changed it
// answers) and by every other node's through the kv. Each cached entry is also
// re-validated against the database within CACHE_TTL_MS, should a message be lost.
import type { Deps } from "../../deps.ts";
import { broadcast, listen, type Listening } from "../../infra/broadcast.ts";

export const EDGE_CHANNEL = "edge:invalidate";

export function invalidateImage(deps: Pick<Deps, "kv" | "log">, id: string): Promise<void> {
  return broadcast(deps, EDGE_CHANNEL, `image:${id}`);
}

/** Calls `onImage(id)` for every invalidation, from this process or any node, until closed. */
export function onInvalidation(deps: Pick<Deps, "kv" | "log">, onImage: (id: string) => void): Listening {
  return listen(deps, EDGE_CHANNEL, (message) => {
    if (message.startsWith("image:")) onImage(message.slice(6));
  });
}
