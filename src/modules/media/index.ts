// /v1/media: one listing across media kinds (videos, audio), newest first under one
// cursor, and a batch delete across kinds.
import { depsAt } from "../../http/addresses.ts";
import { Elysia } from "elysia";
import { Ok, ok, sharedModels } from "../../http/envelope.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { ListMediaQuery, MediaBatchDeleteResult, MediaIdsBody, MediaPage } from "./model.ts";
import { deleteMedia, listMedia } from "./service.ts";

export const mediaModule = ({ deps, guard }: RouteServices) =>
  new Elysia({ name: "media", detail: { tags: ["media"] } })
    .use(sharedModels)
    .use(guard)
    .get("/v1/media", async ({ principal, query, request }) => ok(await listMedia(depsAt(deps, request), principal.userId, query)), {
      auth: { scope: "media.read", tier: "read" },
      query: ListMediaQuery,
      response: { 200: Ok(MediaPage), 400: "Error", 422: "Error" },
      detail: {
        summary: "List videos and audio together, newest first; each item carries its type",
        description:
          "Video items are GET /v1/videos list items; audio items are the audio resource. One cursor pages through both (400 INVALID_CURSOR when it is not one).",
      },
    })
    .delete("/v1/media", async ({ principal, body }) => ok(await deleteMedia(deps, principal.userId, body.ids)), {
      auth: { scope: "media.delete", tier: "mutation" },
      body: MediaIdsBody,
      response: { 200: Ok(MediaBatchDeleteResult), 422: "Error" },
      detail: {
        summary: "Delete up to 50 videos and audio files by id; a result per id, in request order",
        description:
          "Each id is deleted as DELETE on its own path would (counters, thumbnails, edge caches). An id the caller owns nothing under is deleted: false, reason NOT_FOUND.",
      },
    });
