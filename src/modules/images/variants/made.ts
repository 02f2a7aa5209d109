// Variants made on first request and kept: rendered once under the image-work budget,
// written under the image's prefix, then recorded (image_variants) so every node serves the
// object afterwards. Concurrent first requests on a node share one making; a node that
// finds the record (another node made it) serves it without rendering.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { AppError, storageError } from "../../../core/errors.ts";
import { BudgetBusyError } from "../../../infra/budget.ts";
import { prepared } from "../../../infra/db/prepared.ts";
import { logStoreFailure } from "../../../infra/storage/outages.ts";
import { type EdgeVariant, REFUSAL } from "../../edge/public.ts";
import type { ImageFormat } from "../formats.ts";
import { objectKey } from "../objects.ts";
import { images, imageVariants } from "../table.ts";
import { VARIANT_MIME, type VariantSpec, variantName } from "./params.ts";
import { renderVariant, variantWork } from "./render.ts";

/** What a variant is made from: the image's row as the edge holds it. */
export interface VariantSource {
  id: string;
  ownerId: string;
  format: ImageFormat;
  width: number;
  height: number;
  frames: number;
}

const variantKey = (img: { ownerId: string; id: string }, name: string) => `images/${img.ownerId}/${img.id}/v/${name}`;

/** Strong, and other than the original's and the rendition's ("<id>-o1", "<id>-w1"). */
const etagOfVariant = (img: { id: string }, name: string) => `"${img.id}-v-${name}"`;

function variantOf(img: VariantSource, spec: VariantSpec, size: number): EdgeVariant {
  const name = variantName(spec);
  return { key: variantKey(img, name), contentType: VARIANT_MIME[spec.format], size, etag: etagOfVariant(img, name) };
}

const RETRY_S = 5;
const unavailable = () =>
  new AppError(
    "SERVICE_UNAVAILABLE",
    `the image variant could not be made now; retry in ${RETRY_S} s`,
    { retryAfter: RETRY_S },
    { ...REFUSAL, "retry-after": String(RETRY_S) },
  );

const recorded = (db: Deps["db"]) =>
  db
    .select({ size: imageVariants.size })
    .from(imageVariants)
    .where(and(eq(imageVariants.imageId, sql.placeholder("id")), eq(imageVariants.name, sql.placeholder("name"))))
    .prepare("image_variant_by_name");

/** Makes variants for the edge; one per process (the edge resolver holds it). */
export function variantMaker(deps: Deps) {
  const making = new Map<string, Promise<EdgeVariant>>();

  /** The variant's object, made now unless it was made before; the same promise for concurrent asks. */
  function make(img: VariantSource, spec: VariantSpec): Promise<EdgeVariant> {
    const key = variantKey(img, variantName(spec));
    let p = making.get(key);
    if (!p) {
      p = findOrMake(img, spec).finally(() => making.delete(key));
      making.set(key, p);
    }
    return p;
  }

  async function findOrMake(img: VariantSource, spec: VariantSpec): Promise<EdgeVariant> {
    const name = variantName(spec);
    const [row] = await prepared(deps.db, "image_variant_by_name", recorded).execute({ id: img.id, name });
    if (row) return variantOf(img, spec, row.size);
    const bytes = await render(img, spec);
    const key = variantKey(img, name);
    try {
      await deps.storage.put(key, bytes, { contentType: VARIANT_MIME[spec.format] });
    } catch (err) {
      logStoreFailure(deps.log, "image variant write failed", { key }, err);
      throw storageError(err, "object storage failed", REFUSAL);
    }
    if (!(await record(img, name, bytes.length))) {
      // The image was deleted while its variant was made: its delete may have run before
      // the object was written, so the object goes here.
      await deps.storage.delete(key).catch((err) => logStoreFailure(deps.log, "image variant delete failed", { key }, err));
      throw new AppError("NOT_FOUND", "image not found", { entity: "image" }, REFUSAL);
    }
    return variantOf(img, spec, bytes.length);
  }

  async function render(img: VariantSource, spec: VariantSpec): Promise<Uint8Array> {
    const release = await deps.budgets.imageWork.acquire(variantWork(img, spec));
    try {
      let original: Uint8Array | null;
      try {
        original = await deps.storage.read(objectKey(img, "original"));
      } catch (err) {
        throw storageError(err, "object storage failed", REFUSAL);
      }
      if (!original) throw new AppError("NOT_FOUND", "image not found", { entity: "image" }, REFUSAL);
      return await renderVariant(original, spec, img.frames, deps.config.IMAGE_WORK_TIMEOUT_S);
    } catch (err) {
      if (err instanceof AppError || err instanceof BudgetBusyError) throw err;
      deps.log.error("image variant render failed", { id: img.id, spec, err });
      throw unavailable();
    } finally {
      release();
    }
  }

  /**
   * Records the variant while its image exists; false when it is gone. A row already there
   * (another node made the same bytes) is kept.
   */
  async function record(img: VariantSource, name: string, size: number): Promise<boolean> {
    const now = deps.clock.now();
    try {
      const inserted = await deps.db
        .insert(imageVariants)
        .select(
          deps.db
            .select({
              imageId: images.id,
              name: sql<string>`${name}`.as("name"),
              size: sql<number>`${size}::bigint`.as("size"),
              createdAt: sql<Date>`${now.toISOString()}::timestamptz`.as("created_at"),
            })
            .from(images)
            .where(and(eq(images.id, img.id), isNull(images.trashedAt))),
        )
        .onConflictDoNothing()
        .returning({ name: imageVariants.name });
      if (inserted.length) return true;
    } catch (err) {
      // The image's row went between the select and the insert's key check.
      deps.log.warn("image variant not recorded", { id: img.id, name, err });
    }
    const [row] = await prepared(deps.db, "image_variant_by_name", recorded).execute({ id: img.id, name });
    return !!row;
  }

  return { make };
}

/** The keys of an image's recorded variants, for its delete (in its transaction) and the operator work. */
export const variantKeys = (img: { ownerId: string; id: string }, names: readonly string[]) => names.map((n) => variantKey(img, n));
