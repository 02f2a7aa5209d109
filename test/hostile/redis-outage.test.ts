// Redis away under a request that needs it (found by `make chaos`): a resumable upload's
// PATCH takes a Redis lease, and with Redis down ioredis fails the command at once ("Stream
// isn't writeable ..."), which answered 500. It is an outage like the database's: 503 with
// Retry-After, and the same PATCH succeeds once Redis is back. Needs redis-server (skipped
// without it); the app runs on the suite's parts with a Redis of its own that the test stops.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createRedisKv } from "../../src/infra/kv/redis.ts";
import { createLog } from "../../src/infra/log.ts";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { call, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { metaHeader } from "../uploads/helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const redisServer = Bun.which("redis-server");

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

const port = freePort();
let redis: ReturnType<typeof Bun.spawn> | undefined;
async function startRedis() {
  redis = Bun.spawn([redisServer!, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdout: "pipe", stderr: "inherit" });
  // redis-server says when it accepts connections.
  const reader = (redis.stdout as ReadableStream<Uint8Array>).getReader();
  let seen = "";
  while (!seen.includes("Ready to accept connections")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("redis-server exited during start");
    seen += new TextDecoder().decode(value);
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
}
async function stopRedis() {
  redis?.kill("SIGKILL");
  await redis?.exited;
}
afterAll(stopRedis);

describe.skipIf(!redisServer)("Redis away", () => {
  test("a tus PATCH answers 503 with Retry-After while Redis is down, and succeeds once it is back", async () => {
    await startRedis();
    const shared = await testContext();
    const kv = await createRedisKv(`redis://127.0.0.1:${port}`, createLog("error"));
    const services = createServices({ ...shared.deps, kv });
    const app = createApp(services);
    const { key } = await makeClient({ plan: "pro" });
    const tus = (method: string, path: string, headers: Record<string, string>, body?: Uint8Array<ArrayBuffer>) =>
      call(method, path, { app, token: key, headers: { "tus-resumable": "1.0.0", ...headers }, body });
    const made = await tus("POST", "/v1/uploads", { "upload-length": "4", "upload-metadata": metaHeader({ kind: "audio", filename: "a.mp3" }) });
    expect(made.status).toBe(201);
    const path = new URL(made.headers.get("location")!, "http://shelf.test").pathname;
    const patch = () => tus("PATCH", path, { "content-type": "application/offset+octet-stream", "upload-offset": "0" }, new Uint8Array([1, 2, 3, 4]));

    await stopRedis();
    // ioredis has seen the connection close once a command fails fast.
    while (
      await kv.ping().then(
        () => true,
        () => false,
      )
    );
    const away = await patch();
    expect(away.status).toBe(503);
    expect(away.headers.get("retry-after")).toBe("2");
    expect(await away.json()).toMatchObject({ success: false, code: "SERVICE_UNAVAILABLE", meta: { dependency: "kv" } });

    await startRedis();
    // ioredis reconnects by itself; the ping succeeds once it has.
    while (
      !(await kv.ping().then(
        () => true,
        () => false,
      ))
    )
      await Bun.sleep(50);
    const back = await patch();
    // The 4 bytes are not a playable file: the upload ends refused, but the PATCH was taken.
    expect(back.status).not.toBe(503);
    expect(back.status).toBeLessThan(500);
    await services.close();
    await kv.close();
  }, 60_000);
});
