// The object store not answering (found by `make chaos`: s3rver stopped for seconds): an
// upload answered 502 STORAGE_ERROR, a failure the client cannot tell from a broken store.
// A store that does not answer at all (connection refused) is an outage like the
// database's: 503 with Retry-After, still STORAGE_ERROR. The app runs on the suite's parts
// with an S3 store on a loopback port nothing listens on.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createS3Storage } from "../../src/infra/storage/s3.ts";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { fixture } from "../audio/fixtures.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { png, uploadForm } from "../images/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

function closedPort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

describe("the object store away", () => {
  test("an image upload and a streamed audio upload answer 503 STORAGE_ERROR with Retry-After", async () => {
    const shared = await testContext();
    const storage = createS3Storage({
      bucket: "away",
      endpoint: `http://127.0.0.1:${closedPort()}`,
      region: "us-east-1",
      accessKeyId: "x",
      secretAccessKey: "y",
    });
    const services = createServices({ ...shared.deps, storage });
    const app = createApp(services);
    const { key } = await makeClient({ plan: "pro" });

    const image = await callJson("POST", "/v1/images", { app, token: key, body: uploadForm(await png(8, 8), { filename: "a.png" }) });
    const form = new FormData();
    form.set("file", new File([await fixture("mp3")], "a.mp3"));
    const audio = await callJson("POST", "/v1/audio", { app, token: key, body: form });
    for (const res of [image, audio]) {
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.body).toMatchObject({ success: false, code: "STORAGE_ERROR", meta: { dependency: "storage", retryAfter: 5 } });
    }
    await services.close();
  }, 60_000);
});
