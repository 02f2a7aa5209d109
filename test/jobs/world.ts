// The shared app's parts on a stopped clock of the test's own (and, if given, another plan
// table), with their own services and job runner: jobs are moved through their schedules
// by moving that clock, never by waiting.
import { eq, sql } from "drizzle-orm";
import { usageCounters } from "../../src/modules/usage/table.ts";
import { createApp } from "../../src/wiring/app.ts";
import { buildPlans } from "../../src/modules/identity/public.ts";
import { createServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { testContext } from "../helpers/context.ts";

const closers: (() => Promise<void>)[] = [];
/**
 * Closes the worlds made so far. A module is loaded once for the whole run, so each test
 * file that makes worlds calls `afterAll(closeWorlds)` itself.
 */
export async function closeWorlds() {
  for (const close of closers.splice(0)) await close();
}

export const DAY = 86_400_000;

export async function stoppedWorld(startMs?: number, plans?: Parameters<typeof buildPlans>[0]) {
  const { deps } = await testContext();
  const clock = stoppedClock(startMs ?? deps.clock.nowMs());
  const world = { ...deps, clock, plans: plans ? buildPlans(plans) : deps.plans };
  const services = createServices(world);
  closers.push(() => services.close());
  return { deps: world, clock, services, runner: services.runner, app: createApp(services) };
}

/** The start of the UTC month `ahead` months after the one `ms` is in. */
export const monthStartMs = (ms: number, ahead = 0) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + ahead, 1);
};

/** A user's counters, as `{ "total:img_storage": 10, "2026-11:media_bandwidth": 5 }`. */
export async function countersOf(userId: string): Promise<Record<string, number>> {
  const { deps } = await testContext();
  const rows = await deps.db.select().from(usageCounters).where(eq(usageCounters.userId, userId));
  return Object.fromEntries(rows.map((r) => [`${r.period}:${r.dimension}`, r.value]));
}

/** Sets one counter to a value, bypassing the ledger: how a test corrupts or back-dates usage. */
export async function setCounter(userId: string, period: string, dimension: string, value: number) {
  const { deps } = await testContext();
  await deps.db
    .insert(usageCounters)
    .values({ userId, period, dimension, value })
    .onConflictDoUpdate({ target: [usageCounters.userId, usageCounters.period, usageCounters.dimension], set: { value: sql`excluded.value` } });
}
