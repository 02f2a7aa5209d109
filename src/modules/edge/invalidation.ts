// Edge cache invalidation across api nodes: a deleted image, or one whose visibility
// changed, is dropped by this node's edge at once (before the request that changed it
// answers) and published on the kv so every other node drops it too. Each cached entry
// is also re-validated against the database within CACHE_TTL_MS, should a message be lost.
import type { Deps } from "../../deps.ts";

export const EDGE_CHANNEL = "edge:invalidate";

/** The edges of this process. */
const local = new Set<(id: string) => void>();

export async function invalidateImage(deps: Pick<Deps, "kv" | "log">, id: string): Promise<void> {
  for (const drop of local) drop(id);
  await deps.kv.publish(EDGE_CHANNEL, `image:${id}`).catch((err) => deps.log.warn("edge invalidation publish failed", { id, err }));
}

/** Calls `onImage(id)` for every invalidation, from this process or any node; resolves to an unsubscribe. */
export async function onInvalidation(deps: Pick<Deps, "kv" | "log">, onImage: (id: string) => void): Promise<() => Promise<void>> {
  local.add(onImage);
  const unsubscribe = await deps.kv
    .subscribe(EDGE_CHANNEL, (message) => {
      if (message.startsWith("image:")) onImage(message.slice(6));
    })
    .catch((err) => {
      deps.log.warn("edge invalidation channel unavailable; cache entries expire within 5 s", { err });
      return async () => {};
    });
  return async () => {
    local.delete(onImage);
    await unsubscribe();
  };
}
