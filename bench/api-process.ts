// A shelf api in a process of its own, for the benchmarks that measure the server alone
// (its RSS, with no client or load generator in the same heap). Embedded parts, or the
// production parts real-parts.sh gives: Postgres, Redis and, unlike startShelf's default,
// the S3 bucket, so an upload goes up as S3 multipart. Prints one JSON line
// {"origin","key","pid"} when it listens, and stops cleanly on SIGTERM.
import { startShelf } from "./server.ts";

const s3 = process.env.S3_BUCKET
  ? {
      S3_BUCKET: process.env.S3_BUCKET,
      S3_ENDPOINT: process.env.S3_ENDPOINT,
      S3_REGION: process.env.S3_REGION,
      S3_ACCESS_KEY_ID: process.env.S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: process.env.S3_SECRET_ACCESS_KEY,
    }
  : {};
const shelf = await startShelf(s3);
process.on("SIGTERM", () => {
  void shelf.stop().finally(() => process.exit(0));
});
console.log(JSON.stringify({ origin: shelf.origin, key: shelf.key, pid: process.pid, storage: shelf.deps.storage.kind }));
