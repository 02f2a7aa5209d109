// The node's metrics in the Prometheus text format (docs/operators.md, "Metrics"), through
// prom-client with a registry of this node's own (a process may hold several apps: the
// tests build many). Every label is a bounded set: route templates, media kinds, job and
// tool names, error codes; never a user, an id or a path. None is named `job` or
// `instance`, which Prometheus gives every target (a job's name is `job_name`).
//
// Off (neither METRICS_TOKEN nor METRICS_ADDRESS set), `noMetrics` stands in: every hook
// is an empty function, so the places that count pay one call and nothing else.
import { Counter, collectDefaultMetrics, Gauge, Histogram, type Metric, Registry } from "prom-client";

/** What the edge counts for one media kind, bound once (a cached hit takes microseconds). */
interface EdgeMeter {
  /** The object's record was in this node's cache. */
  hit(): void;
  /** It had to be looked up. */
  miss(): void;
  /** Bytes of a body sent. */
  sent(bytes: number): void;
}

/** A dependency's last probe, as readiness saw it. */
interface DependencyProbe {
  ok: boolean;
  latencyMs: number;
}

export interface Metrics {
  readonly enabled: boolean;
  /** One answered request: `route` the template it matched (or "unmatched"), never its path. */
  request(method: string, route: string, status: number, seconds: number): void;
  /** The same, bound to one route template (a handler that serves one). */
  route(route: string): RouteMeter;
  edge(kind: string): EdgeMeter;
  /** Bytes of an accepted upload body, and a refused one by its error code. */
  upload(kind: string, bytes: number): void;
  uploadRefused(kind: string, reason: string): void;
  /** A request refused by a rate tier, and a take refused by a user's token bucket. */
  rateLimited(tier: string): void;
  bucketRefused(bucket: string): void;
  /** A transcode job began; the function returned ends it with its result. */
  transcodeStarted(kind: string): (result: "ok" | "failed" | "lease_lost") => void;
  /** Where the queue's depth is read at each scrape (the worker role sets it). */
  transcodeQueue(read: () => Promise<{ queued: number; running: number }>): void;
  /** A scheduled job's run, and its period (seconds between two scheduled runs). */
  jobRun(job: string, outcome: string, seconds: number): void;
  jobSucceeded(job: string, atMs: number): void;
  jobPeriod(job: string, seconds: number): void;
  syncOp(op: string, result: string): void;
  mcpToolCall(tool: string, result: string): void;
  /** A request answered 503 because a part was away (database, kv, storage). */
  dependencyError(dependency: string): void;
  /** Read at each scrape: the parts' probes (readiness's checks). */
  dependencies(read: () => Promise<Record<string, DependencyProbe>>): void;
  /** The text a scrape answers. */
  render(): Promise<{ contentType: string; text: string }>;
}

const noop = () => {};
const noEdge: EdgeMeter = { hit: noop, miss: noop, sent: noop };
const noTranscode = () => noop;

export const noMetrics: Metrics = {
  enabled: false,
  request: noop,
  route: () => noop,
  edge: () => noEdge,
  upload: noop,
  uploadRefused: noop,
  rateLimited: noop,
  bucketRefused: noop,
  transcodeStarted: noTranscode,
  transcodeQueue: noop,
  jobRun: noop,
  jobSucceeded: noop,
  jobPeriod: noop,
  syncOp: noop,
  mcpToolCall: noop,
  dependencyError: noop,
  dependencies: noop,
  render: async () => ({ contentType: "text/plain; version=0.0.4; charset=utf-8", text: "" }),
};

/** Seconds: from a cached edge hit (tens of microseconds) to a large upload. */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds: a scheduled job or a transcode, from nothing to do to an hour of video. */
const WORK_BUCKETS = [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];

/** One route, method and status class's requests: counts per bucket (not cumulative), their sum and count. */
interface RequestTally {
  labels: Record<string, string>;
  count: number;
  sum: number;
  buckets: Float64Array;
}

/** One line of a metric's text: `metricName` for a histogram's _bucket, _sum and _count. */
type Sample = { metricName?: string; labels: Record<string, string | number>; value: number };

/** A tally as a histogram's samples: cumulative buckets up to +Inf, its sum and count. */
function histogramValues(t: RequestTally): Sample[] {
  const name = "shelf_http_request_duration_seconds";
  let seen = 0;
  const out: Sample[] = REQUEST_BUCKETS.map((le, i) => {
    seen += t.buckets[i]!;
    return { metricName: `${name}_bucket`, labels: { ...t.labels, le }, value: seen };
  });
  out.push({ metricName: `${name}_bucket`, labels: { ...t.labels, le: "+Inf" }, value: t.count });
  out.push({ metricName: `${name}_sum`, labels: t.labels, value: t.sum });
  out.push({ metricName: `${name}_count`, labels: t.labels, value: t.count });
  return out;
}

/** A metric whose samples `values` reads at scrape time, in the registry as any other. */
function hotMetric(registry: Registry, name: string, help: string, type: "counter" | "histogram", values: () => Sample[]) {
  const metric = { name, help, type, aggregator: "sum", get: async () => ({ name, help, type, aggregator: "sum", values: values() }) };
  registry.registerMetric(metric as unknown as Metric);
}

/** The methods a label may name; any other is counted as `other` (a client may send any word). */
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Counts one request of a route: its method, status and seconds. */
type RouteMeter = (method: string, status: number, seconds: number) => void;

export function createMetrics(opts: { version: string; role?: string }): Metrics {
  const registry = new Registry();
  const registers = [registry];
  // Process memory, CPU, handles, GC and event-loop delay (nodejs_eventloop_lag_*).
  collectDefaultMetrics({ register: registry });
  // Gauges that prom-client names as counters: promtool refuses them (a counter's suffix).
  for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"]) registry.removeSingleMetric(name);

  new Gauge({ name: "shelf_info", help: "This node's version (always 1)", labelNames: ["version"], registers }).set({ version: opts.version }, 1);

  // The two hot paths (every request, every edge hit) add to plain numbers, read into the
  // text at scrape time: a prom-client child hashes its labels on every inc or observe,
  // a microsecond a request, a third of a cached edge hit's own time.
  const requests: RequestTally[] = [];
  hotMetric(registry, "shelf_http_requests_total", "Requests answered, by route template and status class", "counter", () =>
    requests.map((r) => ({ labels: r.labels, value: r.count })),
  );
  hotMetric(
    registry,
    "shelf_http_request_duration_seconds",
    "Time from a request's arrival to its answer (a streamed body may still be sending)",
    "histogram",
    () => requests.flatMap(histogramValues),
  );
  const edgeTallies = new Map<string, { hit: number; miss: number; bytes: number }>();
  hotMetric(
    registry,
    "shelf_edge_lookups_total",
    "Media edge requests that named an object, by kind and whether its record was cached on this node",
    "counter",
    () =>
      [...edgeTallies].flatMap(([kind, t]) => [
        { labels: { kind, cache: "hit" }, value: t.hit },
        { labels: { kind, cache: "miss" }, value: t.miss },
      ]),
  );
  hotMetric(registry, "shelf_edge_sent_bytes_total", "Body bytes the media edge sent, by kind", "counter", () =>
    [...edgeTallies].map(([kind, t]) => ({ labels: { kind }, value: t.bytes })),
  );
  const uploadBytes = new Counter({ name: "shelf_upload_bytes_total", help: "Bytes of accepted upload bodies, by kind", labelNames: ["kind"], registers });
  const uploadRefusals = new Counter({
    name: "shelf_upload_refusals_total",
    help: "Upload requests refused, by kind and error code",
    labelNames: ["kind", "reason"],
    registers,
  });
  const rateLimited = new Counter({ name: "shelf_rate_limited_total", help: "Requests refused by a rate tier", labelNames: ["tier"], registers });
  const bucketRefused = new Counter({ name: "shelf_bucket_refusals_total", help: "Takes refused by a user's token bucket", labelNames: ["bucket"], registers });
  const transcodes = new Counter({
    name: "shelf_transcode_jobs_total",
    help: "Transcode jobs this node ran, by kind and result",
    labelNames: ["kind", "result"],
    registers,
  });
  const transcodeSeconds = new Histogram({
    name: "shelf_transcode_duration_seconds",
    help: "Time of transcode jobs this node ran, by kind and result",
    labelNames: ["kind", "result"],
    buckets: WORK_BUCKETS,
    registers,
  });
  const transcodeRunning = new Gauge({ name: "shelf_transcode_running", help: "Transcode jobs running on this node", registers });
  let readQueue: (() => Promise<{ queued: number; running: number }>) | undefined;
  new Gauge({
    name: "shelf_transcode_queue_depth",
    help: "Transcode jobs waiting or running, fleet-wide (reported by worker nodes)",
    labelNames: ["state"],
    registers,
    async collect() {
      this.reset();
      if (!readQueue) return;
      const depth = await readQueue().catch(() => undefined);
      if (!depth) return;
      this.set({ state: "queued" }, depth.queued);
      this.set({ state: "running" }, depth.running);
    },
  });
  const jobRuns = new Counter({
    name: "shelf_job_runs_total",
    help: "Scheduled job runs on this node, by outcome",
    labelNames: ["job_name", "outcome"],
    registers,
  });
  const jobSeconds = new Histogram({
    name: "shelf_job_duration_seconds",
    help: "Time of scheduled job runs on this node",
    labelNames: ["job_name"],
    buckets: WORK_BUCKETS,
    registers,
  });
  const jobSuccess = new Gauge({
    name: "shelf_job_last_success_timestamp_seconds",
    help: "When a job last finished well (any node's run, as this node last read or made it)",
    labelNames: ["job_name"],
    registers,
  });
  const jobPeriod = new Gauge({ name: "shelf_job_period_seconds", help: "Seconds between two scheduled runs of a job", labelNames: ["job_name"], registers });
  const syncOps = new Counter({ name: "shelf_sync_ops_total", help: "Sync ops, by op and result", labelNames: ["op", "result"], registers });
  const mcpCalls = new Counter({ name: "shelf_mcp_tool_calls_total", help: "MCP tool calls, by tool and result", labelNames: ["tool", "result"], registers });
  const dependencyErrors = new Counter({
    name: "shelf_dependency_errors_total",
    help: "Requests answered 503 because a part was unavailable",
    labelNames: ["dependency"],
    registers,
  });
  let readDependencies: (() => Promise<Record<string, DependencyProbe>>) | undefined;
  let probes: Record<string, DependencyProbe> = {};
  new Gauge({
    name: "shelf_dependency_up",
    help: "Whether a part answered its last readiness probe (1) or not (0)",
    labelNames: ["dependency"],
    registers,
    collect() {
      this.reset();
      for (const [name, p] of Object.entries(probes)) this.set({ dependency: name }, p.ok ? 1 : 0);
    },
  });
  new Gauge({
    name: "shelf_dependency_probe_seconds",
    help: "Latency of a part's last readiness probe",
    labelNames: ["dependency"],
    registers,
    collect() {
      this.reset();
      for (const [name, p] of Object.entries(probes)) this.set({ dependency: name }, p.latencyMs / 1000);
    },
  });

  const edgeMeters = new Map<string, EdgeMeter>();
  const routeMeters = new Map<string, RouteMeter>();

  /** The requests of one route template, each method and status class's tally found by a number (no string built per request). */
  function routeMeter(route: string): RouteMeter {
    let meter = routeMeters.get(route);
    if (meter) return meter;
    const tallies = new Map<number, RequestTally>();
    meter = (method, status, seconds) => {
      const m = METHODS.indexOf(method);
      const c = status >= 500 ? 5 : status >= 400 ? 4 : status >= 300 ? 3 : status >= 200 ? 2 : 1;
      const key = m * 8 + c;
      let tally = tallies.get(key);
      if (!tally) {
        tally = { labels: { method: m < 0 ? "other" : method, route, status: `${c}xx` }, count: 0, sum: 0, buckets: new Float64Array(REQUEST_BUCKETS.length) };
        tallies.set(key, tally);
        requests.push(tally);
      }
      tally.count++;
      tally.sum += seconds;
      let i = 0;
      while (i < REQUEST_BUCKETS.length && seconds > REQUEST_BUCKETS[i]!) i++;
      if (i < REQUEST_BUCKETS.length) tally.buckets[i]!++;
    };
    routeMeters.set(route, meter);
    return meter;
  }

  return {
    enabled: true,
    request(method, route, status, seconds) {
      routeMeter(route)(method, status, seconds);
    },
    route: routeMeter,
    edge(kind) {
      let meter = edgeMeters.get(kind);
      if (!meter) {
        const t = { hit: 0, miss: 0, bytes: 0 };
        edgeTallies.set(kind, t);
        meter = {
          hit: () => void t.hit++,
          miss: () => void t.miss++,
          sent: (n) => void (t.bytes += n),
        };
        edgeMeters.set(kind, meter);
      }
      return meter;
    },
    upload: (kind, bytes) => uploadBytes.inc({ kind }, bytes),
    uploadRefused: (kind, reason) => uploadRefusals.inc({ kind, reason }),
    rateLimited: (tier) => rateLimited.inc({ tier }),
    bucketRefused: (bucket) => bucketRefused.inc({ bucket }),
    transcodeStarted(kind) {
      const began = performance.now();
      transcodeRunning.inc();
      return (result) => {
        transcodeRunning.dec();
        transcodes.inc({ kind, result });
        transcodeSeconds.observe({ kind, result }, (performance.now() - began) / 1000);
      };
    },
    transcodeQueue(read) {
      readQueue = read;
    },
    jobRun(job, outcome, seconds) {
      jobRuns.inc({ job_name: job, outcome });
      jobSeconds.observe({ job_name: job }, seconds);
    },
    jobSucceeded: (job, atMs) => jobSuccess.set({ job_name: job }, atMs / 1000),
    jobPeriod: (job, seconds) => jobPeriod.set({ job_name: job }, seconds),
    syncOp: (op, result) => syncOps.inc({ op, result }),
    mcpToolCall: (tool, result) => mcpCalls.inc({ tool, result }),
    dependencyError: (dependency) => dependencyErrors.inc({ dependency }),
    dependencies(read) {
      readDependencies = read;
    },
    async render() {
      // Probed once per scrape, before the gauges that show it are collected.
      probes = readDependencies ? await readDependencies().catch(() => ({})) : {};
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}
