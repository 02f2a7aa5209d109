// Removing a video's objects: everything under its prefix (layout.ts), whoever made them.
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
