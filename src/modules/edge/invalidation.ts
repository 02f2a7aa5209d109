// Edge cache invalidation across api nodes: a deleted image, or one made private, is
// published on the kv so every node drops its cached entry at once (each entry is also
// re-validated against the database within CACHE_TTL_MS, should a message be lost).
import type { Deps } from "../../deps.ts";

export const EDGE_CHANNEL = "edge:invalidate";

export async function invalidateImage(deps: Pick<Deps, "kv" | "log">, id: string): Promise<void> {
  await deps.kv.publish(EDGE_CHANNEL, `image:${id}`).catch((err) => deps.log.warn("edge invalidation publish failed", { id, err }));
}

/** Calls `onImage(id)` for every invalidation any node publishes; resolves to an unsubscribe. */
export function onInvalidation(deps: Pick<Deps, "kv" | "log">, onImage: (id: string) => void) {
  return deps.kv
    .subscribe(EDGE_CHANNEL, (message) => {
      if (message.startsWith("image:")) onImage(message.slice(6));
    })
    .catch((err) => {
      deps.log.warn("edge invalidation channel unavailable; cache entries expire within 5 s", { err });
      return async () => {};
    });
}
