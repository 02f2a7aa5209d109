// AWS Signature Version 4 (header form, as in AWS's "Authenticating Requests: Using the
// Authorization Header"), for the few S3 calls Bun's client does not make: listing and
// aborting multipart uploads. The body is always empty, so its hash is the empty string's.
import { createHash, createHmac } from "node:crypto";

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

const EMPTY_SHA256 = createHash("sha256").update("").digest("hex");

/** RFC 3986 encoding, as SigV4 wants it: only A-Z a-z 0-9 - . _ ~ left as they are. */
const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

/** `20130524T000000Z` */
const amzDate = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

export interface S3Call {
  method: "GET" | "DELETE";
  /** scheme://host[:port] */
  origin: string;
  /** The path as S3 names it, not yet encoded: `/bucket/key` (path style) or `/key`. */
  path: string;
  /** Query parameters; "" for a valueless one (`?uploads`). */
  query?: Record<string, string>;
  /** Extra headers to sign and send (lower-case names). */
  headers?: Record<string, string>;
}

/**
 * The URL and the headers (Authorization included) of a signed S3 call at `at`, which
 * must be the wall clock's time: S3 refuses a signature more than 15 minutes off.
 */
export function signS3Call(call: S3Call, creds: S3Credentials, at: Date): { url: string; headers: Record<string, string> } {
  const date = amzDate(at);
  const day = date.slice(0, 8);
  const scope = `${day}/${creds.region}/s3/aws4_request`;
  const canonicalPath = call.path.split("/").map(encode).join("/");
  const canonicalQuery = Object.entries(call.query ?? {})
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const headers: Record<string, string> = {
    host: new URL(call.origin).host,
    ...call.headers,
    "x-amz-content-sha256": EMPTY_SHA256,
    "x-amz-date": date,
  };
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]!.trim()}\n`).join("");
  const signedHeaders = names.join(";");
  const canonicalRequest = [call.method, canonicalPath, canonicalQuery, canonicalHeaders, signedHeaders, EMPTY_SHA256].join("\n");
  const stringToSign = ["AWS4-HMAC-SHA256", date, scope, createHash("sha256").update(canonicalRequest).digest("hex")].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), creds.region), "s3"), "aws4_request");
  const signature = createHmac("sha256", key).update(stringToSign).digest("hex");
  const { host: _, ...sent } = headers;
  return {
    url: `${call.origin}${canonicalPath}${canonicalQuery ? `?${canonicalQuery}` : ""}`,
    headers: { ...sent, authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}` },
  };
}
