// Multipart uploads left behind. A stream goes to S3 as a multipart upload; a process
// killed mid-upload neither completes nor aborts it, and its parts are kept (and billed)
// with no object to show for them, invisible to a listing of objects. Bun's S3 client has
// no call to list or abort them, so these two are made here, signed (SigV4) by aws4fetch:
// ListMultipartUploads (GET /<bucket>?uploads) and AbortMultipartUpload
// (DELETE /<bucket>/<key>?uploadId=). A resumable upload (the uploads module) takes its
// parts over several requests, so the other steps are here too: CreateMultipartUpload,
// UploadPart and CompleteMultipartUpload.
import { AwsClient } from "aws4fetch";
import { SaxesParser } from "saxes";
import { assertKey, assertPrefix, type PendingUpload } from "./types.ts";

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
  const send = async (
    method: "GET" | "DELETE" | "POST" | "PUT",
    path: string,
    query: Record<string, string>,
    init: { body?: Uint8Array | string; headers?: Record<string, string> } = {},
  ) => {
    const url = new URL(`${origin}${path.split("/").map(encodeURIComponent).join("/")}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    // The payload is not hashed into the signature (aws4fetch's UNSIGNED-PAYLOAD for S3):
    // hashing every part would cost a pass over its bytes for nothing TLS does not give.
    return fetchFn(await aws.sign(url.href, { method, body: init.body as BodyInit | undefined, headers: init.headers }));
  };
  const objectPath = (key: string) => `/${t.bucket}/${key}`;
  const xmlText = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];
  const xmlEscape = (v: string) => v.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
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
    async createMultipart(key: string, contentType = "application/octet-stream"): Promise<string> {
      const res = await send("POST", objectPath(assertKey(key)), { uploads: "" }, { headers: { "content-type": contentType } });
      if (!res.ok) throw await failed("CreateMultipartUpload", res);
      const id = xmlText(await res.text(), "UploadId");
      if (!id) throw new Error("S3 CreateMultipartUpload answered no UploadId");
      return id;
    },
    async uploadPart(key: string, uploadId: string, partNumber: number, bytes: Uint8Array): Promise<string> {
      const res = await send("PUT", objectPath(assertKey(key)), { partNumber: String(partNumber), uploadId }, { body: bytes });
      if (!res.ok) throw await failed("UploadPart", res);
      await res.body?.cancel().catch(() => {});
      const etag = res.headers.get("etag");
      if (!etag) throw new Error("S3 UploadPart answered no ETag");
      return etag;
    },
    /** CopyObject (at most 5 GB: false beyond), then the source deleted. */
    async moveObject(from: string, to: string, size: number): Promise<boolean> {
      if (size > 5 * 1024 ** 3) return false;
      const source = `/${t.bucket}/${assertKey(from)}`.split("/").map(encodeURIComponent).join("/");
      const res = await send("PUT", objectPath(assertKey(to)), {}, { headers: { "x-amz-copy-source": source } });
      const text = await res.text();
      if (!res.ok || text.includes("<Error>")) throw new Error(`S3 CopyObject answered ${res.status}: ${text.slice(0, 300)}`);
      const gone = await send("DELETE", objectPath(from), {});
      await gone.body?.cancel().catch(() => {});
      return true;
    },
    async completeMultipart(key: string, uploadId: string, parts: readonly { partNumber: number; etag: string }[]): Promise<void> {
      const body = `<CompleteMultipartUpload>${parts.map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${xmlEscape(p.etag)}</ETag></Part>`).join("")}</CompleteMultipartUpload>`;
      const res = await send("POST", objectPath(assertKey(key)), { uploadId }, { body, headers: { "content-type": "application/xml" } });
      // S3 may answer 200 and still fail, with an <Error> in the body.
      const text = await res.text();
      if (!res.ok || text.includes("<Error>")) throw new Error(`S3 CompleteMultipartUpload answered ${res.status}: ${text.slice(0, 300)}`);
    },
  };
}
