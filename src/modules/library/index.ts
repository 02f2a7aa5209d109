// The library's routes: documents (/v1/docs) and knowledge bases (/v1/kbs: the manifest,
// sync, conflicts, raw by path), one controller each.
import { Elysia } from "elysia";
import type { RouteServices } from "../../wiring/services.ts";
import { documentsModule } from "./documents/index.ts";
import { kbsModule } from "./kbs/index.ts";

export const libraryModule = (services: RouteServices) => new Elysia({ name: "library" }).use(documentsModule(services)).use(kbsModule(services));
