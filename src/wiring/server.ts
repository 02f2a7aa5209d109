// `shelf serve`: starts the api role (HTTP), the worker role (jobs) or both, and stops
// them cleanly on SIGTERM/SIGINT: stop accepting, let in-flight requests finish within
// the grace period, stop jobs, close pools, exit 0.
import { createApp } from "./app.ts";
import { printBanner } from "./banner.ts";
import { closeDeps, type Deps } from "./deps.ts";
import type { Compliance } from "../modules/compliance/public.ts";
import { createServices } from "./services.ts";
import { startStep } from "../infra/start-trace.ts";
import { childTie } from "../infra/child-process.ts";
import { listenMetrics } from "../modules/system/public.ts";

export type Role = "api" | "worker" | "all";

/** Largest body Bun accepts at all; each upload route enforces its own, smaller limit while streaming. */
const MAX_REQUEST_BODY = 2 * 1024 ** 3 + 16 * 1024 ** 2;

/** The api role's address is taken: `shelf serve` says so and exits (src/wiring/cli/index.ts). */
class PortInUseError extends Error {
  constructor(host: string, port: number, reusePort: boolean) {
    super(
      reusePort
        ? `port ${port} on ${host} is in use by a process that does not share it (REUSE_PORT=true shares a port only with processes that set it too)`
        : `port ${port} on ${host} is already in use; stop the process that listens on it or set another PORT (REUSE_PORT=true lets several shelf processes share a port on purpose)`,
    );
    this.name = "PortInUseError";
  }
}

export interface Running {
  url?: string;
  /** METRICS_ADDRESS's listener, when set. */
  metricsUrl?: string;
  stop(): Promise<void>;
}

/** `compliance`: the upload check, when the caller built it before the database opened. */
export async function serve(deps: Deps, role: Role, opts: { compliance?: Compliance } = {}): Promise<Running> {
  const { config, log } = deps;
  const services = createServices(deps, opts);
  startStep("services created");
  const { runner } = services;
  let server: ReturnType<typeof Bun.serve> | undefined;

  // The app is built while the database opens (src/wiring/cli/index.ts). The embedded
  // database holds every query until it is open and migrated (src/infra/db/index.ts), so
  // that node listens and schedules its jobs at once, and its first requests wait; on
  // Postgres nothing listens or runs before the migrations end. serve returns once the
  // database is ready; the transcode loop starts then (below).
  if (deps.database.kind !== "pglite") await deps.ready;
  if (role === "api" || role === "all") {
    const app = createApp(services);
    startStep("app built");
    // listen() (not a bare Bun.serve) so handlers see the server, e.g. for the client address.
    // Elysia's listen() asks Bun for SO_REUSEPORT unless told otherwise (Bun's own default
    // is off), and with it a second process on a taken port starts without a word and
    // takes a share of its connections: only an operator's REUSE_PORT asks for that.
    try {
      app.listen({
        port: config.PORT,
        hostname: config.HOST,
        reusePort: config.REUSE_PORT,
        maxRequestBodySize: MAX_REQUEST_BODY,
        idleTimeout: 120,
      });
    } catch (e) {
      if ((e as { code?: unknown })?.code === "EADDRINUSE") throw new PortInUseError(config.HOST, config.PORT, config.REUSE_PORT);
      throw e;
    }
    server = app.server!;
    log.info("api listening", { url: server.url.href, port: server.port, role });
    startStep("listening");
  }
  // Before the roles start: a worker's first job run is counted where it can be scraped.
  const metricsListener = listenMetrics(deps);
  if (role === "worker" || role === "all") {
    runner.start();
    startStep("jobs started");
  }
  await deps.ready;
  startStep("database ready");
  // After the database is ready: the commands it runs need it, and so does the banner.
  const { listenAdminSocket } = await import("./cli/admin-server.ts");
  const adminSocket = await listenAdminSocket(deps);
  if (server) await printBanner(deps);
  // Said at start, not at the first transcode: a node killed outright would leave its
  // ffmpeg and Typst processes running, and the operator should know before it happens.
  void childTie().then((tie) => {
    if (!tie.tied) log.warn("child processes may outlive this process", { detail: tie.detail });
  });
  // The transcode loop claims work with a query as soon as it starts: on a database just
  // opened a cold one (~60 ms of the embedded engine, which runs on this thread). It starts
  // once what already waited for the database (readiness checks) has been answered.
  let stopping: Promise<void> | undefined;
  if (role === "worker" || role === "all") {
    setImmediate(() => {
      if (stopping) return;
      services.transcoder.start(config.TRANSCODE_CONCURRENCY);
      services.exporter.start(config.EXPORT_CONCURRENCY);
      services.importer.start(config.MIGRATION_CONCURRENCY);
      services.webhooks.start(config.WEBHOOK_CONCURRENCY);
    });
  }

  const stop = () =>
    (stopping ??= (async () => {
      log.info("shutting down", { graceMs: config.SHUTDOWN_GRACE_MS });
      if (server) {
        const graceful = server.stop(false);
        const timedOut = await Promise.race([graceful.then(() => false), Bun.sleep(config.SHUTDOWN_GRACE_MS).then(() => true)]);
        if (timedOut) {
          log.warn("grace period over; closing remaining connections");
          await server.stop(true);
        }
        // Elysia runs a request's afterResponse (where its access line is written) in a
        // setImmediate once the answer is made, and the awaits from here to the exit may all
        // be settled promises, which never let the loop reach those: one turn of it runs every
        // one already queued, so no answered request goes without its line.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      adminSocket?.stop();
      metricsListener?.stop();
      await runner.stop();
      await services.transcoder.stop();
      await services.exporter.stop();
      await services.importer.stop();
      await services.webhooks.stop();
      await services.close();
      await closeDeps(deps);
      log.info("stopped");
    })());

  return { url: server?.url.href, metricsUrl: metricsListener?.url, stop };
}
