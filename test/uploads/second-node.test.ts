// Real parts only: an upload begun on this node and cut at half is finished by a new client
// through a second api process sharing Postgres, Redis and S3. Nothing of the upload was
// held by the first node: its parts and its tail are in the store, its state in the row.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { startApiProcess } from "../helpers/api-process.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { clip, videoRow } from "../videos/fixtures.ts";
import { listening, noise, runUpload, tusOptions, uploader, uploadUntil } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const realParts = !!(process.env.DATABASE_URL && process.env.REDIS_URL && process.env.S3_BUCKET);
const MiB = 1024 * 1024;

afterAll(async () => (await listening()).stop());

describe("resuming on another api node", () => {
  test.skipIf(!realParts)(
    "an upload cut at half on this node is finished through a second api process",
    async () => {
      const { base } = await listening();
      const { key } = await uploader("pro");
      // 13 MiB in 6 MiB chunks: S3 parts and a short tail left between the two nodes.
      const head = await clip({ seconds: 1 });
      const file = new Uint8Array(13 * MiB);
      file.set(head);
      file.set(noise(file.length - head.length), head.length);
      const meta = { kind: "video", filename: "far.mp4" };
      const first = await uploadUntil(file, tusOptions(base, key, meta, { chunkSize: 6 * MiB }), 0.5);
      expect(first.acknowledged).toBe(12 * MiB);

      const second = await startApiProcess();
      try {
        const url = `${second.base}${new URL(first.url).pathname}`;
        const done = await runUpload(file, tusOptions(second.base, key, meta, { chunkSize: 6 * MiB, uploadUrl: url }));
        const id = done.lastHeaders?.["x-resource-id"];
        expect(id).toBeString();
        const state = await callJson("GET", new URL(first.url).pathname, { token: key });
        expect(state.body.data).toMatchObject({ status: "complete", offset: file.length, resource: { id } });
        const video = (await videoRow(id!))!;
        const { deps } = await testContext();
        const stored = (await deps.storage.read(video.originalKey!))!;
        expect(createHash("sha256").update(stored).digest("hex")).toBe(createHash("sha256").update(file).digest("hex"));
      } finally {
        await second.stop();
      }
    },
    120_000,
  );
});
