// /v1/images: upload (multipart, streamed), list, get one, update, delete.
import { addressesOf, depsAt } from "../../http/addresses.ts";
import { Elysia } from "elysia";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import { declaredLength } from "../../http/body-limit.ts";
import { uploadLimits, withUpload } from "../../http/multipart.ts";
import { declaredFileBytes } from "../../core/streamed-upload.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { ImageItem, ImagePage, ImageParams, ListImagesQuery, UpdateImageBody, UploadedImage, UploadForm } from "./model.ts";
import { trashImage } from "./trash.ts";
import { createImage, getImage, listImages, precheckUpload, toItem, toUploaded, updateImage } from "./service.ts";
import { imageFromForm } from "./upload-form.ts";

export const imagesModule = ({ deps, guard, buckets, contentDeps }: RouteServices) =>
  new Elysia({ name: "images", detail: { tags: ["images"] } })
    .use(sharedModels)
    .use(guard)
    .post(
      "/v1/images",
      async ({ principal, request, status }) => {
        const uploader = await precheckUpload(deps, principal.userId, 1, declaredFileBytes(declaredLength(request)));
        await buckets.take(principal.userId, "upload");
        const limits = uploadLimits(deps, uploader.limits.imageMaxBytes);
        const row = await withUpload(request, limits, (upload) => createImage(contentDeps, uploader, imageFromForm(upload)));
        return status(201, ok(toUploaded(addressesOf(deps.config, request).MEDIA_URL, row)));
      },
      {
        auth: { scope: "media.write", tier: "upload" },
        // The body is read as a stream by withUpload, never buffered by Elysia.
        parse: "none",
        response: { 201: Ok(UploadedImage), 400: "Error", 408: "Error", 409: "Error", 413: "Error", 422: "Error", 451: "Error", 502: "Error", 503: "Error" },
        detail: {
          summary: "Upload an image (multipart/form-data)",
          description:
            "The type is decided by the file's bytes. EXIF/GPS are removed and the orientation applied. Raster images also get a WebP rendition served to clients that accept it.",
          requestBody: { required: true, content: UploadForm },
        },
      },
    )
    .get(
      "/v1/images",
      async ({ principal, query, request }) =>
        ok(await listImages(depsAt(deps, request), principal.userId, { cursor: query.cursor, limit: query.limit ?? 20, tag: query.tag })),
      {
        auth: { scope: "media.read", tier: "read" },
        query: ListImagesQuery,
        response: { 200: Ok(ImagePage), 400: "Error" },
        detail: { summary: "List images, newest first; `total` counts the whole library" },
      },
    )
    .get(
      "/v1/images/:id",
      async ({ principal, params, request }) =>
        ok(toItem(addressesOf(deps.config, request).MEDIA_URL, await getImage(deps.db, { userId: principal.userId, id: params.id }))),
      {
        auth: { scope: "media.read", tier: "read" },
        params: ImageParams,
        response: { 200: Ok(ImageItem), 404: "Error" },
        detail: { summary: "One image" },
      },
    )
    .patch(
      "/v1/images/:id",
      async ({ principal, params, body, request }) =>
        ok(toItem(addressesOf(deps.config, request).MEDIA_URL, await updateImage(deps, principal.userId, params.id, body))),
      {
        auth: { scope: "media.write", tier: "mutation" },
        params: ImageParams,
        body: UpdateImageBody,
        response: { 200: Ok(ImageItem), 404: "Error", 422: "Error" },
        detail: { summary: "Rename, retag, or make an image public or private" },
      },
    )
    .delete(
      "/v1/images/:id",
      async ({ principal, params, set }) => {
        await trashImage(deps, principal.userId, params.id);
        set.status = 204;
      },
      {
        auth: { scope: "media.delete", tier: "mutation" },
        params: ImageParams,
        response: { 204: NoContent, 404: "Error" },
        detail: { summary: "Move an image to the trash: its URL stops serving at once; restore it or purge it through /v1/trash" },
      },
    );
