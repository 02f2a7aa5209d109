// Real parts only: a real Prometheus (Debian's package) scrapes a fleet of two api nodes
// (METRICS_TOKEN, on their api port) and a worker (METRICS_ADDRESS, a listener of its own)
// sharing this test's Postgres, Redis and store, and reads the series back with queries:
// the requests sent moved the counter on both api nodes, a job's last success is set (on
// the node that ran it, and on the worker, which read it from the run records as it
// started), and the worker reports the transcode queue's depth. Every node's text passes
// `promtool check metrics`.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ApiProcess, startApiProcess } from "../helpers/api-process.ts";
import { tempDir, testEnv } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { findPrometheusTool, promtool } from "../helpers/prometheus.ts";

/** Starting three nodes and Prometheus on a busy 2-core machine, then scrapes a second apart. */
setDefaultTimeout(120_000);

const realParts = !!(process.env.DATABASE_URL && process.env.REDIS_URL && process.env.S3_BUCKET);
const prometheus = realParts ? findPrometheusTool("prometheus") : undefined;
const promtoolPath = realParts ? findPrometheusTool("promtool") : undefined;
if (!realParts) console.warn("metrics fleet test skipped: real parts only (scripts/real-parts.sh)");

const TOKEN = "fleet-metrics-token-0123456789abcdef";

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

interface Spawned {
  child: ReturnType<typeof Bun.spawn>;
  stop(): Promise<number>;
}

/** Spawns `cmd` and resolves once a line of its output (stdout or stderr) matches `ready`. */
async function spawnUntil(cmd: string[], env: Record<string, string | undefined>, ready: RegExp, what: string): Promise<Spawned> {
  const child = Bun.spawn(cmd, { env, stdout: "pipe", stderr: "pipe" });
  let seen = "";
  const found = Promise.withResolvers<void>();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    // Kept reading to the end so that no pipe fills and blocks the process.
    for await (const chunk of stream) {
      seen += decoder.decode(chunk, { stream: true });
      if (ready.test(seen)) found.resolve();
      else if (seen.length > 1_000_000) seen = seen.slice(-100_000);
    }
  };
  const drained = Promise.all([drain(child.stdout as ReadableStream<Uint8Array>), drain(child.stderr as ReadableStream<Uint8Array>)]);
  void child.exited.then((code) => found.reject(new Error(`${what} exited (${code}) before it was ready: ${seen.slice(-2000)}`)));
  await found.promise;
  return {
    child,
    async stop() {
      child.kill("SIGTERM");
      const code = await child.exited;
      await drained;
      return code;
    },
  };
}

const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
});

/** An instant query's result: [labels, value] for each series. */
async function query(base: string, promql: string): Promise<{ metric: Record<string, string>; value: number }[]> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  expect(body.status).toBe("success");
  return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
}

/**
 * Asks Prometheus again until `done` holds for the answer (each scrape is a second apart,
 * so the answer changes only as scrapes land), within `boundMs`; the last answer otherwise.
 */
async function until(base: string, promql: string, done: (r: Awaited<ReturnType<typeof query>>) => boolean, boundMs = 60_000) {
  const deadline = performance.now() + boundMs;
  for (;;) {
    const r = await query(base, promql);
    if (done(r) || performance.now() > deadline) return r;
    await Bun.sleep(250);
  }
}

describe("a fleet scraped by Prometheus", () => {
  test.skipIf(!prometheus)("requests moved on both api nodes, a job's last success set, the worker's queue depth seen", async () => {
    const admin = await makeUser({ isAdmin: true });
    const apis: ApiProcess[] = [];
    for (let i = 0; i < 2; i++) {
      const api = await startApiProcess({ METRICS_TOKEN: TOKEN });
      stops.push(() => api.stop());
      apis.push(api);
    }
    // A job run on the first api node before the worker starts: the worker reads its time from the run records.
    const run = await fetch(`${apis[0]!.base}/v1/admin/jobs/prune-job-runs/run`, { method: "POST", headers: { authorization: `Bearer ${admin.jwt}` } });
    expect(run.status).toBe(200);
    const finishedAt = Date.parse(((await run.json()) as { data: { finishedAt: string } }).data.finishedAt);

    const workerAddress = `127.0.0.1:${freePort()}`;
    const worker = await spawnUntil(
      ["bun", "src/main.ts", "serve", "--role", "worker"],
      testEnv({ LOG_LEVEL: "info", MIGRATE_ON_START: "false", METRICS_ADDRESS: workerAddress, METRICS_TOKEN: TOKEN }),
      /"msg":"transcode worker started"/,
      "the worker",
    );
    stops.push(() => worker.stop());

    const dir = tempDir("shelf-prometheus-");
    const targets = [...apis.map((a) => new URL(a.base).host), workerAddress];
    writeFileSync(
      join(dir, "prometheus.yml"),
      JSON.stringify({
        global: { scrape_interval: "1s", scrape_timeout: "900ms" },
        scrape_configs: [
          { job_name: "shelf", authorization: { credentials: TOKEN }, static_configs: [{ targets: targets.slice(0, 2), labels: { role: "api" } }] },
          { job_name: "shelf-worker", authorization: { credentials: TOKEN }, static_configs: [{ targets: targets.slice(2), labels: { role: "worker" } }] },
        ],
      }),
    );
    const promBase = `http://127.0.0.1:${freePort()}`;
    const prom = await spawnUntil(
      [
        prometheus!,
        `--config.file=${join(dir, "prometheus.yml")}`,
        `--storage.tsdb.path=${join(dir, "data")}`,
        `--web.listen-address=${new URL(promBase).host}`,
      ],
      { PATH: process.env.PATH },
      /Server is ready to receive web requests/,
      "prometheus",
    );
    stops.push(() => prom.stop());

    // Every target up: each node answered its scrape with the token.
    const up = await until(promBase, "up", (r) => r.length === 3 && r.every((s) => s.value === 1));
    expect(up.map((s) => `${s.metric.job} ${s.value}`).sort()).toEqual(["shelf 1", "shelf 1", "shelf-worker 1"]);

    // Requests sent to each api node, then seen in the counter of each.
    for (const api of apis) for (let i = 0; i < 5; i++) expect((await fetch(`${api.base}/health`)).status).toBe(200);
    const health = 'shelf_http_requests_total{route="/health",method="GET",status="2xx"}';
    const moved = await until(promBase, health, (r) => r.length === 2 && r.every((s) => s.value >= 5));
    expect(moved.map((s) => s.value).every((v) => v >= 5)).toBe(true);
    expect(moved.length).toBe(2);

    const last = await until(promBase, 'shelf_job_last_success_timestamp_seconds{job_name="prune-job-runs"}', (r) => r.length >= 2);
    const byRole = Object.fromEntries(last.map((s) => [s.metric.role, s.value]));
    expect(byRole.api).toBeGreaterThanOrEqual(finishedAt / 1000 - 0.001);
    expect(byRole.worker).toBeGreaterThanOrEqual(finishedAt / 1000 - 0.001);
    const period = await until(promBase, 'shelf_job_period_seconds{job_name="prune-job-runs"}', (r) => r.length === 1);
    expect(period[0]!.value).toBe(86_400);

    const depth = await until(promBase, "shelf_transcode_queue_depth", (r) => r.length === 2);
    expect(depth.map((s) => `${s.metric.role} ${s.metric.state}`).sort()).toEqual(["worker queued", "worker running"]);
    for (const s of depth) expect(s.value).toBeGreaterThanOrEqual(0);

    // The fleet's view an alert reads: no node is short of a part.
    const parts = await until(promBase, "min by (dependency) (shelf_dependency_up)", (r) => r.length === 3);
    expect(parts.map((s) => `${s.metric.dependency} ${s.value}`).sort()).toEqual(["database 1", "kv 1", "storage 1"]);

    // Each node's own text, an api node's and the worker's, passes promtool's check.
    for (const target of targets) {
      const res = await fetch(`http://${target}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(await promtool(promtoolPath!, ["check", "metrics"], await res.text())).toEqual({ code: 0, output: "" });
    }
  });
});
