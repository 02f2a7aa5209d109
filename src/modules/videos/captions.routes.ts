// /v1/videos/:id/captions: a video's caption tracks, one per language (captions.ts).
import { Elysia } from "elysia";
import { depsAt } from "../../http/addresses.ts";
import { readBody } from "../../http/body-limit.ts";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { CAPTION_MAX_BYTES, CAPTIONS_PER_VIDEO, captionLanguage, precheckCaption, removeCaption, setCaption, toCaption } from "./captions.ts";
import { CaptionItem, CaptionList, CaptionParams, CaptionQuery, VideoParams } from "./model.ts";
import { ownVideo, videoUrls } from "./service.ts";

export const captionRoutes = ({ deps, guard }: RouteServices) =>
  new Elysia({ name: "video-captions", detail: { tags: ["videos"] } })
    .use(sharedModels)
    .use(guard)
    .get(
      "/v1/videos/:id/captions",
      async ({ principal, params, request }) => {
        const row = await ownVideo(deps.db, principal.userId, params.id);
        const urls = videoUrls(depsAt(deps, request));
        return ok({ items: row.captions.map((track) => toCaption(urls, row, track)) });
      },
      {
        auth: { scope: "media.read", tier: "read" },
        params: VideoParams,
        response: { 200: Ok(CaptionList), 404: "Error" },
        detail: { summary: "A video's caption tracks, in the order they were added" },
      },
    )
    .put(
      "/v1/videos/:id/captions/:language",
      async ({ principal, params, query, request, set }) => {
        const language = captionLanguage(params.language);
        const map = await precheckCaption(deps, principal.userId, params.id);
        const body = await readBody(request, CAPTION_MAX_BYTES);
        const { row, track, created } = await setCaption(deps, principal.userId, params.id, { language, label: query.label, map }, body);
        set.status = created ? 201 : 200;
        return ok(toCaption(videoUrls(depsAt(deps, request)), row, track));
      },
      {
        auth: { scope: "media.write", tier: "mutation" },
        params: CaptionParams,
        query: CaptionQuery,
        // Read here, up to CAPTION_MAX_BYTES, once the video is known to be the caller's.
        parse: "none",
        response: { 200: Ok(CaptionItem), 201: Ok(CaptionItem), 403: "Error", 404: "Error", 409: "Error", 413: "Error", 422: "Error" },
        detail: {
          summary: "Add or replace the captions of one language (WebVTT or SRT; 201 new, 200 replaced)",
          description: `The body is the caption file itself, WebVTT or SRT (converted to WebVTT), UTF-8, at most ${CAPTION_MAX_BYTES / 1024} KiB (413 FILE_TOO_LARGE), with any Content-Type. \`language\` is a BCP 47 tag (422 VALIDATION_ERROR otherwise), kept in its canonical form; \`label\` (query) is the name players show, by default the language's English name. A file the WebVTT parser refuses, or with no cue, is 422 INVALID_FILE_TYPE with meta.errors (line, message). A video takes captions once it is ready (409 CONFLICT meta.reason not_ready before), at most ${CAPTIONS_PER_VIDEO} tracks (409 meta.reason caption_limit); a Mux-hosted video takes none (409 meta.reason hosted_provider). The stored file gets an X-TIMESTAMP-MAP header that lines its cues up with the video's segments (the cues' 0 is the video's start). The bytes count in image storage (403 QUOTA_EXCEEDED). The master playlist lists the tracks as a subtitles group (subs/<language>.m3u8), so hls.js and Safari offer them.`,
          requestBody: { required: true, content: { "text/vtt": { schema: { type: "string" } }, "application/x-subrip": { schema: { type: "string" } } } },
        },
      },
    )
    .delete(
      "/v1/videos/:id/captions/:language",
      async ({ principal, params, set }) => {
        await removeCaption(deps, principal.userId, params.id, captionLanguage(params.language));
        set.status = 204;
      },
      {
        auth: { scope: "media.write", tier: "mutation" },
        params: CaptionParams,
        response: { 204: NoContent, 404: "Error", 422: "Error" },
        detail: { summary: "Remove the captions of one language" },
      },
    );
