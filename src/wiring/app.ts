// createApp(services): the root Elysia instance. It mounts the HTTP core, the OpenAPI
// document and every feature module; each module is one Elysia controller.
import { type AnyElysia, Elysia } from "elysia";
import { type AccessLog, accessLog } from "../http/access-log.ts";
import { type BodyLimits, bodyLimits } from "../http/body-limit.ts";
import { apiCors } from "../http/cors.ts";
import { httpCore } from "../http/core.ts";
import { sharedModels } from "../http/envelope.ts";
import { openapiPlugin } from "../http/openapi.ts";
import { routeServices, type Services } from "./services.ts";
import { adminModule } from "../modules/admin/index.ts";
import { audioModule } from "../modules/audio/index.ts";
import { backupModule } from "../modules/backup/index.ts";
import { migrationModule } from "../modules/migration/index.ts";
import { centerModule } from "../modules/center/index.ts";
import { collectionsModule } from "../modules/collections/index.ts";
import { identityModule } from "../modules/identity/index.ts";
import { oidcModule } from "../modules/oidc/index.ts";
import { createEdge } from "../modules/edge/index.ts";
import { imagesModule } from "../modules/images/index.ts";
import { libraryModule } from "../modules/library/index.ts";
import { mcpModule } from "../modules/mcp/index.ts";
import { mediaModule } from "../modules/media/index.ts";
import { trashModule } from "../modules/trash/index.ts";
import { notificationsModule } from "../modules/notifications/index.ts";
import { oauthModule } from "../modules/oauth/index.ts";
import { systemModule } from "../modules/system/index.ts";
import { uploadsModule } from "../modules/uploads/index.ts";
import { usageModule } from "../modules/usage/index.ts";
import { tellRefusal } from "../modules/usage/public.ts";
import { videosModule } from "../modules/videos/index.ts";
import { oembedModule } from "../modules/oembed/index.ts";
import { sharesModule } from "../modules/shares/index.ts";
import { webhooksModule } from "../modules/webhooks/index.ts";
import { publishModule } from "../modules/publish/index.ts";

/**
 * The HTTP core of this app: a quota refusal is told to the owner as well as answered, and
 * every request has its access line (ACCESS_LOG).
 */
const core = ({ deps }: Services, limits: BodyLimits, access: AccessLog) =>
  httpCore(deps.log, { limits, uploadMemory: deps.budgets.uploadMemory, onRefusal: (refusal) => tellRefusal(deps, refusal), access });

const accessOf = ({ deps }: Services) => accessLog(deps.log, deps.config.ACCESS_LOG, deps.metrics, deps.tracing);

/** The app, once every route is mounted, tells the body parser which routes read their own body. */
function withBodyLimits<A extends AnyElysia>(app: A, limits: BodyLimits): A {
  limits.learn(app.routes);
  return app;
}

/**
 * The HTTP core with the given modules and nothing else: what a module's own tests build
 * when they need only that module (no OpenAPI document, no other controllers).
 */
export function createModuleApp<const M extends AnyElysia[]>(services: Services, ...modules: M) {
  const limits = bodyLimits();
  let app = new Elysia({ name: "shelf" })
    .use(core(services, limits, accessOf(services)))
    .use(apiCors())
    .use(sharedModels);
  for (const m of modules) app = app.use(m) as typeof app;
  return withBodyLimits(app, limits);
}

export function createApp(processServices: Services) {
  const services = routeServices(processServices);
  const { deps } = services;
  const edge = createEdge(services);
  const access = accessOf(services);
  // The edge's paths as Bun routes: a listening server answers them without Elysia
  // (see modules/edge/index.ts), each with its access line; app.handle still reaches
  // them through edge.module.
  const routes = Object.fromEntries(Object.entries(edge.routes).map(([path, handler]) => [path, access.route(path, handler)]));
  const limits = bodyLimits();
  // The app's own handler, for the MCP tools (bound once the app exists).
  let handle: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  const app = new Elysia({ name: "shelf", serve: { routes } })
    .use(core(services, limits, access))
    // Which answers pages on other origins may read: by path, for every module at once.
    .use(apiCors())
    .use(sharedModels)
    .use(openapiPlugin(deps.config.PUBLIC_URL, deps.config.addressesFromRequest.length > 0))
    .use(systemModule(deps))
    .use(identityModule(services))
    .use(oidcModule(services))
    .use(usageModule(services))
    .use(notificationsModule(services))
    .use(imagesModule(services))
    .use(libraryModule(services))
    .use(oauthModule(services))
    .use(videosModule(services))
    .use(oembedModule(services))
    .use(audioModule(services))
    .use(uploadsModule(services))
    .use(mediaModule(services))
    .use(trashModule(services))
    .use(collectionsModule(services))
    .use(backupModule(services))
    .use(migrationModule(services))
    .use(edge.module)
    .use(adminModule(services))
    // Share links: the API, and each link's anonymous page below CENTER_URL with its media through the edge.
    .use(sharesModule(services, edge.vouched))
    .use(webhooksModule(services))
    .use(publishModule(services))
    // The dashboard at CENTER_URL (the root by default): a page and its files, no API of its own.
    .use(centerModule(deps))
    // Its tools call the routes above in process (modules/mcp/client.ts).
    .use(mcpModule(services, (request): Promise<Response> => handle(request)));
  handle = (request) => app.handle(request);
  return withBodyLimits(app, limits);
}

export type App = ReturnType<typeof createApp>;
