// `shelf serve`: starts the api role (HTTP), the worker role (jobs) or both, and stops
// them cleanly on SIGTERM/SIGINT: stop accepting, let in-flight requests finish within
// the grace period, stop jobs, close pools, exit 0.
import { createApp } from "./app.ts";
import { closeDeps, type Deps } from "./deps.ts";
import { createServices } from "./services.ts";
import { startStep } from "./start-trace.ts";

export type Role = "api" | "worker" | "all";

/** Largest body Bun accepts at all; each upload route enforces its own, smaller limit while streaming. */
const MAX_REQUEST_BODY = 2 * 1024 ** 3 + 16 * 1024 ** 2;

export interface Running {
  url?: string;
  stop(): Promise<void>;
}

export async function serve(deps: Deps, role: Role): Promise<Running> {
  const { config, log } = deps;
  const services = createServices(deps);
  startStep("services created");
  const { runner } = services;
  let server: ReturnType<typeof Bun.serve> | undefined;

  // The app is built while the database opens (src/main.ts). The embedded database holds
  // every query until it is open and migrated (src/infra/db/index.ts), so that node listens
  // and schedules its jobs at once, and its first requests wait; on Postgres nothing
  // listens or runs before the migrations end. serve returns once the database is ready;
  // the transcode loop starts then (below).
  if (deps.database.kind !== "pglite") await deps.ready;
  if (role === "api" || role === "all") {
    const app = createApp(services);
    startStep("app built");
    // listen() (not a bare Bun.serve) so handlers see the server, e.g. for the client address.
    app.listen({
      port: config.PORT,
      hostname: config.HOST,
      maxRequestBodySize: MAX_REQUEST_BODY,
      idleTimeout: 120,
    });
    server = app.server!;
    log.info("api listening", { url: server.url.href, port: server.port, role });
    startStep("listening");
  }
  if (role === "worker" || role === "all") {
    runner.start();
    startStep("jobs started");
  }
  await deps.ready;
  startStep("database ready");
  // The transcode loop claims work with a query as soon as it starts: on a database just
  // opened a cold one (~60 ms of the embedded engine, which runs on this thread). It starts
  // once what already waited for the database (readiness checks) has been answered.
  let stopping: Promise<void> | undefined;
  if (role === "worker" || role === "all") {
    setImmediate(() => {
      if (!stopping) services.transcoder.start(config.TRANSCODE_CONCURRENCY);
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
      }
      await runner.stop();
      await services.transcoder.stop();
      await services.close();
      await closeDeps(deps);
      log.info("stopped");
    })());

  return { url: server?.url.href, stop };
}
