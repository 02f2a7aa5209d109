// What must hold once every part is up again: nothing acknowledged lost, every video ready
// or failed with a reason (transcoded once), counters equal rows, no orphan objects after
// the sweep, and every api node ready again within seconds. Each check returns its problems.
import { sql } from "drizzle-orm";
import { allJobs, storedKinds } from "../../jobs/index.ts";
import { createJobRunner } from "../../jobs/runner.ts";
import { verifyUsage } from "../../src/modules/usage/public.ts";
import type { Deps } from "../../src/wiring/deps.ts";
import type { Fleet } from "./fleet.ts";
import type { Traffic } from "./traffic.ts";

const PATH = { image: "/v1/images", audio: "/v1/audio", video: "/v1/videos", tus: "/v1/audio" } as const;

/** Every acknowledged upload answers 200, and a public image's bytes are served. */
export async function lostWrites(t: Traffic): Promise<string[]> {
  const lost: string[] = [];
  for (const a of t.ledger) {
    const res = await t.send("check", `${PATH[a.kind]}/${a.id}`, { headers: { authorization: `Bearer ${a.key}` }, retry: true });
    if (res.status !== 200) lost.push(`${a.kind} ${a.id}: ${res.status} ${res.text.slice(0, 200)}`);
    if (a.edge) {
      const edge = await t.send("check", a.edge, { retry: true });
      if (edge.status !== 200) lost.push(`image ${a.id} at ${a.edge}: ${edge.status}`);
    }
  }
  return lost;
}

/** Waits (bounded) for every video to leave processing; then each is ready or failed with a reason, with one transcode job. */
export async function videoOutcomes(
  deps: Deps,
  t: Traffic,
  deadlineMs: number,
): Promise<{ stuck: string[]; problems: string[]; attempts: number; videos: number }> {
  const until = Date.now() + deadlineMs;
  type Row = { id: string; status: string; failure_reason: string | null };
  let rows: Row[] = [];
  for (;;) {
    rows = (await deps.db.execute(sql`select id, status, failure_reason from videos`)) as unknown as Row[];
    if (!rows.some((r) => r.status === "processing") || Date.now() > until) break;
    await t.changes.next(1_000); // the workers give no event the checker can wait on
  }
  const stuck = rows.filter((r) => r.status === "processing").map((r) => `${r.id} still processing`);
  const problems = rows.filter((r) => r.status === "failed" && !r.failure_reason).map((r) => `${r.id} failed without a reason`);
  type Job = { video_id: string; jobs: number; done: number; attempts: number };
  const jobs = (await deps.db.execute(
    sql`select video_id, count(*)::int as jobs, count(*) filter (where state = 'done')::int as done, sum(attempts)::int as attempts
        from transcode_jobs where kind = 'transcode' group by video_id`,
  )) as unknown as Job[];
  const byVideo = new Map(jobs.map((j) => [j.video_id, j]));
  for (const r of rows.filter((r) => r.status === "ready")) {
    const j = byVideo.get(r.id);
    if (j?.done !== 1) problems.push(`${r.id} ready with ${j?.done ?? 0} finished transcode jobs (${j?.jobs ?? 0} in all)`);
  }
  return { stuck, problems, attempts: jobs.reduce((s, j) => s + j.attempts, 0), videos: rows.length };
}

/** usage verify: every counter equals the sum of its rows. */
export async function counters(deps: Deps): Promise<string[]> {
  const { differences } = await verifyUsage(deps.db, storedKinds);
  return differences.map((d) => `${d.userId} ${d.dimension}: counter ${d.counter}, rows ${d.rows}`);
}

/**
 * The orphan sweep with its clock a day and more ahead (every object is past the cutoff):
 * no row may name a missing object, and a second run finds nothing left to delete.
 */
export async function sweep(deps: Deps): Promise<{ problems: string[]; deleted: number }> {
  const ahead = (ORPHAN_HOURS_AHEAD: number) => {
    const ms = ORPHAN_HOURS_AHEAD * 3_600_000;
    return { ...deps.clock, now: () => new Date(Date.now() + ms), nowMs: () => Date.now() + ms };
  };
  const job = allJobs.find((j) => j.name === "orphan-sweep")!;
  const runner = createJobRunner({ ...deps, clock: ahead(deps.config.ORPHAN_SWEEP_AFTER_H + 1) }, [job]);
  const first = await runner.runNow(job.name);
  const second = await runner.runNow(job.name);
  const problems: string[] = [];
  if (first.outcome !== "ok") problems.push(`orphan sweep: ${first.outcome} ${first.error ?? ""}`);
  if (first.counts?.missing) problems.push(`orphan sweep: ${first.counts.missing} rows name a missing object`);
  if (second.counts?.deleted) problems.push(`orphan sweep: a second run deleted ${second.counts.deleted} more objects`);
  return { problems, deleted: Number(first.counts?.deleted ?? 0) };
}

/** Each api node answers /ready 200 within `ms` of every part being up; the slowest time. */
export async function readyAgain(fleet: Fleet, ms: number): Promise<{ problems: string[]; slowestMs: number }> {
  const start = Date.now();
  const problems: string[] = [];
  let slowestMs = 0;
  for (const n of fleet.nodes.filter((n) => n.role === "api")) {
    for (;;) {
      const status = await fetch(`${n.base}/ready`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) break;
      if (Date.now() - start > ms) {
        problems.push(`${n.name} /ready still ${status} after ${ms} ms`);
        break;
      }
      await Bun.sleep(100); // /ready is what says it is back: asked again shortly
    }
    slowestMs = Math.max(slowestMs, Date.now() - start);
  }
  return { problems, slowestMs };
}
