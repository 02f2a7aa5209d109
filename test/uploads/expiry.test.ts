// Unfinished uploads expire by the clock: 410 from Upload-Expires on, and the expiry job
// deletes their bytes and gives back the storage they held. Ended uploads' rows go a week
// later; usage verify counts what unfinished uploads hold.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { verifyUsage } from "../../src/modules/usage/public.ts";
import { storedKinds } from "../../jobs/index.ts";
import { call } from "../helpers/context.ts";
import { makeKey } from "../helpers/factories.ts";
import { closeWorlds, stoppedWorld } from "../jobs/world.ts";
import { metaHeader, noise, uploader } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

afterAll(closeWorlds);

const HOUR = 3_600_000;

describe("expiry", () => {
  test("an unfinished upload is 410 past Upload-Expires; the job deletes its bytes and gives back its storage", async () => {
    const w = await stoppedWorld();
    const { user, key } = await uploader("pro");
    const tus = (method: string, path: string, headers: Record<string, string> = {}, body?: Uint8Array) =>
      call(method, path, { app: w.app, token: key, headers: { "tus-resumable": "1.0.0", ...headers }, body: body as Uint8Array<ArrayBuffer> | undefined });
    const usageKey = (await makeKey(user, ["usage.read"])).key;
    const used = async () => (await (await call("GET", "/v1/user/me/usage", { app: w.app, token: usageKey })).json()).data.video.storage.used as number;

    const before = await used();
    const created = await tus("POST", "/v1/uploads", { "upload-length": "5000", "upload-metadata": metaHeader({ kind: "video", filename: "v.mp4" }) });
    const path = created.headers.get("location")!;
    expect(Date.parse(created.headers.get("upload-expires")!)).toBe(w.deps.clock.nowMs() - (w.deps.clock.nowMs() % 1000) + 24 * HOUR);
    expect((await tus("PATCH", path, { "content-type": "application/offset+octet-stream", "upload-offset": "0" }, noise(1000))).status).toBe(204);
    expect(await used()).toBe(before + 5000);

    w.clock.advance(24 * HOUR - 1000);
    expect((await tus("HEAD", path)).status).toBe(200);
    // The job leaves one not yet expired.
    await w.runner.runNow("expire-uploads");
    expect((await tus("HEAD", path)).headers.get("upload-offset")).toBe("1000");
    expect(await used()).toBe(before + 5000);

    w.clock.advance(1000);
    const head = await tus("HEAD", path);
    expect(head.status).toBe(410);
    const patched = await tus("PATCH", path, { "content-type": "application/offset+octet-stream", "upload-offset": "1000" }, noise(10));
    expect(patched.status).toBe(410);
    expect((await patched.json()).code).toBe("UPLOAD_EXPIRED");

    // (Other tests' uploads on the shared database may expire in the same run.)
    const run = await w.runner.runNow("expire-uploads");
    expect(run.counts!.expired).toBeGreaterThanOrEqual(1);
    expect(await used()).toBe(before);
    const keys: string[] = [];
    for await (const o of w.deps.storage.list(`uploads/${user.id}/`)) keys.push(o.key);
    expect(keys).toEqual([]);
    expect((await tus("GET", path)).status).toBe(410);
    // Done once: a second run gives nothing back twice.
    await w.runner.runNow("expire-uploads");
    expect(await used()).toBe(before);

    // A week later its row is gone too.
    w.clock.advance(7 * 24 * HOUR);
    expect((await w.runner.runNow("expire-uploads")).counts!.pruned).toBeGreaterThanOrEqual(1);
    expect((await tus("HEAD", path)).status).toBe(404);
  });

  test("usage verify counts the storage unfinished uploads hold", async () => {
    const w = await stoppedWorld();
    const { user, key } = await uploader("pro");
    const res = await call("POST", "/v1/uploads", {
      app: w.app,
      token: key,
      headers: { "tus-resumable": "1.0.0", "upload-length": "7777", "upload-metadata": metaHeader({ kind: "image", filename: "a.png" }) },
    });
    expect(res.status).toBe(201);
    const { differences } = await verifyUsage(w.deps.db, storedKinds, { userIds: [user.id] });
    expect(differences).toEqual([]);
  });
});
