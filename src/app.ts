// createApp(deps): the root Elysia instance. It mounts the HTTP core, the OpenAPI
// document and every feature module; each module is one Elysia controller.
import { Elysia } from "elysia";
import type { Deps } from "./deps.ts";
import { httpCore } from "./http/core.ts";
import { sharedModels } from "./http/envelope.ts";
import { openapiPlugin } from "./http/openapi.ts";
import { systemModule } from "./modules/system/index.ts";
import type { JobRunner } from "../jobs/runner.ts";

export interface AppOptions {
  /** Lets operators run a job now over HTTP; the api role and tests pass one. */
  runner?: JobRunner;
}

export function createApp(deps: Deps, _opts: AppOptions = {}) {
  return new Elysia({ name: "shelf" })
    .use(httpCore(deps.log))
    .use(sharedModels)
    .use(openapiPlugin(deps.config.PUBLIC_URL))
    .use(systemModule(deps));
}

export type App = ReturnType<typeof createApp>;
