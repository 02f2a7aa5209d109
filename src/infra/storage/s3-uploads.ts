// Multipart uploads left behind. A stream goes to S3 as a multipart upload; a process
// killed mid-upload neither completes nor aborts it, and its parts are kept (and billed)
// with no object to show for them, invisible to a listing of objects. Bun's S3 client has
// no call to list or abort them, so these two are made here, signed (SigV4) by aws4fetch:
// ListMultipartUploads (GET /<bucket>?uploads) and AbortMultipartUpload
// (DELETE /<bucket>/<key>?uploadId=).
import { AwsClient } from "aws4fetch";
import { SaxesParser } from "saxes";
import { assertPrefix, type PendingUpload } from "./types.ts";

export interface S3Target {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

type Marker = { keyMarker: string; uploadIdMarker: string };

/** One page of a ListMultipartUploadsResult. */
export function readUploadsPage(xml: string): { uploads: PendingUpload[]; next: Marker | null } {
  const uploads: PendingUpload[] = [];
  const top: Record<string, string> = {};
  let upload: Record<string, string> | null = null;
  let text = "";
  const parser = new SaxesParser();
  parser.on("opentag", (tag) => {
    if (tag.name === "Upload") upload = {};
    text = "";
  });
  parser.on("text", (t) => {
    text += t;
  });
  parser.on("closetag", (tag) => {
    if (tag.name === "Upload" && upload) {
      const initiated = new Date(upload.Initiated ?? Number.NaN);
      // One without a readable start time is left alone: its age is unknown.
      if (upload.Key && upload.UploadId && !Number.isNaN(initiated.getTime())) uploads.push({ key: upload.Key, uploadId: upload.UploadId, initiated });
      upload = null;
    } else (upload ?? top)[tag.name] = text;
  });
  parser.write(xml).close();
  const next = top.IsTruncated === "true" ? { keyMarker: top.NextKeyMarker ?? "", uploadIdMarker: top.NextUploadIdMarker ?? "" } : null;
  return { uploads, next };
}

export function s3Uploads(t: S3Target, fetchFn: typeof fetch = fetch) {
  // Path style, as Bun's client addresses the bucket (virtualHostedStyle off).
  const origin = (t.endpoint ?? `https://s3.${t.region}.amazonaws.com`).replace(/\/+$/, "");
  const aws = new AwsClient({ accessKeyId: t.accessKeyId, secretAccessKey: t.secretAccessKey, region: t.region, service: "s3" });
  // Signed with the wall clock: S3 refuses a signature 15 minutes off, whatever the app's clock says.
  const send = async (method: "GET" | "DELETE", path: string, query: Record<string, string>) => {
    const url = new URL(`${origin}${path.split("/").map(encodeURIComponent).join("/")}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return fetchFn(await aws.sign(url.href, { method }));
  };
  const failed = async (what: string, res: Response) => new Error(`S3 ${what} answered ${res.status}: ${(await res.text().catch(() => "")).slice(0, 300)}`);

  return {
    async *listUploads(prefix: string): AsyncIterable<PendingUpload> {
      assertPrefix(prefix);
      let marker: Marker | null = null;
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
