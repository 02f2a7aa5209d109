// upload_image with a URL: the server fetches it, safely (src/infra/safe-fetch.ts refuses
// addresses inside the server's network, after DNS and after each redirect), within the
// largest image a plan takes and a time limit; a refusal is a tool error in plain words.
// The user's own plan limit and quota apply when the bytes are uploaded, as for any upload.
import { type SafeFetchOptions, safeFetch, UrlRefused } from "../../infra/safe-fetch.ts";
import { VERSION } from "../../infra/version.ts";
import { ToolError } from "./client.ts";

export type ImageFetcher = (url: string) => Promise<{ bytes: Uint8Array; contentType: string | null }>;

/** The largest image any default plan takes (imageMaxBytes). */
const MAX_IMAGE_BYTES = 50 * 1024 * 1024;
const TIMEOUT_MS = 20_000;

/** `options`: a test's resolver and fetch (safeFetch's own injection points). */
export function urlImageFetcher(options: Pick<SafeFetchOptions, "lookup" | "fetchImpl"> = {}): ImageFetcher {
  return async (url) => {
    try {
      const got = await safeFetch(url, { maxBytes: MAX_IMAGE_BYTES, timeoutMs: TIMEOUT_MS, userAgent: `shelf/${VERSION} (image upload by URL)`, ...options });
      return { bytes: got.bytes, contentType: got.contentType };
    } catch (e) {
      if (e instanceof UrlRefused) throw new ToolError(`the image could not be fetched: ${e.message}`, `URL_${e.reason.toUpperCase()}`);
      throw e;
    }
  };
}
