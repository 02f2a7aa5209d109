// The production object store: any S3-compatible bucket through Bun's built-in client.
import { S3Client } from "bun";
import { assertKey, assertPrefix, type Storage } from "./types.ts";

export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export function createS3Storage(s: S3Settings): Storage {
  const client = new S3Client({
    bucket: s.bucket,
    endpoint: s.endpoint,
    region: s.region,
    accessKeyId: s.accessKeyId,
    secretAccessKey: s.secretAccessKey,
  });
  const isMissing = (e: unknown) => (e as { code?: string })?.code === "NoSuchKey" || /not ?found|NoSuchKey|404/i.test(String(e));

  return {
    kind: "s3",
    async put(key, body, opts) {
      const file = client.file(assertKey(key));
      // A stream goes up as a multipart upload: memory stays flat whatever the size.
      const data = body instanceof ReadableStream ? new Response(body) : body;
      const size = await file.write(data, { type: opts?.contentType ?? "application/octet-stream" });
      return { size };
    },
    async read(key) {
      try {
        return await client.file(assertKey(key)).bytes();
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
    },
    async get(key, range) {
      const file = client.file(assertKey(key));
      try {
        // Reading the first chunk surfaces a missing object as an error here, not mid-response.
        const stream = (range ? file.slice(range.start, range.end + 1) : file).stream();
        const reader = stream.getReader();
        const first = await reader.read();
        return new ReadableStream<Uint8Array>({
          start(c) {
            if (first.done) c.close();
            else c.enqueue(first.value);
          },
          async pull(c) {
            const { done, value } = await reader.read();
            if (done) c.close();
            else c.enqueue(value);
          },
          cancel(reason) {
            return reader.cancel(reason);
          },
        });
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
    },
    async head(key) {
      try {
        const st = await client.file(assertKey(key)).stat();
        return { key, size: st.size, lastModified: st.lastModified };
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
    },
    async delete(key) {
      try {
        await client.file(assertKey(key)).delete();
      } catch (e) {
        if (!isMissing(e)) throw e;
      }
    },
    async *list(prefix) {
      assertPrefix(prefix);
      let continuationToken: string | undefined;
      do {
        const page = await client.list({ prefix, continuationToken, maxKeys: 1000 });
        for (const o of page.contents ?? []) {
          yield { key: o.key, size: o.size ?? 0, lastModified: o.lastModified ? new Date(o.lastModified) : undefined };
        }
        continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
      } while (continuationToken);
    },
    async ping() {
      await client.list({ maxKeys: 1 });
    },
  };
}
