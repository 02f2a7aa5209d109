// Benchmarks (l) and (m) alone (bench/kbs-v2.ts), printed as JSON:
//   bun bench/kbs-v2-only.ts                              embedded parts
//   bash scripts/real-parts.sh bun bench/kbs-v2-only.ts   Postgres, Redis, s3rver
import { benchKbsV2 } from "./kbs-v2.ts";
import { startShelf, UNLIMITED_SYNC } from "./server.ts";
const s = await startShelf(UNLIMITED_SYNC);
try {
  const r = await benchKbsV2(s);
  console.log(JSON.stringify({ db: r.db, manifest: r.manifest, push: r.push }, null, 1));
} finally {
  await s.stop();
}
