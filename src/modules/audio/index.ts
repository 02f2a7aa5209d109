// /v1/audio: streamed upload, read (anonymous when public), update, delete. Listing is the
// unified media listing's (GET /v1/media?type=audio), through public.ts.
import { addressesOf } from "../../http/addresses.ts";
import { Elysia } from "elysia";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import { notFound } from "../../core/errors.ts";
import { declaredLength, uploadBodyOf } from "../../http/body-limit.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { Audio, AudioParams, AudioUploadForm, UpdateAudioBody } from "./model.ts";
import { getAudio, trashAudio, precheckAudioUpload, toAudio, updateAudio, uploadAudio } from "./service.ts";

export const audioModule = (services: RouteServices) => {
  const { deps, guard, buckets, contentDeps } = services;
  const media = (request: Request) => addressesOf(deps.config, request).MEDIA_URL;
  return new Elysia({ name: "audio", detail: { tags: ["audio"] } })
    .use(sharedModels)
    .use(guard)
    .post(
      "/v1/audio",
      async ({ principal, request, status }) => {
        const uploader = await precheckAudioUpload(deps, principal.userId, declaredLength(request));
        await buckets.take(principal.userId, "upload");
        return status(201, ok(toAudio(media(request), await uploadAudio(contentDeps, uploader, uploadBodyOf(request)))));
      },
      {
        auth: { scope: "media.write", tier: "upload" },
        // Streamed to storage (src/core/streamed-upload.ts), never buffered by Elysia.
        parse: "none",
        response: { 201: Ok(Audio), 400: "Error", 403: "Error", 408: "Error", 413: "Error", 422: "Error", 429: "Error", 451: "Error", 502: "Error" },
        detail: {
          summary: "Upload an audio file (multipart/form-data, streamed); ready and playable when 201 answers",
          description:
            "403 FORBIDDEN for a plan without audio. The format is told by the file's first bytes (422 INVALID_FILE_TYPE; also for a file of a right signature whose audio cannot be read). " +
            "Over the plan's size 413 FILE_TOO_LARGE (meta.limit in bytes) while streaming; playing longer than the plan allows 413 FILE_TOO_LARGE with meta.limit and meta.durationSeconds in seconds; nothing is stored either way. " +
            "The bytes count in media_storage, an embedded cover's in img_storage (403 QUOTA_EXCEEDED). On the mainland platform the file and its cover pass the compliance check (451 COMPLIANCE_BLOCKED).",
          requestBody: { required: true, content: AudioUploadForm },
        },
      },
    )
    .get(
      "/v1/audio/:id",
      async ({ params, reader, request }) => {
        return ok(toAudio(media(request), await getAudio(deps.db, { userId: reader?.userId, id: params.id })));
      },
      {
        optionalAuth: { scope: "media.read", tier: "read" },
        params: AudioParams,
        response: { 200: Ok(Audio), 404: "Error" },
        detail: { summary: "One audio file; anonymous when it is public" },
      },
    )
    .patch(
      "/v1/audio/:id",
      async ({ principal, params, body, request }) => ok(toAudio(media(request), await updateAudio(deps, principal.userId, params.id, body))),
      {
        auth: { scope: "media.write", tier: "mutation" },
        params: AudioParams,
        body: UpdateAudioBody,
        response: { 200: Ok(Audio), 404: "Error", 422: "Error" },
        detail: { summary: "Change an audio file's title or visibility (is_public, or isPublic); {} changes nothing" },
      },
    )
    .delete(
      "/v1/audio/:id",
      async ({ principal, params, set }) => {
        if (!(await trashAudio(deps, principal.userId, params.id))) throw notFound("audio");
        set.status = 204;
      },
      {
        auth: { scope: "media.delete", tier: "mutation" },
        params: AudioParams,
        response: { 204: NoContent, 404: "Error" },
        detail: { summary: "Move an audio file to the trash: it stops serving at once; restore it or purge it through /v1/trash" },
      },
    );
};
