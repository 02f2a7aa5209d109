// Benchmarks (j) and (k) alone (bench/kbs.ts), printed as JSON:
//   bun bench/kbs-only.ts                              embedded parts
//   bash scripts/real-parts.sh bun bench/kbs-only.ts   Postgres, Redis, s3rver
import { benchKbs } from "./kbs.ts";
import { startShelf } from "./server.ts";
const s = await startShelf({ RATE_LIMITS: JSON.stringify({ read: 1_000_000, mutation: 1_000_000, upload: 1_000_000 }) });
try {
  const r = await benchKbs(s);
  console.log(JSON.stringify({ db: r.db, manifest: r.manifest, push: r.push }, null, 1));
} finally {
  await s.stop();
}
