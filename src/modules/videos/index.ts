// /v1/videos: streamed upload, list, read (anonymous when public), status poll, update,
// delete, custom thumbnail. Provider callbacks are in webhooks.routes.ts, signed URLs in
// sign.routes.ts, captions in captions.routes.ts.
import { trashVideo } from "./trash.ts";
import { depsAt } from "../../http/addresses.ts";
import { Elysia } from "elysia";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import { uploadLimits, withUpload } from "../../http/multipart.ts";
import { declaredLength, uploadBodyOf } from "../../http/body-limit.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { createBandwidthStates } from "./bandwidth.ts";
import { ListVideosQuery, ThumbnailForm, UpdateVideoBody, UploadedVideo, Video, VideoPage, VideoParams, VideoStatusPoll, VideoUploadForm } from "./model.ts";
import { getVideo, listVideos, ownVideo, precheckVideoUpload, toStatus, toUploaded, toVideo, updateVideo, uploadVideo, videoUrls } from "./service.ts";
import { precheckThumbnail, revertThumbnail, setThumbnail, THUMBNAIL_MAX_BYTES } from "./thumbnail.ts";
import { captionRoutes } from "./captions.routes.ts";
import { signRoutes } from "./sign.routes.ts";
import { videoWebhooks } from "./webhooks.routes.ts";

export const videosModule = (services: RouteServices) => {
  const { deps, guard, buckets, contentDeps } = services;
  // The owner's bandwidth state shown with a video, as the playback edge reads it.
  const bandwidth = createBandwidthStates(deps);
  return new Elysia({ name: "videos", detail: { tags: ["videos"] } })
    .use(sharedModels)
    .use(guard)
    .use(videoWebhooks(services))
    .use(signRoutes(services))
    .use(captionRoutes(services))
    .post(
      "/v1/videos",
      async ({ principal, request, status }) => {
        const uploader = await precheckVideoUpload(deps, principal.userId, declaredLength(request));
        // An upload, and a transcode it queues: both buckets, before a byte is read.
        await buckets.take(principal.userId, "transcode");
        await buckets.take(principal.userId, "upload");
        return status(201, ok(toUploaded(await uploadVideo(contentDeps, uploader, uploadBodyOf(request)))));
      },
      {
        auth: { scope: "media.write", tier: "upload" },
        // Streamed to storage by upload.ts, never buffered by Elysia.
        parse: "none",
        response: {
          201: Ok(UploadedVideo),
          400: "Error",
          403: "Error",
          408: "Error",
          413: "Error",
          422: "Error",
          429: "Error",
          451: "Error",
          502: "Error",
        },
        detail: {
          summary: "Upload a video (multipart/form-data, streamed); answered in status processing before transcoding",
          description:
            "Needs plan pro or pro_plus (403 PLAN_REQUIRED). The container is decided by the file's first bytes (422 INVALID_FILE_TYPE); over the plan's size 413 FILE_TOO_LARGE with nothing stored; the bytes count in media_storage (403 QUOTA_EXCEEDED).",
          requestBody: { required: true, content: VideoUploadForm },
        },
      },
    )
    .get("/v1/videos", async ({ principal, query, request }) => ok(await listVideos(depsAt(deps, request), principal.userId, query)), {
      auth: { scope: "media.read", tier: "read" },
      query: ListVideosQuery,
      response: { 200: Ok(VideoPage), 400: "Error", 422: "Error" },
      detail: { summary: "List videos, newest first (items carry no playback_url)" },
    })
    .get(
      "/v1/videos/:id",
      async ({ params, reader, request }) => {
        const row = await getVideo(deps.db, { userId: reader?.userId, id: params.id });
        return ok({ ...toVideo(videoUrls(depsAt(deps, request)), row), bandwidth_state: await bandwidth.of(row.ownerId) });
      },
      {
        optionalAuth: { scope: "media.read", tier: "read" },
        params: VideoParams,
        response: { 200: Ok(Video), 404: "Error" },
        detail: { summary: "One video: metadata and playback URL; anonymous when the video is public" },
      },
    )
    .get("/v1/videos/:id/status", async ({ principal, params }) => ok(toStatus(await ownVideo(deps.db, principal.userId, params.id), deps.clock.now())), {
      auth: { scope: "media.read", tier: "read" },
      params: VideoParams,
      response: { 200: Ok(VideoStatusPoll), 404: "Error" },
      detail: { summary: "Transcoding status: progress 0..1 and a best-effort eta (poll every 5 to 10 s)" },
    })
    .patch(
      "/v1/videos/:id",
      async ({ principal, params, body, request }) => ok(toVideo(videoUrls(depsAt(deps, request)), await updateVideo(deps, principal.userId, params.id, body))),
      {
        auth: { scope: "media.write", tier: "mutation" },
        params: VideoParams,
        body: UpdateVideoBody,
        response: { 200: Ok(Video), 404: "Error", 422: "Error" },
        detail: { summary: "Change a video's title, visibility or tags (not its content)" },
      },
    )
    .delete(
      "/v1/videos/:id",
      async ({ principal, params, set }) => {
        await trashVideo(deps, principal.userId, params.id);
        set.status = 204;
      },
      {
        auth: { scope: "media.delete", tier: "mutation" },
        params: VideoParams,
        response: { 204: NoContent, 404: "Error" },
        detail: { summary: "Move a video to the trash: it stops playing at once; restore it or purge it through /v1/trash" },
      },
    )
    .post(
      "/v1/videos/:id/thumbnail",
      async ({ principal, params, request }) => {
        const limits = await precheckThumbnail(deps, principal.userId, params.id);
        const row = await withUpload(request, uploadLimits(deps, THUMBNAIL_MAX_BYTES), (u) =>
          setThumbnail(contentDeps, principal.userId, params.id, limits, u),
        );
        return ok(toVideo(videoUrls(depsAt(deps, request)), row));
      },
      {
        auth: { scope: "media.write", tier: "mutation" },
        params: VideoParams,
        parse: "none",
        response: { 200: Ok(Video), 400: "Error", 403: "Error", 404: "Error", 408: "Error", 413: "Error", 422: "Error", 451: "Error", 502: "Error" },
        detail: {
          summary: "Replace the thumbnail (JPEG, PNG or WebP, at most 2 MB; counted in image storage)",
          requestBody: { required: true, content: ThumbnailForm },
        },
      },
    )
    .delete(
      "/v1/videos/:id/thumbnail",
      async ({ principal, params, request }) => ok(toVideo(videoUrls(depsAt(deps, request)), await revertThumbnail(deps, principal.userId, params.id))),
      {
        auth: { scope: "media.write", tier: "mutation" },
        params: VideoParams,
        response: { 200: Ok(Video), 404: "Error" },
        detail: { summary: "Go back to the automatic thumbnail" },
      },
    );
};
