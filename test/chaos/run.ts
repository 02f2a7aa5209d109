// `make chaos` (CONTRIBUTING.md): two api nodes and two workers on Postgres, Redis and
// s3rver, under mixed load (three sync v2 clients on one KB, image, audio and video
// uploads, tus uploads resumed from their URL, list and edge reads), while a seeded fault
// schedule kills and restarts nodes and parts. Then, with every part up, the invariants
// (invariants.ts). Prints one summary line; exits 1 when an invariant fails. Loopback only.
//
//   SEED=n make chaos          replays a seed (the faults, their targets and the sync steps)
//   CHAOS_LOAD_S=60 make chaos a shorter load (default 180 s)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { runAdmin } from "../../src/wiring/cli/admin.ts";
import { closeDeps, createDeps } from "../../src/wiring/deps.ts";
import { disposeTestContext } from "../helpers/context.ts";
import { startFleet } from "./fleet.ts";
import { counters, lostWrites, readyAgain, sweep, videoOutcomes } from "./invariants.ts";
import { mediaLanes } from "./media-lanes.ts";
import { type Fault, faultSchedule } from "./schedule.ts";
import { syncLane } from "./sync-lane.ts";
import { Traffic } from "./traffic.ts";

const SEED = process.env.SEED ? Number(process.env.SEED) : Math.floor(Math.random() * 2 ** 31);
const LOAD_MS = Number(process.env.CHAOS_LOAD_S ?? 180) * 1000;
const say = (line: string) => process.stderr.write(`chaos: ${line}\n`);
const started = Date.now();
say(`seed ${SEED}, ${LOAD_MS / 1000} s of load (replay: SEED=${SEED} make chaos)`);

const fleet = await startFleet({
  apis: 2,
  workers: 2,
  nodeEnv: {
    RATE_LIMITS: JSON.stringify({ read: 1_000_000, mutation: 1_000_000, upload: 1_000_000 }),
    // The load is one user per lane: the plan's day counts and token buckets are not under test.
    PLAN_OVERRIDES: JSON.stringify({
      pro: { uploadsPerDay: 1_000_000, uploadsPerMonth: 1_000_000, uploadBurst: -1, transcodeBurst: -1, syncOpBurst: -1 },
    }),
    TRANSCODE_CONCURRENCY: "1",
  },
});
const checkerDir = mkdtempSync(join(tmpdir(), "shelf-chaos-checker-"));
const deps = await createDeps(loadConfig({ ...fleet.env, DATA_DIR: checkerDir }), { migrate: false });
const t = new Traffic(fleet);
say(`fleet up: ${fleet.nodes.map((n) => n.name).join(", ")} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

/** An account on the pro plan and an API key for it. */
async function account(name: string): Promise<{ email: string; key: string }> {
  const email = `chaos-${name}-${SEED}@example.test`;
  const out: string[] = [];
  const admin = (...args: string[]) => runAdmin(deps, args, (l) => out.push(l), say);
  if ((await admin("user", "create", "--email", email, "--password", "chaos password 1", "--plan", "pro")) !== 0) throw new Error(`user create ${email}`);
  if ((await admin("apikey", "create", "--email", email, "--name", "chaos")) !== 0) throw new Error(`apikey create ${email}`);
  return { email, key: out.at(-1)! };
}

const [sync, image, audio, video, tus, reads] = await Promise.all(["sync", "image", "audio", "video", "tus", "reads"].map(account));
// The sync model finds every replaced text among the revisions: keep them all.
const login = await t.send("setup", "/v1/auth/login", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ email: sync!.email, password: "chaos password 1" }),
});
const jwt = JSON.parse(login.text).data.accessToken as string;
const history = await t.send("setup", "/v1/user/me", {
  method: "PATCH",
  headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
  body: JSON.stringify({ docVersioningEnabled: true, docVersioningMax: 500 }),
});
const kb = await t.send("setup", "/v1/kbs", {
  method: "POST",
  headers: { authorization: `Bearer ${sync!.key}`, "content-type": "application/json" },
  body: JSON.stringify({ name: "chaos" }),
});
if (history.status !== 200 || kb.status !== 201) throw new Error(`setup: PATCH /v1/user/me ${history.status}, POST /v1/kbs ${kb.status}`);

// ---- the load and the faults ------------------------------------------------------------

let stopping = false;
const stop = () => stopping;
const lane = syncLane(t, SEED, sync!.key, JSON.parse(kb.text).data.id);
const loadStart = Date.now();
const lanes = [lane.run(stop), ...mediaLanes(t, stop, { image: image!.key, audio: audio!.key, video: video!.key, tus: tus!.key, reads: reads!.key })];

const faults = faultSchedule(SEED, LOAD_MS, { apis: 2, workers: 2 });
const injected: string[] = [];
async function inject(f: Fault): Promise<void> {
  const apis = fleet.nodes.filter((n) => n.role === "api");
  const workers = fleet.nodes.filter((n) => n.role === "worker");
  const down = () => Bun.sleep(f.downMs); // the schedule says how long a part stays down
  const on = () => {
    t.faultOn = true;
    t.changes.notify();
  };
  const off = () => {
    t.faultOn = false;
    t.lastRecovery = Date.now();
    t.changes.notify();
  };
  if (f.kind === "kill-api") {
    const node = apis[f.target]!;
    t.killing = true;
    while (t.pushesInFlight > 0) await t.changes.next(1_000);
    on();
    await fleet.kill(node);
    t.killing = false;
    t.changes.notify();
    await down();
    await fleet.start(node);
  } else if (f.kind === "kill-worker") {
    on();
    const node = workers[f.target]!;
    await fleet.kill(node);
    await down();
    await fleet.start(node);
  } else if (f.kind === "restart-redis") {
    on();
    await fleet.redis.stop();
    await down();
    await fleet.redis.start();
  } else if (f.kind === "restart-postgres") {
    on();
    await fleet.pg.stopFast();
    await down();
    await fleet.pg.start();
  } else {
    on();
    await fleet.s3.stop();
    await down();
    await fleet.s3.start();
  }
  off();
  const name = f.kind === "kill-api" || f.kind === "kill-worker" ? `${f.kind}#${f.target + 1}` : f.kind;
  injected.push(name);
  say(`${((Date.now() - loadStart) / 1000).toFixed(1)} s: ${name}, down ${f.downMs} ms; ${t.requests} requests so far`);
}
for (const f of faults) {
  const wait = loadStart + f.at - Date.now();
  if (wait > 0) await Bun.sleep(wait); // the schedule's offsets are the replayable part of a seed
  await inject(f);
}
const rest = loadStart + LOAD_MS - Date.now();
if (rest > 0) await Bun.sleep(rest);
stopping = true;
await Promise.all(lanes);
say(`load over after ${((Date.now() - loadStart) / 1000).toFixed(0)} s; checking`);

// ---- the invariants, every part up -------------------------------------------------------

const failures: string[] = [];
const fail = (what: string, problems: string[]) => {
  for (const p of problems.slice(0, 20)) failures.push(`${what}: ${p}`);
  if (problems.length > 20) failures.push(`${what}: ... ${problems.length - 20} more`);
};
const ready = await readyAgain(fleet, 30_000);
fail("ready", ready.problems);
await lane.converge();
fail("sync model", lane.problems);
const lostBefore = await lostWrites(t);
const videos = await videoOutcomes(deps, t, 180_000);
fail("videos", [...videos.stuck, ...videos.problems]);
fail("usage verify", await counters(deps));
const swept = await sweep(deps);
fail("sweep", swept.problems);
const lost = [...new Set([...lostBefore, ...(await lostWrites(t))])];
fail("lost", lost);
fail(
  "5xx",
  t.wrong.map((w) => `${w.lane} ${w.what}`),
);
fail(
  "503 with no fault on",
  t.calm503.map((w) => `${w.lane} ${w.what}`),
);
const nodeErrors = fleet.nodes.flatMap((n) =>
  n.log.filter((l) => !l.startsWith("{") || l.includes('"level":"error"')).map((l) => `${n.name} ${l.slice(0, 300)}`),
);

// Every node's warn and error lines, kept for the failure's story.
const logDir = mkdtempSync(join(tmpdir(), `shelf-chaos-${SEED}-logs-`));
for (const n of fleet.nodes) await Bun.write(join(logDir, `${n.name}.log`), `${n.log.join("\n")}\n`);
for (const [what, body] of t.refused) say(`refused: ${what} ${body}`);
for (const f of failures) say(`FAIL ${f}`);
if (nodeErrors.length)
  say(`${nodeErrors.length} error lines in the nodes' logs (not an invariant; all warn and error lines in ${logDir}): ${nodeErrors.slice(0, 5).join("\n  ")}`);
const five = [...t.status].filter(([s]) => s >= 500 && s !== 503).reduce((n, [, c]) => n + c, 0);
const statuses = [...t.status]
  .sort(([a], [b]) => a - b)
  .map(([s, c]) => `${s}:${c}`)
  .join(" ");
say(
  `statuses ${statuses}; cut connections ${t.dropped}; sync steps ${lane.steps}; videos ${videos.videos} (transcode attempts ${videos.attempts}); orphans swept ${swept.deleted}; slowest /ready ${ready.slowestMs} ms`,
);
console.log(
  `chaos: seed ${SEED}, faults ${injected.length} (${injected.join(" ")}), requests ${t.requests}, acknowledged writes ${t.ledger.length + t.syncAcked}, lost ${lost.length}, stuck ${videos.stuck.length}, 5xx other than 503: ${five}, ${(
    (Date.now() - started) / 1000
  ).toFixed(0)} s${failures.length ? `, FAILED (${failures.length})` : ", ok"}`,
);

await closeDeps(deps);
await fleet.close();
rmSync(checkerDir, { recursive: true, force: true });
await disposeTestContext();
process.exit(failures.length ? 1 : 0);
