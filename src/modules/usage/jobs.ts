// The usage module's scheduled jobs, over every kind of stored thing (each module that
// stores objects exports its StoredKind; the job registry, jobs/index.ts, hands them in):
//   - orphan-sweep: objects no row names, unfinished multipart uploads, rows whose object
//     is missing (orphan-sweep.ts);
//   - usage-verify: every all-time usage counter against the sum of its rows. The daily
//     run only reports (counts and a log line per counter); repairing is an operator's
//     decision, `shelf admin usage verify --fix`.
import { type Job, result } from "../../infra/job.ts";
import { sweepOrphans, uploadCutoffMs } from "./orphan-sweep.ts";
import { type StoredKind, verifyUsage } from "./verify.ts";

const HOUR_MS = 3_600_000;

export const orphanSweepJob = (kinds: readonly StoredKind[]): Job => ({
  name: "orphan-sweep",
  schedule: "35 2 * * *",
  description:
    "deletes stored objects no row names once older than ORPHAN_SWEEP_AFTER_H hours and aborts multipart uploads left unfinished as long; counts and logs rows whose object is missing",
  async run(ctx) {
    const { config } = ctx.deps;
    return result(
      await sweepOrphans(ctx, kinds),
      (n) =>
        `looked at ${n.objects} objects: deleted ${n.deleted} orphans (${n.deletedBytes} bytes)${n.deleteFailed ? `, ${n.deleteFailed} failed to delete` : ""}, left ${n.young} younger than ${config.ORPHAN_SWEEP_AFTER_H} h; aborted ${n.uploadsAborted} unfinished multipart uploads${n.uploadAbortFailed ? ` (${n.uploadAbortFailed} failed)` : ""}${n.uploadListFailed ? ` (not listed under ${n.uploadListFailed} prefixes)` : ""}, left ${n.uploadsYoung} younger than ${uploadCutoffMs(config) / HOUR_MS} h; ${n.missing} rows name a missing object`,
    );
  },
});

export const usageVerifyJob = (kinds: readonly StoredKind[]): Job => ({
  name: "usage-verify",
  schedule: "50 3 * * *",
  description: "compares every user's storage and count counters with the sum of their rows and reports the differences",
  async run({ deps, log, signal }) {
    const { users, differences } = await verifyUsage(deps.db, kinds, { signal });
    for (const d of differences) log.warn("usage counter differs from its rows", { ...d });
    return result({ users, differences: differences.length }, (c) => `checked ${c.users} users: ${c.differences} counters differ from their rows`);
  },
});
