// Traces (docs/operators.md, "Traces"): with OTEL_EXPORTER_OTLP_ENDPOINT set, requests,
// scheduled jobs and transcodes are sent as OpenTelemetry spans over OTLP/HTTP, each with
// its id (a request's x-request-id, a job's run id, a transcode's job and video ids).
// Each span is recorded when its work ends, with the time it began: no context is carried
// through the work, so nothing changes on the way while it runs.
//
// Off by default, and then free: `noTracing` has empty functions and the OpenTelemetry
// packages are never loaded (they are imported only when the endpoint is set).
import type { Log } from "./log.ts";

/** A finished piece of work as one span. Times are epoch milliseconds. */
export interface SpanRecord {
  name: string;
  startMs: number;
  endMs: number;
  kind: "server" | "internal";
  attributes: Record<string, string | number | boolean | undefined>;
  /** The work failed: the span's status is an error with this message. */
  error?: string;
}

export interface Tracing {
  readonly enabled: boolean;
  record(span: SpanRecord): void;
  /** Sends what is buffered (tests, and before a stop). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export const noTracing: Tracing = { enabled: false, record: () => {}, flush: async () => {}, close: async () => {} };

/** Epoch milliseconds of a `performance.now()` reading. */
export const epochMs = (performanceMs: number) => performance.timeOrigin + performanceMs;

export async function createTracing(opts: { endpoint?: string; serviceName: string; version: string; log: Log }): Promise<Tracing> {
  if (!opts.endpoint) return noTracing;
  const [{ SpanKind, SpanStatusCode }, { TracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const exporter = new OTLPTraceExporter({ url: `${opts.endpoint.replace(/\/+$/, "")}/v1/traces` });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": opts.serviceName, "service.version": opts.version }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer("shelf", opts.version);
  opts.log.info("traces on", { endpoint: opts.endpoint });
  return {
    enabled: true,
    record(s) {
      const attributes = Object.fromEntries(Object.entries(s.attributes).filter(([, v]) => v !== undefined)) as Record<string, string | number | boolean>;
      const span = tracer.startSpan(s.name, { startTime: s.startMs, kind: s.kind === "server" ? SpanKind.SERVER : SpanKind.INTERNAL, attributes });
      if (s.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: s.error });
      span.end(s.endMs);
    },
    flush: () => provider.forceFlush(),
    async close() {
      await provider.shutdown().catch((err: unknown) => opts.log.warn("sending the last traces failed", { err }));
    },
  };
}
