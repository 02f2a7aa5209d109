// The images service takes plain values: an image made without a request (as a sync push
// or a transcode callback would) is stored, counted and listed like an upload.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createImage, precheckUpload } from "../../src/modules/images/service.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { png } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("images from plain values", () => {
  test("bytes alone make a public, untagged image named image.<ext>; given fields are kept", async () => {
    const { user, key } = await makeClient();
    const { deps, services } = await testContext();
    const uploads = { ...deps, compliance: services.compliance, svgSanitizer: services.svgSanitizer };
    const bare = await createImage(uploads, await precheckUpload(deps, user.id), { bytes: await png() });
    expect(bare).toMatchObject({ ownerId: user.id, format: "png", filename: "image.png", isPublic: true, tags: [] });
    deps.clock.advance(1);
    const named = await createImage(uploads, await precheckUpload(deps, user.id), { bytes: await png(8, 8), filename: "a.png", tags: ["x"], isPublic: false });
    expect(named).toMatchObject({ filename: "a.png", isPublic: false, tags: ["x"], width: 8 });

    const list = await callJson("GET", "/v1/images", { token: key });
    expect(list.body.data.items.map((i: { id: string }) => i.id)).toEqual([named.id, bare.id]);
    const usage = await callJson("GET", "/v1/user/me/usage", { token: key });
    expect(usage.body.data.image.storage.used).toBeGreaterThan(0);
  });

  test("bytes of no accepted format are 422 INVALID_FILE_TYPE, naming the formats", async () => {
    const { user } = await makeClient();
    const { deps, services } = await testContext();
    const refused = createImage({ ...deps, compliance: services.compliance, svgSanitizer: services.svgSanitizer }, await precheckUpload(deps, user.id), {
      bytes: new TextEncoder().encode("plain text"),
    });
    await expect(refused).rejects.toMatchObject({
      code: "INVALID_FILE_TYPE",
      status: 422,
      message: "the file is not a JPEG, PNG, GIF, WebP, AVIF or SVG image",
    });
  });
});
