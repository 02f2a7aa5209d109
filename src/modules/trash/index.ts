// /v1/trash: what was deleted, for TRASH_RETENTION_DAYS: listed across kinds, restored, or
// purged one by one or all at once (docs/api.md, "The trash"). Media items need the media
// scopes, documents and KBs the kb ones: the routes take either, and a credential sees and
// touches the kinds its scopes reach.
import { Elysia } from "elysia";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { ListTrashQuery, PurgedCount, RestoredItem, TrashPage, TrashParams } from "./model.ts";
import { emptyTrash, kindsFor, listTrash, purgeFromTrash, restoreFromTrash } from "./service.ts";

const KIND_SCOPES =
  "Images, videos and audio need media.read to be seen and media.delete to be restored or purged; documents and KBs need kb.read and kb.write.";

export const trashModule = ({ deps, guard }: RouteServices) =>
  new Elysia({ name: "trash", detail: { tags: ["trash"] } })
    .use(sharedModels)
    .use(guard)
    .get("/v1/trash", async ({ principal, query }) => ok(await listTrash(deps, principal.userId, kindsFor(principal.scopes, "read"), query)), {
      auth: { scope: ["media.read", "kb.read"], tier: "read" },
      query: ListTrashQuery,
      response: { 200: Ok(TrashPage), 400: "Error", 422: "Error" },
      detail: {
        summary: "What was deleted and not yet purged, most recently deleted first",
        description: `Every kind under one cursor (400 INVALID_CURSOR when it is not one); kind keeps one. ${KIND_SCOPES}`,
      },
    })
    .post(
      "/v1/trash/:id/restore",
      async ({ principal, params }) => ok(await restoreFromTrash(deps, principal.userId, kindsFor(principal.scopes, "write"), params.id)),
      {
        auth: { scope: ["media.delete", "kb.write"], tier: "mutation" },
        params: TrashParams,
        response: { 200: Ok(RestoredItem), 404: "Error", 409: "Error", 422: "Error" },
        detail: {
          summary: "Bring an item back: the same id, URL, tags and history",
          description: `A document goes back to its KB path: 409 TRASH_PATH_TAKEN when another document is there now, 409 TRASH_KB_GONE when its KB is deleted or in the trash. ${KIND_SCOPES}`,
        },
      },
    )
    .delete(
      "/v1/trash/:id",
      async ({ principal, params, set }) => {
        await purgeFromTrash(deps, principal.userId, kindsFor(principal.scopes, "write"), params.id);
        set.status = 204;
      },
      {
        auth: { scope: ["media.delete", "kb.write"], tier: "mutation" },
        params: TrashParams,
        response: { 204: NoContent, 404: "Error", 422: "Error" },
        detail: { summary: "Delete an item for good now: its objects, and its bytes from storage", description: KIND_SCOPES },
      },
    )
    .delete("/v1/trash", async ({ principal }) => ok({ purged: await emptyTrash(deps, principal.userId, kindsFor(principal.scopes, "write")) }), {
      auth: { scope: ["media.delete", "kb.write"], tier: "mutation" },
      response: { 200: Ok(PurgedCount) },
      detail: { summary: "Empty the trash: every item (of the kinds the credential reaches) deleted for good now", description: KIND_SCOPES },
    });
