// A shelf api in a process of its own, for the benchmarks that measure the server alone
// (its RSS, with no client or load generator in the same heap). Embedded parts, or the
// production parts real-parts.sh gives: Postgres, Redis and, unlike startShelf's default,
// the S3 bucket, so an upload goes up as S3 multipart. Prints one JSON line
// {"origin","key","pid","storage"} when it listens, and stops cleanly on SIGTERM.
//
// `bun bench/api-process.ts bare`: instead, a bare Bun.serve that writes each request's
// body as it comes, unparsed, to a file in a temporary folder: the ceiling of taking an
// upload over HTTP on this machine, for (p) to show beside its direct write.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startShelf } from "./server.ts";

if (Bun.argv[2] === "bare") {
  const dir = mkdtempSync(join(tmpdir(), "shelf-bench-bare-"));
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    maxRequestBodySize: 4 * 1024 ** 3,
    async fetch(request) {
      const file = join(dir, crypto.randomUUID());
      await Bun.write(file, new Response(request.body));
      rmSync(file);
      return new Response(null, { status: 201 });
    },
  });
  process.on("SIGTERM", () => {
    void server.stop(true).finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  });
  console.log(JSON.stringify({ origin: server.url.origin, key: "", pid: process.pid, storage: "fs" }));
} else {
  const s3 = process.env.S3_BUCKET
    ? {
        S3_BUCKET: process.env.S3_BUCKET,
        S3_ENDPOINT: process.env.S3_ENDPOINT,
        S3_REGION: process.env.S3_REGION,
        S3_ACCESS_KEY_ID: process.env.S3_ACCESS_KEY_ID,
        S3_SECRET_ACCESS_KEY: process.env.S3_SECRET_ACCESS_KEY,
      }
    : {};
  // Metrics on when asked (bench/metrics.ts runs one node with them, one without); the
  // limits raised when asked (bench/million.ts, whose load is one user's; bench/mcp.ts: a
  // refused tool call answers 200 all the same).
  const shelf = await startShelf({
    ...s3,
    METRICS_TOKEN: process.env.METRICS_TOKEN,
    RATE_LIMITS: process.env.RATE_LIMITS,
    PLAN_OVERRIDES: process.env.PLAN_OVERRIDES,
  });
  process.on("SIGTERM", () => {
    void shelf.stop().finally(() => process.exit(0));
  });
  console.log(JSON.stringify({ origin: shelf.origin, key: shelf.key, pid: process.pid, storage: shelf.deps.storage.kind }));
}
