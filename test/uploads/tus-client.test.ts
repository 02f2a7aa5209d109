// tus-js-client against the app on a port: an upload interrupted half way and resumed by a
// new client from its URL, and each kind's finished upload going through its pipeline as a
// direct upload does (a video transcodes, audio and images are ready at once).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import * as tus from "tus-js-client";
import { callJson } from "../helpers/context.ts";
import { fixture, usageOf } from "../audio/fixtures.ts";
import { png } from "../images/fixtures.ts";
import { clip, drain, testWorker, videoRow } from "../videos/fixtures.ts";
import { listening, runUpload, tusOptions, uploader, uploadUntil } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

afterAll(async () => (await listening()).stop());

describe("tus-js-client", () => {
  test("an upload cut at half is resumed by a new client from its URL and finishes as one video that transcodes", async () => {
    const { base } = await listening();
    const { key } = await uploader("pro");
    const bytes = await clip({ seconds: 2 });
    const chunkSize = Math.ceil(bytes.length / 10);
    const meta = { kind: "video", filename: "holiday.mp4", title: "Holiday", tags: '["trip"]', isPublic: "false" };
    const first = await uploadUntil(bytes, tusOptions(base, key, meta, { chunkSize }), 0.5);
    expect(first.acknowledged).toBeGreaterThanOrEqual(bytes.length / 2);
    expect(first.acknowledged).toBeLessThan(bytes.length);
    const path = new URL(first.url).pathname;

    // What the server kept: exactly what it acknowledged.
    const mid = await callJson("GET", path, { token: key });
    expect(mid.body.data).toMatchObject({ status: "uploading", kind: "video", offset: first.acknowledged, length: bytes.length, resource: null });

    // A new client instance, knowing only the URL: it asks for the offset and sends the rest.
    const sent: number[] = [];
    const done = await runUpload(
      bytes,
      tusOptions(base, key, meta, {
        chunkSize,
        uploadUrl: first.url,
        onBeforeRequest(req) {
          if (req.getMethod() === "PATCH") sent.push(Number(req.getHeader("Upload-Offset")));
        },
      }),
    );
    expect(done.url).toBe(first.url);
    expect(sent[0]).toBe(first.acknowledged);

    const state = await callJson("GET", path, { token: key });
    expect(state.body.data).toMatchObject({ status: "complete", offset: bytes.length, resource: { type: "video", status: "processing" } });
    const videoId = state.body.data.resource.id as string;
    expect(done.lastHeaders?.["x-resource-id"]).toBe(videoId);

    const video = await callJson("GET", `/v1/videos/${videoId}`, { token: key });
    expect(video.body.data).toMatchObject({
      title: "Holiday",
      filename: "holiday.mp4",
      sizeBytes: bytes.length,
      isPublic: false,
      tags: ["trip"],
      status: "processing",
    });
    await drain(await testWorker());
    expect((await videoRow(videoId))?.status).toBe("ready");
  }, 120_000);

  test("tus-js-client's terminate removes an upload cut half way and gives its storage back", async () => {
    const { base } = await listening();
    const { user, key } = await uploader("pro");
    const before = (await usageOf(user)).video.storage.used;
    const bytes = await clip({ seconds: 1 });
    const options = tusOptions(base, key, { kind: "video", filename: "gone.mp4" }, { chunkSize: Math.ceil(bytes.length / 4) });
    const cut = await uploadUntil(bytes, options, 0.5);
    expect((await usageOf(user)).video.storage.used).toBe(before + bytes.length);
    await tus.Upload.terminate(cut.url, options);
    expect((await usageOf(user)).video.storage.used).toBe(before);
    expect((await callJson("GET", new URL(cut.url).pathname, { token: key })).status).toBe(404);
  });

  test("an image is ready when the last PATCH answers, at the URL it names", async () => {
    const { base } = await listening();
    const { key } = await uploader("pro");
    const bytes = await png(64, 48);
    const done = await runUpload(bytes, tusOptions(base, key, { kind: "image", filename: "dot.png", tags: '["a","b"]' }, { chunkSize: 100 }));
    const imageId = done.lastHeaders?.["x-resource-id"];
    expect(imageId).toBeString();
    const image = await callJson("GET", `/v1/images/${imageId}`, { token: key });
    expect(image.body.data).toMatchObject({ id: imageId, filename: "dot.png", width: 64, height: 48, tags: ["a", "b"], is_public: true });
    expect(done.lastHeaders?.["x-resource-url"]).toBe(image.body.data.url);
  });

  test("the last PATCH's answer lost on the way: tus-js-client asks HEAD, finds Upload-Offset at Upload-Length and finishes; one image made", async () => {
    const { base } = await listening();
    const { key } = await uploader("pro");
    const bytes = await png(40, 20);
    let lost: string | undefined;
    let named: string | undefined;
    const done = await runUpload(
      bytes,
      tusOptions(
        base,
        key,
        { kind: "image", filename: "lost.png" },
        {
          chunkSize: Math.ceil(bytes.length / 2),
          retryDelays: [0],
          onAfterResponse(req, res) {
            if (req.getMethod() === "HEAD") named = res.getHeader("x-resource-id");
            if (req.getMethod() !== "PATCH" || lost || !res.getHeader("x-resource-id")) return;
            lost = res.getHeader("x-resource-id");
            throw new Error("the connection dropped before the answer was read");
          },
        },
      ),
    );
    expect(lost).toBeString();
    expect(named).toBe(lost!);
    const state = await callJson("GET", new URL(done.url!).pathname, { token: key });
    expect(state.body.data).toMatchObject({ status: "complete", offset: bytes.length, resource: { id: lost } });
    const images = await callJson("GET", "/v1/images", { token: key });
    expect(images.body.data.items.map((i: { id: string }) => i.id)).toEqual([lost]);
  });

  test("audio is ready when the last PATCH answers", async () => {
    const { base } = await listening();
    const { key } = await uploader("pro");
    const bytes = await fixture("mp3");
    const done = await runUpload(bytes, tusOptions(base, key, { kind: "audio", filename: "tone.mp3", title: "Tone" }, { chunkSize: 4096 }));
    const audioId = done.lastHeaders?.["x-resource-id"];
    const audio = await callJson("GET", `/v1/audio/${audioId}`, { token: key });
    expect(audio.body.data).toMatchObject({ id: audioId, title: "Tone", filename: "tone.mp3", sizeBytes: bytes.length });
  });
});
