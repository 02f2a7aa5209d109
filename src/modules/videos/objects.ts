// Removing a video's objects: everything under its prefix (layout.ts), whoever made them,
// or one that a change left behind (a replaced thumbnail or caption track).
import type { Deps } from "../../core/deps.ts";
import type { Storage } from "../../infra/storage/index.ts";
import { videoPrefix } from "./layout.ts";

export async function deleteVideoObjects(storage: Storage, v: { ownerId: string; id: string }): Promise<number> {
  let n = 0;
  for await (const o of storage.list(videoPrefix(v))) {
    await storage.delete(o.key);
    n++;
  }
  return n;
}

/** Deletes one object a change made unused; a failure is logged (the orphan sweep finds it later), not thrown. */
export async function dropVideoObject(deps: Pick<Deps, "storage" | "log">, key: string | null): Promise<void> {
  if (key) await deps.storage.delete(key).catch((err) => deps.log.error("video object delete failed", { key, err }));
}
