// Size variants of pictures other kinds store (a video's thumbnail, an audio file's cover):
// the same size query as an image's (params.ts), made on the first request the kind's edge
// resolver admits and kept beside the picture, at `<picture's key>.v/<name>`, so the kind's
// own delete of its prefix removes them and its orphan-sweep kind names them. No row
// records them: the object itself is the record (a HEAD finds it), and each node keeps
// what it has served by key.
import type { Deps } from "../../../core/deps.ts";
import { AppError, storageError } from "../../../core/errors.ts";
import { BudgetBusyError } from "../../../infra/budget.ts";
import { Lru } from "../../../infra/cache.ts";
import { sharp } from "../../../infra/sharp.ts";
import { logStoreFailure } from "../../../infra/storage/outages.ts";
import { acceptsAvif, acceptsWebp, type EdgeVariant, REFUSAL } from "../../edge/public.ts";
import { allowedSizes, readAsk, VARIANT_MIME, type VariantAsk, type VariantSpec, variantName } from "./params.ts";
import { renderVariant } from "./render.ts";

/** Where the variants of the picture at `key` are kept: what the kind's delete and orphan-sweep kind cover. */
export const derivedPrefix = (key: string) => `${key}.v/`;

const MADE_MAX = 10_000;
const RETRY_S = 5;

/** One per resolver: reads size queries and makes the variants of a kind's pictures. */
export function derivedVariants(deps: Deps) {
  const sizes = allowedSizes(deps.config.IMAGE_SIZES);
  const made = new Lru<EdgeVariant>(MADE_MAX);
  const making = new Map<string, Promise<EdgeVariant>>();

  /**
   * The variant of `picture` (a still JPEG) a size query asks for: one this node has served,
   * or one made (or found) when the request is admitted. Without `format`, AVIF, then WebP,
   * else JPEG, as the client takes them.
   */
  function variant(picture: EdgeVariant, ask: VariantAsk, accept: string | null): EdgeVariant {
    const format = ask.format ?? (acceptsAvif(accept) ? "avif" : acceptsWebp(accept) ? "webp" : "jpeg");
    const spec: VariantSpec = { w: ask.w, h: ask.h, fit: ask.fit, q: ask.q, format };
    const name = variantName(spec);
    const key = `${derivedPrefix(picture.key)}${name}`;
    const known = made.get(key);
    if (known) return known;
    const base = {
      key,
      contentType: VARIANT_MIME[format],
      etag: `${picture.etag.slice(0, -1)}-v-${name}"`,
      ...(picture.dimension && { dimension: picture.dimension }),
    };
    return {
      ...base,
      size: 0,
      make: () => {
        let p = making.get(key);
        if (!p) {
          p = findOrMake(picture, spec, key)
            .then((size) => {
              const v = { ...base, size };
              made.set(key, v);
              return v;
            })
            .finally(() => making.delete(key));
          making.set(key, p);
        }
        return p;
      },
    };
  }

  async function findOrMake(picture: EdgeVariant, spec: VariantSpec, key: string): Promise<number> {
    try {
      const there = await deps.storage.head(key);
      if (there) return there.size;
    } catch (err) {
      throw storageError(err, "object storage failed", REFUSAL);
    }
    let source: Uint8Array | null;
    try {
      source = await deps.storage.read(picture.key);
    } catch (err) {
      throw storageError(err, "object storage failed", REFUSAL);
    }
    if (!source) throw new AppError("NOT_FOUND", "the picture is gone", { entity: "media" }, REFUSAL);
    const m = await sharp(source)
      .metadata()
      .catch(() => null);
    const release = await deps.budgets.imageWork.acquire(4 * (m?.width ?? 1920) * (m?.height ?? 1080));
    let bytes: Uint8Array;
    try {
      bytes = await renderVariant(source, spec, 1, deps.config.IMAGE_WORK_TIMEOUT_S);
    } catch (err) {
      if (err instanceof BudgetBusyError) throw err;
      deps.log.error("picture variant render failed", { key, err });
      throw new AppError(
        "SERVICE_UNAVAILABLE",
        `the variant could not be made now; retry in ${RETRY_S} s`,
        { retryAfter: RETRY_S },
        { ...REFUSAL, "retry-after": String(RETRY_S) },
      );
    } finally {
      release();
    }
    try {
      await deps.storage.put(key, bytes, { contentType: VARIANT_MIME[spec.format] });
    } catch (err) {
      logStoreFailure(deps.log, "picture variant write failed", { key }, err);
      throw storageError(err, "object storage failed", REFUSAL);
    }
    return bytes.length;
  }

  return {
    /** The size query of a request (null without one); 400 for one not offered, before any lookup. */
    ask: (request: Request): VariantAsk | null => (request.url.includes("?") ? readAsk(request.url, sizes) : null),
    variant,
  };
}
