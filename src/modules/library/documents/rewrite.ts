// Inline images (data: URIs) of a Markdown document turned into hosted images: each one
// decoded and handed to the images feature (format by bytes, SVG sanitizing, metadata
// stripped), identical ones once, and only the URL's span of the source replaced, so
// every other character of the document stays as it was.
import { AppError } from "../../../core/errors.ts";
import { assertCompliant } from "../../compliance/public.ts";
import { discardPrepared, type ImageDeps, type PreparedImage, prepareImage, preparedUrl, type Uploader } from "../../images/public.ts";
import type { ImageRef } from "./markdown.ts";
import { hostAllowed } from "./cdn-hosts.ts";
import { sha256Hex } from "./content.ts";

/** The data: image types that are rewritten; any other data: URI is left alone. */
const REWRITTEN_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif", "image/svg+xml"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

interface ImageIssue {
  /** The image reference's position among all of the document's image references (from 0). */
  index: number;
  reason: string;
  message: string;
}

export interface Rewritten {
  content: string;
  /** Images stored, one per distinct picture: recorded in the document's transaction. */
  prepared: PreparedImage[];
  failures: ImageIssue[];
  warnings: ImageIssue[];
  /** The first image the document shows that is not a data: URI (after rewriting). */
  coverUrl: string | null;
}

interface DataImage {
  type: string;
  bytes: Uint8Array;
}

/** A data: URI's type and decoded bytes, when it is a base64 image; null when it is not one. */
function parseDataUri(url: string): DataImage | "malformed" | null {
  if (!url.slice(0, 5).toLowerCase().startsWith("data:")) return null;
  const comma = url.indexOf(",");
  if (comma < 0) return "malformed";
  const params = url.slice(5, comma).toLowerCase().split(";");
  const type = params[0]!.trim();
  if (!REWRITTEN_TYPES.has(type)) return null;
  if (!params.includes("base64")) return "malformed";
  const payload = url.slice(comma + 1);
  if (payload.length % 4 === 1 || !BASE64.test(payload)) return "malformed";
  const bytes = Buffer.from(payload, "base64");
  return bytes.length ? { type, bytes } : "malformed";
}

const isDataUri = (url: string) => url.slice(0, 5).toLowerCase() === "data:";
const hostOf = (url: string) => {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.hostname.toLowerCase() : null;
  } catch {
    return null;
  }
};

function withImageIndex(e: AppError, index: number): AppError {
  const reasons = (e.meta.reasons as object[] | undefined)?.map((r) => ({ ...r, index }));
  return new AppError(e.code, "an inline image of the document was refused by the content compliance check", { ...e.meta, reasons });
}

async function checkLeftInline(deps: ImageDeps, ownerId: string, data: DataImage, index: number): Promise<void> {
  try {
    await assertCompliant(deps, { kind: "image", bytes: data.bytes, ownerId, filename: "", mimeType: data.type });
  } catch (e) {
    throw e instanceof AppError && e.code === "COMPLIANCE_BLOCKED" ? withImageIndex(e, index) : e;
  }
}

export interface RewriteOptions {
  rewrite: boolean;
  cdnHosts: readonly string[];
  uploader: Uploader;
  /** img_storage the document itself will need, so each image is pre-checked with it. */
  docBytes: number;
}

/**
 * Stores the document's inline images and returns its text with their URLs replaced.
 * A broken image is a failure (its text stays), the others go on; an external image on
 * a host not allow-listed, and a data: image left alone, are warnings. A refusal that is
 * not about one image (quota, a busy node, storage down) removes what was stored and
 * throws.
 */
export async function rewriteImages(deps: ImageDeps, source: string, refs: readonly ImageRef[], opts: RewriteOptions): Promise<Rewritten> {
  const failures: ImageIssue[] = [];
  const warnings: ImageIssue[] = [];
  const prepared: PreparedImage[] = [];
  const byHash = new Map<string, PreparedImage>();
  /** Replacements by the start of their span: a definition several references share is replaced once. */
  const edits = new Map<number, { end: number; url: string }>();
  const ownHost = hostOf(deps.config.MEDIA_URL);
  let coverUrl: string | null = null;
  let stored = 0;

  try {
    for (const [index, ref] of refs.entries()) {
      if (!isDataUri(ref.url)) {
        const host = hostOf(ref.url);
        if (host && host !== ownHost && !hostAllowed(host, opts.cdnHosts)) {
          warnings.push({ index, reason: "EXTERNAL_IMAGE", message: `the image at ${host} is not hosted here and may disappear` });
        }
        coverUrl ??= ref.url || null;
        continue;
      }
      const data = parseDataUri(ref.url);
      if (data === null || !opts.rewrite) {
        // An inline picture left in the text is published with it: checked all the same.
        if (data && data !== "malformed") await checkLeftInline(deps, opts.uploader.userId, data, index);
        warnings.push({
          index,
          reason: "SKIPPED",
          message:
            data === null
              ? "a data: URI that is not a base64 PNG, JPEG, WebP, GIF or SVG image is left as it is"
              : "rewriteImages is off: the inline image is left as it is",
        });
        continue;
      }
      if (data === "malformed") {
        failures.push({ index, reason: "INVALID_DATA_URI", message: "the data: URI is not valid base64" });
        continue;
      }
      if (!ref.span) {
        failures.push({ index, reason: "URL_NOT_LOCATED", message: "the image's URL could not be located in the source" });
        continue;
      }
      if (edits.has(ref.span[0])) {
        coverUrl ??= edits.get(ref.span[0])!.url;
        continue;
      }
      const hash = sha256Hex(data.bytes);
      let image = byHash.get(hash);
      if (!image) {
        try {
          image = await prepareImage(deps, opts.uploader, { bytes: data.bytes }, { imageBytes: opts.docBytes + stored });
        } catch (e) {
          // A picture that is not one (wrong bytes, too many pixels, a hostile SVG) fails
          // alone; anything else (quota, busy, storage) is the whole request's answer.
          if (e instanceof AppError && (e.code === "INVALID_FILE_TYPE" || e.code === "VALIDATION_ERROR")) {
            failures.push({ index, reason: e.code, message: e.message });
            continue;
          }
          // A refused picture refuses the whole document (nothing of it may be stored);
          // its reasons say which image it was.
          if (e instanceof AppError && e.code === "COMPLIANCE_BLOCKED") throw withImageIndex(e, index);
          throw e;
        }
        byHash.set(hash, image);
        prepared.push(image);
        stored += image.stored;
      }
      const url = preparedUrl(deps.config.MEDIA_URL, image);
      edits.set(ref.span[0], { end: ref.span[1], url });
      coverUrl ??= url;
    }
  } catch (e) {
    await discardPrepared(deps, prepared);
    throw e;
  }

  const ordered = [...edits.entries()].sort(([a], [b]) => a - b);
  let out = "";
  let at = 0;
  for (const [start, { end, url }] of ordered) {
    out += source.slice(at, start) + url;
    at = end;
  }
  out += source.slice(at);
  return { content: out, prepared, failures, warnings, coverUrl };
}
