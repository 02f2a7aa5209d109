// GET /metrics (docs/operators.md, "Metrics"): off and 404 unless the operator turns it on;
// with METRICS_TOKEN it answers that Bearer token only, every other request the 404 of a
// path no route serves; with METRICS_ADDRESS on a listener of its own and not on the api
// port. What it counts is labelled by route template, kind, job and code, never by a path
// or an id, and `promtool check metrics` (Debian's prometheus package) accepts the text;
// promtool checks the alert rules of ops/prometheus and runs their unit tests.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createJobRunner } from "../../jobs/runner.ts";
import type { Job } from "../../src/core/job.ts";
import { createMetrics } from "../../src/infra/metrics.ts";
import { VERSION } from "../../src/infra/version.ts";
import { listenMetrics } from "../../src/modules/system/public.ts";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { call, tempDir, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { findPrometheusTool, promtool } from "../helpers/prometheus.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { png, uploadForm } from "../images/fixtures.ts";
import { newKb } from "../kbs/fixtures.ts";
import { connect, deviceTokens } from "../mcp/helpers.ts";
import { oauthApp } from "../oauth/flow.ts";
import { pushed2, upsert2 } from "../kbs/v2-fixtures.ts";
import { clip, drain, testWorker, uploadVideo } from "../videos/fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const TOKEN = "metrics-token-of-this-test-0123456789";
const shared = await testContext();

/** Told each request the metrics count (after its answer is sent: Elysia's afterResponse). */
const waiters = new Set<{ route: string; resolve: () => void }>();

/** Runs `send` and resolves once the request it sends on `route` has been counted. */
async function counted<T>(route: string, send: () => Promise<T>): Promise<T> {
  const seen = new Promise<void>((resolve) => waiters.add({ route, resolve }));
  const out = await send();
  await seen;
  return out;
}

/** The shared parts with metrics on (the config's `change`), and services and an app of their own. */
function withMetrics(change: Record<string, unknown> = { METRICS_TOKEN: TOKEN }) {
  const real = createMetrics({ version: VERSION });
  const metrics = {
    ...real,
    request(method: string, route: string, status: number, seconds: number) {
      real.request(method, route, status, seconds);
      for (const w of waiters)
        if (w.route === route) {
          waiters.delete(w);
          w.resolve();
        }
    },
  };
  const deps = { ...shared.deps, metrics, config: { ...shared.deps.config, ...change } };
  const services = createServices(deps);
  return { deps, services, app: createApp(services) };
}

const on = withMetrics();
const image = await png();
const bytesOf = () => image;
afterAll(() => on.services.close());

const get = (app: { handle(r: Request): Promise<Response> }, path: string, headers: Record<string, string> = {}) =>
  app.handle(new Request(`http://shelf.test${path}`, { headers }));
const scrape = async (app = on.app) => {
  const res = await get(app, "/metrics", { authorization: `Bearer ${TOKEN}` });
  expect(res.status).toBe(200);
  return res.text();
};
/** The value of one sample line (`name{labels}`), or undefined when the text has none. */
const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe("who may read /metrics", () => {
  test("metrics off (neither METRICS_TOKEN nor METRICS_ADDRESS): /metrics is the 404 of a path no route serves, token or not", async () => {
    const unknown = await get(shared.app, "/no-such-path-here");
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      const res = await get(shared.app, "/metrics", headers);
      expect(res.status).toBe(unknown.status);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ success: false, error: "no such route", code: "NOT_FOUND", meta: { entity: "route" } });
    }
  });

  test("with METRICS_TOKEN: no credential, another token, a token with a suffix, or no Bearer prefix are the same 404; the token is 200 in the text format", async () => {
    for (const authorization of [undefined, "Bearer wrong-token", `Bearer ${TOKEN}x`, TOKEN, `bearer ${TOKEN}`]) {
      const res = await get(on.app, "/metrics", authorization ? { authorization } : {});
      expect(res.status, authorization).toBe(404);
      expect((await res.json()).code).toBe("NOT_FOUND");
    }
    const res = await get(on.app, "/metrics", { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
    const text = await res.text();
    expect(text).toContain(`shelf_info{version="${VERSION}"} 1`);
    expect(text).toContain("process_resident_memory_bytes");
    expect(text).toContain("nodejs_eventloop_lag_seconds");
    expect(text).toMatch(/^shelf_dependency_up\{dependency="database"\} 1$/m);
  });

  test("with METRICS_ADDRESS: its own listener answers /metrics (and 404 elsewhere), the api port's /metrics is 404", async () => {
    const apart = withMetrics({ METRICS_ADDRESS: "127.0.0.1:0" });
    const listener = listenMetrics(apart.deps)!;
    try {
      expect((await get(apart.app, "/metrics")).status).toBe(404);
      const res = await fetch(listener.url);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("shelf_http_requests_total");
      const other = await fetch(new URL("/ready", listener.url));
      expect(other.status).toBe(404);
    } finally {
      listener.stop();
      await apart.services.close();
    }
  });
});

describe("what is counted", () => {
  test("requests by route template and status class (never the path or the id), edge lookups and bytes by kind, upload bytes and refusals by code", async () => {
    const { key } = await makeClient();
    const bytes = await png();
    // As a client sends it over HTTP: framed, with its Content-Length (what is counted).
    const framed = new Request("http://shelf.test/", { method: "POST", body: uploadForm(bytes, { is_public: "true" }) });
    const type = framed.headers.get("content-type")!;
    const body = await framed.arrayBuffer();
    const headers = { "content-type": type, "content-length": String(body.byteLength) };
    const created = await counted("/v1/images", () => call("POST", "/v1/images", { app: on.app, token: key, body, headers }));
    expect(created.status).toBe(201);
    const image = (await created.json()).data as { id: string; url: string };
    expect((await counted("/v1/images/:id", () => call("GET", `/v1/images/${image.id}`, { app: on.app, token: key }))).status).toBe(200);
    expect((await counted("/v1/images/:id", () => call("GET", "/v1/images/nosuchimage", { app: on.app, token: key }))).status).toBe(404);
    const edgePath = new URL(image.url).pathname;
    const first = await counted("/media/*", () => get(on.app, edgePath));
    expect(first.status).toBe(200);
    const size = (await first.arrayBuffer()).byteLength;
    expect((await counted("/media/*", () => get(on.app, edgePath))).status).toBe(200);
    const refused = await counted("/v1/images", () => call("POST", "/v1/images", { app: on.app, token: key, body: uploadForm("not an image at all") }));
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const code = (await refused.json()).code;

    const text = await scrape();
    expect(text).not.toContain(image.id);
    expect(text).not.toContain("nosuchimage");
    expect(sample(text, 'shelf_http_requests_total{method="GET",route="/v1/images/:id",status="2xx"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'shelf_http_requests_total{method="GET",route="/v1/images/:id",status="4xx"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'shelf_http_request_duration_seconds_count{method="GET",route="/v1/images/:id",status="2xx"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'shelf_http_requests_total{method="GET",route="/media/*",status="2xx"}')).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'shelf_edge_lookups_total{kind="image",cache="hit"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'shelf_edge_sent_bytes_total{kind="image"}')).toBeGreaterThanOrEqual(2 * size);
    expect(sample(text, 'shelf_upload_bytes_total{kind="image"}')).toBe(body.byteLength);
    expect(sample(text, `shelf_upload_refusals_total{kind="image",reason="${code}"}`)).toBeGreaterThanOrEqual(1);
  });

  test("on a listening node, the edge's answers that Bun serves without Elysia are counted too, a cached hit among them", async () => {
    const { key } = await makeClient();
    const created = await counted("/v1/images", () =>
      call("POST", "/v1/images", { app: on.app, token: key, body: uploadForm(bytesOf(), { is_public: "true" }) }),
    );
    const url = new URL(((await created.json()).data as { url: string }).url);
    const server = on.app.listen({ port: 0, hostname: "127.0.0.1" }).server!;
    try {
      const series = 'shelf_http_requests_total{method="GET",route="/media/*",status="2xx"}';
      const before = sample(await scrape(), series) ?? 0;
      const hits = sample(await scrape(), 'shelf_edge_lookups_total{kind="image",cache="hit"}') ?? 0;
      for (let i = 0; i < 3; i++) expect((await fetch(`http://127.0.0.1:${server.port}${url.pathname}`)).status).toBe(200);
      const text = await scrape();
      expect(sample(text, series)).toBe(before + 3);
      expect(sample(text, 'shelf_edge_lookups_total{kind="image",cache="hit"}')).toBeGreaterThanOrEqual(hits + 2);
      expect(sample(text, 'shelf_http_request_duration_seconds_count{method="GET",route="/media/*",status="2xx"}')).toBe(before + 3);
    } finally {
      void server.stop(true);
    }
  });

  test("a path no route serves is counted as `unmatched`, not by its path", async () => {
    expect((await counted("unmatched", () => get(on.app, "/v1/no-such-route/abc123secret"))).status).toBe(404);
    const text = await scrape();
    expect(text).not.toContain("abc123secret");
    expect(sample(text, 'shelf_http_requests_total{method="GET",route="unmatched",status="4xx"}')).toBeGreaterThanOrEqual(1);
  });

  test("a job's runs, duration and last success (as its run record says), and its period from its schedule", async () => {
    let fail = false;
    const job: Job = {
      name: "metrics-probe",
      schedule: "*/5 * * * *",
      description: "counts nothing",
      async run() {
        if (fail) throw new Error("asked to fail");
        return "nothing";
      },
    };
    const runner = createJobRunner(on.deps, [job]);
    const run = await runner.runNow(job.name);
    expect(run.outcome).toBe("ok");
    fail = true;
    expect((await runner.runNow(job.name)).outcome).toBe("failed");
    runner.start();
    await runner.stop();
    const text = await scrape();
    expect(sample(text, 'shelf_job_runs_total{job_name="metrics-probe",outcome="ok"}')).toBe(1);
    expect(sample(text, 'shelf_job_runs_total{job_name="metrics-probe",outcome="failed"}')).toBe(1);
    expect(sample(text, 'shelf_job_duration_seconds_count{job_name="metrics-probe"}')).toBe(2);
    expect(sample(text, 'shelf_job_last_success_timestamp_seconds{job_name="metrics-probe"}')).toBe(run.finishedAt!.getTime() / 1000);
    expect(sample(text, 'shelf_job_period_seconds{job_name="metrics-probe"}')).toBe(300);
  });

  test("sync ops by op and result; transcode jobs by kind and result, with their time", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key);
    const upserts = 'shelf_sync_ops_total{op="upsert",result="applied"}';
    const before = sample(await scrape(), upserts) ?? 0;
    const { results } = await pushed2(key, kb.id, [upsert2("notes/a.md", "# a"), upsert2("notes/b.md", "# b")], { app: on.app });
    expect(results.map((r) => r.status)).toEqual(["applied", "applied"]);
    expect(sample(await scrape(), upserts)).toBe(before + 2);

    const ok = 'shelf_transcode_jobs_total{kind="transcode",result="ok"}';
    const transcoded = sample(await scrape(), ok) ?? 0;
    const up = await uploadVideo(key, await clip({ seconds: 1 }));
    expect(up.status).toBe(201);
    const ran = await drain(await testWorker({ deps: on.deps, deliver: (req) => on.app.handle(req) }));
    expect(ran).toBeGreaterThanOrEqual(1);
    const text = await scrape();
    expect(sample(text, ok)).toBeGreaterThanOrEqual(transcoded + 1);
    expect(sample(text, 'shelf_transcode_duration_seconds_count{kind="transcode",result="ok"}')).toBeGreaterThanOrEqual(transcoded + 1);
    expect(sample(text, "shelf_transcode_running")).toBe(0);
  }, 60_000);

  test("MCP tool calls by tool and result: a call that works, and one refused with an error code", async () => {
    const metrics = createMetrics({ version: VERSION });
    const o = await oauthApp((deps) => ({ metrics, config: { ...deps.config, METRICS_TOKEN: TOKEN } }));
    const user = await o.makeUser();
    const client = await connect(o, (await deviceTokens(o, user, { scope: "kb.read" })).access_token);
    try {
      expect((await client.callTool({ name: "list_knowledge_bases", arguments: {} })).isError).toBeFalsy();
      expect((await client.callTool({ name: "read_document", arguments: { id: "nosuchdocument0000000" } })).isError).toBe(true);
      const text = (await metrics.render()).text;
      expect(sample(text, 'shelf_mcp_tool_calls_total{tool="list_knowledge_bases",result="ok"}')).toBe(1);
      expect(sample(text, 'shelf_mcp_tool_calls_total{tool="read_document",result="NOT_FOUND"}')).toBe(1);
      expect(text).not.toContain("nosuchdocument");
    } finally {
      await client.close();
    }
  });

  test("a request refused by its rate tier is counted by tier", async () => {
    const limited = withMetrics({ METRICS_TOKEN: TOKEN, rateLimits: { ...shared.deps.config.rateLimits, read: 1 } });
    try {
      const { key } = await makeClient();
      const statuses = [];
      for (let i = 0; i < 2; i++) statuses.push((await counted("/v1/images", () => call("GET", "/v1/images", { app: limited.app, token: key }))).status);
      expect(statuses).toEqual([200, 429]);
      const text = await scrape(limited.app);
      expect(sample(text, 'shelf_rate_limited_total{tier="read"}')).toBe(1);
    } finally {
      await limited.services.close();
    }
  });
});

describe("checked by promtool", () => {
  const tool = findPrometheusTool("promtool");
  test.skipIf(!tool)("`promtool check metrics` accepts the text of a node that has answered requests", async () => {
    await counted("/health", () => get(on.app, "/health"));
    const { code, output } = await promtool(tool!, ["check", "metrics"], await scrape());
    expect(output).toBe("");
    expect(code).toBe(0);
  });

  test.skipIf(!tool)("the alert rules pass `promtool check rules`, and their unit tests `promtool test rules`", async () => {
    const rules = join(import.meta.dir, "../../ops/prometheus");
    const checked = await promtool(tool!, ["check", "rules", join(rules, "alerts.yml")]);
    expect(checked.output).toContain("SUCCESS: 6 rules found");
    expect(checked.code).toBe(0);
    const tested = await promtool(tool!, ["test", "rules", join(rules, "alerts.test.yml")]);
    expect(tested.output).toContain("SUCCESS");
    expect(tested.code).toBe(0);
  });

  test.skipIf(!tool)(
    "the Grafana dashboard's queries parse (as recording rules, by promtool) and, with the alerts', name only metrics a node exports",
    async () => {
      const dashboard = (await Bun.file(join(import.meta.dir, "../../ops/grafana/shelf.json")).json()) as { panels: { targets?: { expr: string }[] }[] };
      const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
      expect(exprs.length).toBeGreaterThan(20);
      // Grafana's variables as Prometheus would see them once Grafana filled them in.
      const filled = exprs.map((e) => e.replaceAll("$__rate_interval", "5m").replaceAll("$instance", ".*"));
      const dir = tempDir("shelf-dashboard-");
      const file = join(dir, "dashboard-rules.yml");
      const rules = filled.map((expr, i) => `      - record: dashboard_query_${i}\n        expr: ${JSON.stringify(expr)}`).join("\n");
      writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules}\n`);
      const checked = await promtool(tool!, ["check", "rules", file]);
      expect(checked.output).toContain(`SUCCESS: ${exprs.length} rules found`);
      expect(checked.code).toBe(0);

      const alerts = await Bun.file(join(import.meta.dir, "../../ops/prometheus/alerts.yml")).text();
      const text = await scrape();
      const names = new Set(
        [...`${exprs.join("\n")}\n${alerts}`.matchAll(/\b(?:shelf|process|nodejs)_[a-z0-9_]+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, "")),
      );
      const missing = [...names].filter((n) => !text.includes(`# TYPE ${n} `));
      expect(missing).toEqual([]);
    },
  );
});
