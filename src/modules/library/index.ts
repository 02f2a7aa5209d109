// The library's routes: documents (/v1/docs), knowledge bases (/v1/kbs: the manifest,
// sync, conflicts, raw by path) and a KB's documents by path (a folder, several at once,
// an exact edit), one controller each.
import { Elysia } from "elysia";
import type { RouteServices } from "../../wiring/services.ts";
import { documentsModule } from "./documents/index.ts";
import { kbPathsModule } from "./kb-paths/index.ts";
import { kbsModule } from "./kbs/index.ts";

export const libraryModule = (services: RouteServices) =>
  new Elysia({ name: "library" }).use(documentsModule(services)).use(kbsModule(services)).use(kbPathsModule(services));
