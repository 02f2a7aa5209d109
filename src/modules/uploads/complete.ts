// The last byte of an upload is in: the file goes through its kind's pipeline exactly as
// a direct upload's does (sniffed, checked, stored under the kind's own key, counted),
// and in the transaction that records the resource the upload is marked complete and the
// storage it held is given back, so the bytes are counted once. A refusal of the pipeline
// (not a video, compliance, quota) fails the upload for good and gives everything back;
// any other failure (the store) leaves it to be finished by a retry of the last PATCH.
import { and, eq } from "drizzle-orm";
import { AppError } from "../../core/errors.ts";
import { refusalError } from "../../core/refusal.ts";
import { release } from "../usage/public.ts";
import { heldNeed, KINDS, type KindDeps, type Resource } from "./kinds.ts";
import { assemble, discard } from "./store.ts";
import { type UploadRow, uploads } from "./table.ts";

export async function completeUpload(deps: KindDeps, saved: UploadRow): Promise<Resource> {
  const kind = KINDS[saved.kind];
  const set = (values: Partial<UploadRow>, from = "processing" as UploadRow["status"]) =>
    deps.db
      .update(uploads)
      .set({ ...values, updatedAt: deps.clock.now() })
      .where(and(eq(uploads.id, saved.id), eq(uploads.status, from)))
      .returning();
  let [row] = await set({ status: "processing" }, "uploading");
  if (!row) throw new AppError("CONFLICT", "the upload is being finished by another request");
  try {
    if (row.multipartId) {
      await assemble(deps, row);
      [row] = await set({ multipartId: null, parts: [] });
    }
    const stream = async () => {
      const s = await deps.storage.get(row!.dataKey);
      if (!s) throw new AppError("STORAGE_ERROR", "the upload's bytes are missing from the object store");
      return s;
    };
    const resource = await kind.ingest(deps, row!, stream, async (tx, resourceId) => {
      const [done] = await tx
        .update(uploads)
        .set({ status: "complete", resourceId, reserved: 0, updatedAt: deps.clock.now() })
        .where(and(eq(uploads.id, saved.id), eq(uploads.status, "processing")))
        .returning();
      if (!done) throw new AppError("CONFLICT", "the upload was removed while it was being finished");
      await release(tx, saved.ownerId, heldNeed(saved.kind, saved.reserved));
    });
    await set({ resource }, "complete");
    await discard(deps, row!);
    return resource;
  } catch (caught) {
    // A quota refusal fails it as any refusal does; a day's count run out (429) may pass
    // by a retry of the last PATCH once the day has turned.
    const e = refusalError(caught) ?? caught;
    const refused = e instanceof AppError && e.status < 500 && e.code !== "CONFLICT" && e.code !== "RATE_LIMITED";
    // A failure that took the assembled bytes with it (moved, then not recorded) cannot be
    // retried: it fails the upload too.
    const lost = !refused && !row?.multipartId && !(await deps.storage.head(saved.dataKey).catch(() => true));
    if (refused || lost) {
      const failure =
        e instanceof AppError && refused
          ? { code: e.code, message: e.message }
          : { code: "STORAGE_ERROR", message: "the upload's bytes were lost while it was finished" };
      await deps.db.transaction(async (tx) => {
        const [failed] = await tx
          .update(uploads)
          .set({ status: "failed", failure, reserved: 0, updatedAt: deps.clock.now() })
          .where(and(eq(uploads.id, saved.id), eq(uploads.status, "processing")))
          .returning();
        if (failed) await release(tx, saved.ownerId, heldNeed(saved.kind, saved.reserved));
      });
      await discard(deps, saved);
    } else {
      await set({ status: "uploading" }).catch(() => {});
    }
    throw caught;
  }
}
