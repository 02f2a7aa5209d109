// A fake S3 endpoint for the two calls s3rver does not implement (ListMultipartUploads,
// AbortMultipartUpload: it answers 501 and 405): it records every request it is sent and
// answers a listing with the page the test gives for its query.
export interface SeenS3Request {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
}

/** One `<Upload>` of a ListMultipartUploadsResult (text as S3 sends it: XML-escaped). */
export const uploadXml = (key: string, id: string, initiated: string) =>
  `<Upload><Key>${key}</Key><UploadId>${id}</UploadId><Initiated>${initiated}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`;

/**
 * `page(query)`: what goes inside the ListMultipartUploadsResult of a listing with that
 * query; `abortStatus(query)`: the status of an abort (204 unless told).
 */
export function fakeS3(page: (query: Record<string, string>) => string, abortStatus: (query: Record<string, string>) => number = () => 204) {
  const seen: SeenS3Request[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const url = new URL(req.url);
      const query = Object.fromEntries(url.searchParams);
      seen.push({ method: req.method, path: url.pathname, query, headers: Object.fromEntries(req.headers) });
      if (req.method === "DELETE") return new Response(null, { status: abortStatus(query) });
      const body = `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult><Bucket>b</Bucket>${page(query)}</ListMultipartUploadsResult>`;
      return new Response(body, { headers: { "content-type": "application/xml" } });
    },
  });
  return { endpoint: `http://127.0.0.1:${server.port}`, seen, stop: () => void server.stop(true) };
}
