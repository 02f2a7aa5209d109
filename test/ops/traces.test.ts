// Traces (docs/operators.md, "Traces"): with OTEL_EXPORTER_OTLP_ENDPOINT set, a request, a
// scheduled job's run and a transcode each reach the collector as an OTLP span with its id
// (the request's x-request-id, the run's id, the video's); unset, nothing is recorded and
// OpenTelemetry is not loaded. The collector here is a listening server that keeps what
// OTLP/HTTP posts to /v1/traces (JSON, the exporter's default).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createJobRunner } from "../../jobs/runner.ts";
import type { Job } from "../../src/core/job.ts";
import { createTracing, type SpanRecord } from "../../src/infra/tracing.ts";
import { VERSION } from "../../src/infra/version.ts";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { call, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { png, uploadForm } from "../images/fixtures.ts";
import { clip, drain, testWorker, uploadVideo } from "../videos/fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

interface OtlpSpan {
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  status?: { code?: number; message?: string };
}

const received: { service: string; span: OtlpSpan }[] = [];
const collector = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(request) {
    if (request.method !== "POST" || new URL(request.url).pathname !== "/v1/traces") return new Response(null, { status: 404 });
    const body = (await request.json()) as {
      resourceSpans: { resource: { attributes: OtlpSpan["attributes"] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
    };
    for (const rs of body.resourceSpans) {
      const service = rs.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue as string;
      for (const ss of rs.scopeSpans) for (const span of ss.spans) received.push({ service, span });
    }
    return Response.json({});
  },
});

const shared = await testContext();
const tracing = await createTracing({
  endpoint: `http://127.0.0.1:${collector.port}`,
  serviceName: "shelf-traces-test",
  version: VERSION,
  log: shared.deps.log,
});

/** Told each span recorded (requests' spans are recorded after the answer is sent). */
const waiters = new Set<{ match: (s: SpanRecord) => boolean; resolve: () => void }>();
const recorded = (match: (s: SpanRecord) => boolean) => new Promise<void>((resolve) => waiters.add({ match, resolve }));
const watched = {
  ...tracing,
  record(s: SpanRecord) {
    tracing.record(s);
    for (const w of waiters)
      if (w.match(s)) {
        waiters.delete(w);
        w.resolve();
      }
  },
};
const deps = { ...shared.deps, tracing: watched };
const services = createServices(deps);
const app = createApp(services);

afterAll(async () => {
  await services.close();
  await tracing.close();
  void collector.stop(true);
});

const attr = (span: OtlpSpan, key: string) => {
  const v = span.attributes.find((a) => a.key === key)?.value;
  return v === undefined ? undefined : (v.stringValue ?? (v.intValue === undefined ? v.boolValue : Number(v.intValue)));
};
/** The spans the collector got whose attribute `key` is `value`. */
const spansWith = (key: string, value: unknown) => received.filter((r) => attr(r.span, key) === value);

describe("spans sent to an OTLP collector", () => {
  test("a request: its method and route template, status, the request id it was answered with, from its arrival to its answer", async () => {
    const { key } = await makeClient();
    const created = await call("POST", "/v1/images", { app, token: key, body: uploadForm(await png()) });
    const image = (await created.json()).data as { id: string };
    const requestId = `trace-${crypto.randomUUID()}`;
    const seen = recorded((s) => s.attributes["shelf.request_id"] === requestId);
    const before = Date.now();
    const res = await call("GET", `/v1/images/${image.id}`, { app, token: key, headers: { "x-request-id": requestId } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe(requestId);
    await seen;
    await tracing.flush();
    const [got] = spansWith("shelf.request_id", requestId);
    expect(got!.service).toBe("shelf-traces-test");
    expect(got!.span.name).toBe("GET /v1/images/:id");
    expect(got!.span.kind).toBe(2); // SERVER
    expect(attr(got!.span, "http.route")).toBe("/v1/images/:id");
    expect(attr(got!.span, "http.response.status_code")).toBe(200);
    expect(JSON.stringify(got!.span)).not.toContain(image.id);
    const start = Number(BigInt(got!.span.startTimeUnixNano) / 1_000_000n);
    expect(start).toBeGreaterThanOrEqual(before - 5);
    expect(BigInt(got!.span.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(got!.span.startTimeUnixNano));
  });

  test("a job's run, with its run id and outcome; a failed one as an error", async () => {
    let fail = false;
    const job: Job = {
      name: "trace-probe",
      schedule: "0 * * * *",
      description: "does nothing",
      async run() {
        if (fail) throw new Error("asked to fail");
        return "nothing";
      },
    };
    const runner = createJobRunner(deps, [job]);
    const ok = await runner.runNow(job.name);
    fail = true;
    const failed = await runner.runNow(job.name);
    await tracing.flush();
    const [okSpan] = spansWith("shelf.job_run_id", ok.id);
    expect(okSpan!.span.name).toBe("job trace-probe");
    expect(attr(okSpan!.span, "shelf.outcome")).toBe("ok");
    const [failedSpan] = spansWith("shelf.job_run_id", failed.id);
    expect(attr(failedSpan!.span, "shelf.outcome")).toBe("failed");
    expect(failedSpan!.span.status).toMatchObject({ code: 2, message: "asked to fail" });
  });

  test("a transcode, with the video's id and the queue job's", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const up = await uploadVideo(key, await clip({ seconds: 1 }));
    expect(up.status).toBe(201);
    const id = up.body.data.id as string;
    await drain(await testWorker({ deps, deliver: (req) => app.handle(req) }));
    await tracing.flush();
    const [got] = spansWith("shelf.video_id", id);
    expect(got!.span.name).toBe("transcode transcode");
    expect(attr(got!.span, "shelf.outcome")).toBe("ok");
    expect(attr(got!.span, "shelf.transcode_job_id")).toBeString();
  }, 60_000);

  test("off (no endpoint): no spans, and the no-op stands in", async () => {
    const off = await createTracing({ serviceName: "shelf", version: VERSION, log: shared.deps.log });
    expect(off.enabled).toBe(false);
    expect(shared.deps.tracing.enabled).toBe(false);
  });
});
