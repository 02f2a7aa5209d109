// The two S3 calls Bun's client does not make (ListMultipartUploads, AbortMultipartUpload),
// signed with SigV4 here: the signer against AWS's published examples, the calls against
// a fake endpoint that records what it is sent (s3rver implements neither call: it answers
// GET ?uploads with 501 NotImplemented and DELETE ?uploadId with 405).
import { afterAll, describe, expect, test } from "bun:test";
import { signS3Call } from "../../src/infra/storage/s3-sign.ts";
import { readUploadsPage, s3Uploads } from "../../src/infra/storage/s3-uploads.ts";

// AWS's examples for "Signature Calculations for the Authorization Header".
const example = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1" };
const at = new Date("2013-05-24T00:00:00Z");
const origin = "https://examplebucket.s3.amazonaws.com";
const signature = (h: Record<string, string>) => /Signature=([0-9a-f]{64})$/.exec(h.authorization!)![1];

describe("SigV4 (AWS's examples)", () => {
  test("GET Object with a Range header", () => {
    const { headers } = signS3Call({ method: "GET", origin, path: "/test.txt", headers: { range: "bytes=0-9" } }, example, at);
    expect(signature(headers)).toBe("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    expect(headers.authorization).toStartWith(
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,",
    );
  });

  test("GET Bucket Lifecycle: a valueless subresource, as ?uploads is", () => {
    expect(signature(signS3Call({ method: "GET", origin, path: "/", query: { lifecycle: "" } }, example, at).headers)).toBe(
      "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543",
    );
  });

  test("Get Bucket (List Objects): query parameters sorted and encoded", () => {
    const signed = signS3Call({ method: "GET", origin, path: "/", query: { prefix: "J", "max-keys": "2" } }, example, at);
    expect(signature(signed.headers)).toBe("34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
    expect(signed.url).toBe(`${origin}/?max-keys=2&prefix=J`);
  });
});

type Seen = { method: string; path: string; query: Record<string, string>; headers: Record<string, string> };
const seen: Seen[] = [];
const upload = (key: string, id: string, initiated: string) =>
  `<Upload><Key>${key}</Key><UploadId>${id}</UploadId><Initiated>${initiated}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`;
const fake = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const url = new URL(req.url);
    const query = Object.fromEntries(url.searchParams);
    seen.push({ method: req.method, path: url.pathname, query, headers: Object.fromEntries(req.headers) });
    if (req.method === "DELETE") return new Response(null, { status: query.uploadId === "gone" ? 404 : 204 });
    const first = !query["key-marker"];
    const body = first
      ? `${upload("videos/u1/v1/original", "id&amp;1", "2026-01-01T00:00:00.000Z")}<IsTruncated>true</IsTruncated><NextKeyMarker>videos/u1/v1/original</NextKeyMarker><NextUploadIdMarker>id&amp;1</NextUploadIdMarker>`
      : `${upload("videos/u2/v2/original", "id2", "2026-01-02T00:00:00.000Z")}<IsTruncated>false</IsTruncated>`;
    return new Response(`<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult><Bucket>b</Bucket>${body}</ListMultipartUploadsResult>`, {
      headers: { "content-type": "application/xml" },
    });
  },
});
afterAll(() => fake.stop(true));

describe("multipart uploads on S3", () => {
  const creds = { bucket: "media", endpoint: `http://127.0.0.1:${fake.port}`, region: "eu-west-1", accessKeyId: "AK", secretAccessKey: "SK" };

  test("listed page by page under a prefix, with signed requests; aborted by key and upload id", async () => {
    seen.length = 0;
    const s3 = s3Uploads(creds);
    const listed = [];
    for await (const u of s3.listUploads("videos/")) listed.push(u);
    expect(listed).toEqual([
      { key: "videos/u1/v1/original", uploadId: "id&1", initiated: new Date("2026-01-01T00:00:00.000Z") },
      { key: "videos/u2/v2/original", uploadId: "id2", initiated: new Date("2026-01-02T00:00:00.000Z") },
    ]);
    await s3.abortUpload("videos/u1/v1/original", "id&1");
    // Completed or aborted meanwhile: nothing to do.
    await s3.abortUpload("videos/u2/v2/original", "gone");
    expect(seen.map(({ method, path, query }) => ({ method, path, query }))).toEqual([
      { method: "GET", path: "/media", query: { uploads: "", prefix: "videos/", "max-uploads": "1000" } },
      {
        method: "GET",
        path: "/media",
        query: { uploads: "", prefix: "videos/", "max-uploads": "1000", "key-marker": "videos/u1/v1/original", "upload-id-marker": "id&1" },
      },
      { method: "DELETE", path: "/media/videos/u1/v1/original", query: { uploadId: "id&1" } },
      { method: "DELETE", path: "/media/videos/u2/v2/original", query: { uploadId: "gone" } },
    ]);
    for (const r of seen) {
      // Signed now by the wall clock, for what the server received.
      const date = r.headers["x-amz-date"]!;
      const when = new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`);
      expect(Math.abs(when.getTime() - Date.now())).toBeLessThan(60_000);
      const expected = signS3Call({ method: r.method as "GET", origin: creds.endpoint, path: r.path, query: r.query }, creds, when);
      expect(r.headers.authorization).toBe(expected.headers.authorization!);
      expect(r.headers.authorization).toStartWith(`AWS4-HMAC-SHA256 Credential=AK/${date.slice(0, 8)}/eu-west-1/s3/aws4_request,`);
    }
  });

  test("a listing the server refuses is an error naming the call and status", async () => {
    const refusing = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("<Error><Code>NotImplemented</Code></Error>", { status: 501 }) });
    try {
      const s3 = s3Uploads({ ...creds, endpoint: `http://127.0.0.1:${refusing.port}` });
      const list = async () => {
        for await (const _ of s3.listUploads("audio/")) break;
      };
      await expect(list()).rejects.toThrow(/ListMultipartUploads answered 501/);
    } finally {
      await refusing.stop(true);
    }
  });

  test("an upload whose start time cannot be read is not listed (its age is unknown)", () => {
    const page = readUploadsPage(
      `<ListMultipartUploadsResult>${upload("audio/a/b/original", "x", "soon")}<IsTruncated>false</IsTruncated></ListMultipartUploadsResult>`,
    );
    expect(page).toEqual({ uploads: [], next: null });
  });
});
