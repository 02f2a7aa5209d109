// Benchmarks (j) and (k) alone (bench/kbs.ts), printed as JSON:
//   bun bench/kbs-only.ts                              embedded parts
//   bash scripts/real-parts.sh bun bench/kbs-only.ts   Postgres, Redis, s3rver
//   ... bench/kbs-only.ts manifest                     (j) alone (BENCH_PASSES=n: n passes)
import { benchKbs } from "./kbs.ts";
import { startShelf, UNLIMITED_SYNC } from "./server.ts";
const s = await startShelf(UNLIMITED_SYNC);
try {
  const r = await benchKbs(s, Bun.argv[2] === "manifest" ? "manifest" : undefined);
  console.log(JSON.stringify({ db: r.db, manifest: r.manifest, manifestHandler: r.manifestHandler, push: r.push }, null, 1));
} finally {
  await s.stop();
}
