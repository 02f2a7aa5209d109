// The two S3 calls Bun's client does not make (ListMultipartUploads, AbortMultipartUpload),
// signed with SigV4 (aws4fetch), against a fake endpoint that records what it is sent
// (s3rver implements neither call: it answers GET ?uploads with 501 NotImplemented and
// DELETE ?uploadId with 405).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { AwsV4Signer } from "aws4fetch";
import { readUploadsPage, s3Uploads } from "../../src/infra/storage/s3-uploads.ts";
import { fakeS3, uploadXml } from "../helpers/fake-s3.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const fake = fakeS3(
  (query) =>
    query["key-marker"]
      ? `${uploadXml("videos/u2/v2/original", "id2", "2026-01-02T00:00:00.000Z")}<IsTruncated>false</IsTruncated>`
      : `${uploadXml("videos/u1/v1/original", "id&amp;1", "2026-01-01T00:00:00.000Z")}<IsTruncated>true</IsTruncated><NextKeyMarker>videos/u1/v1/original</NextKeyMarker><NextUploadIdMarker>id&amp;1</NextUploadIdMarker>`,
  (query) => (query.uploadId === "gone" ? 404 : 204),
);
const { seen } = fake;
afterAll(() => fake.stop());

describe("multipart uploads on S3", () => {
  const creds = { bucket: "media", endpoint: fake.endpoint, region: "eu-west-1", accessKeyId: "AK", secretAccessKey: "SK" };

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
      // The signature covers what the server received: the same request signed again at that time gives it.
      const url = new URL(`${creds.endpoint}${r.path}`);
      for (const [k, v] of Object.entries(r.query)) url.searchParams.set(k, v);
      const again = await new AwsV4Signer({ ...creds, service: "s3", method: r.method, url: url.href, datetime: date }).sign();
      expect(r.headers.authorization).toBe(again.headers.get("authorization")!);
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
      `<ListMultipartUploadsResult>${uploadXml("audio/a/b/original", "x", "soon")}<IsTruncated>false</IsTruncated></ListMultipartUploadsResult>`,
    );
    expect(page).toEqual({ uploads: [], next: null });
  });
});
