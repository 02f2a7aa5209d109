// Multipart uploads left behind. A stream goes to S3 as a multipart upload; a process
// killed mid-upload neither completes nor aborts it, and its parts are kept (and billed)
// with no object to show for them, invisible to a listing of objects. Bun's S3 client has
// no call to list or abort them, so these two are signed here (s3-sign.ts):
// ListMultipartUploads (GET /<bucket>?uploads) and AbortMultipartUpload
// (DELETE /<bucket>/<key>?uploadId=).
import { signS3Call } from "./s3-sign.ts";
import { assertPrefix, type PendingUpload } from "./types.ts";

export interface S3Target {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e.startsWith("#x") ? String.fromCodePoint(Number.parseInt(e.slice(2), 16)) : e.startsWith("#") ? String.fromCodePoint(Number(e.slice(1))) : ENTITIES[e]!,
  );
const field = (xml: string, name: string) => {
  const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
  return m ? unescapeXml(m[1]!) : undefined;
};

/** One page of a ListMultipartUploadsResult. */
export function readUploadsPage(xml: string): { uploads: PendingUpload[]; next: { keyMarker: string; uploadIdMarker: string } | null } {
  const uploads: PendingUpload[] = [];
  for (const [, body] of xml.matchAll(/<Upload>([\s\S]*?)<\/Upload>/g)) {
    const key = field(body!, "Key");
    const uploadId = field(body!, "UploadId");
    const initiated = new Date(field(body!, "Initiated") ?? Number.NaN);
    // One without a readable start time is left alone: its age is unknown.
    if (key && uploadId && !Number.isNaN(initiated.getTime())) uploads.push({ key, uploadId, initiated });
  }
  const truncated = field(xml, "IsTruncated") === "true";
  return { uploads, next: truncated ? { keyMarker: field(xml, "NextKeyMarker") ?? "", uploadIdMarker: field(xml, "NextUploadIdMarker") ?? "" } : null };
}

export function s3Uploads(t: S3Target, fetchFn: typeof fetch = fetch) {
  // Path style, as Bun's client addresses the bucket (virtualHostedStyle off).
  const origin = (t.endpoint ?? `https://s3.${t.region}.amazonaws.com`).replace(/\/+$/, "");
  const send = async (method: "GET" | "DELETE", path: string, query: Record<string, string>) => {
    // Signed with the wall clock: S3 refuses a signature 15 minutes off, whatever the app's clock says.
    const { url, headers } = signS3Call({ method, origin, path, query }, t, new Date());
    return fetchFn(url, { method, headers });
  };
  const failed = async (what: string, res: Response) => new Error(`S3 ${what} answered ${res.status}: ${(await res.text().catch(() => "")).slice(0, 300)}`);

  return {
    async *listUploads(prefix: string): AsyncIterable<PendingUpload> {
      assertPrefix(prefix);
      let marker: { keyMarker: string; uploadIdMarker: string } | null = null;
      do {
        const query: Record<string, string> = { uploads: "", prefix, "max-uploads": "1000" };
        if (marker) Object.assign(query, { "key-marker": marker.keyMarker, "upload-id-marker": marker.uploadIdMarker });
        const res = await send("GET", `/${t.bucket}`, query);
        if (!res.ok) throw await failed("ListMultipartUploads", res);
        const page = readUploadsPage(await res.text());
        yield* page.uploads;
        marker = page.next;
      } while (marker);
    },
    async abortUpload(key: string, uploadId: string): Promise<void> {
      const res = await send("DELETE", `/${t.bucket}/${key}`, { uploadId });
      // 404 NoSuchUpload: completed or aborted meanwhile, which is what was wanted.
      if (!res.ok && res.status !== 404) throw await failed("AbortMultipartUpload", res);
      await res.body?.cancel().catch(() => {});
    },
  };
}
