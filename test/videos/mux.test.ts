// The Mux adapter's outgoing calls, against a stand-in for its API (no network): a direct
// upload made once and the original sent to it, the asset deleted with the video, and
// reconciliation reading the asset through the upload that made it.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { muxProvider } from "../../src/modules/videos/providers/mux.ts";
import { applyProviderEvent } from "../../src/modules/videos/state.ts";
import { transcodeJobs, videos } from "../../src/modules/videos/table.ts";
import { adminCli } from "../helpers/admin-cli.ts";
import { testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { insertVideo, videoRow } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

interface Seen {
  method: string;
  url: string;
  body?: string;
  bytes?: number;
  auth?: string | null;
}

function fakeMux(answers: Record<string, unknown> = {}) {
  const seen: Seen[] = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    const body = init?.body;
    const entry: Seen = { method, url, auth: new Headers(init?.headers).get("authorization") };
    if (typeof body === "string") entry.body = body;
    else if (body) entry.bytes = (await new Response(body as BodyInit).arrayBuffer()).byteLength;
    seen.push(entry);
    const key = `${method} ${url.replace("https://api.mux.com/video/v1", "")}`;
    if (key === "POST /uploads") return Response.json({ data: { id: "up1", url: "https://storage.mux.test/put/up1" } });
    if (key in answers) return Response.json({ data: answers[key] });
    if (method === "PUT") return new Response(null, { status: 200 });
    if (method === "DELETE") return new Response(null, { status: 204 });
    return new Response("not found", { status: 404 });
  }) as typeof fetch;
  return { seen, fetchFn };
}

describe("Mux adapter", () => {
  test("a transcode job makes one direct upload carrying the video id and sends the original to it", async () => {
    const { deps } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const v = await insertVideo(owner.id, { provider: "mux", sizeBytes: 5 });
    await deps.storage.put(v.originalKey!, new Uint8Array([1, 2, 3, 4, 5]));
    const { seen, fetchFn } = fakeMux();
    const mux = muxProvider({ ...deps, config: { ...deps.config, MUX_TOKEN_ID: "id", MUX_TOKEN_SECRET: "secret" } }, fetchFn);
    const job = { id: "j1", kind: "transcode", videoId: v.id, ownerId: owner.id, provider: "mux", payload: {} } as any;
    let saved: Record<string, unknown> = {};
    const run = {
      deps,
      job,
      signal: new AbortController().signal,
      deliver: fetchFn,
      renew: async () => true,
      checkpoint: async (p: Record<string, unknown>) => ((saved = p), true),
    };
    await mux.run(run as any);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST https://api.mux.com/video/v1/uploads", "PUT https://storage.mux.test/put/up1"]);
    expect(seen[0]!.auth).toBe(`Basic ${Buffer.from("id:secret").toString("base64")}`);
    expect(JSON.parse(seen[0]!.body!).new_asset_settings.passthrough).toBe(v.id);
    // Without a signing key the asset plays publicly; with one it is signed-only (mux-playback.test.ts).
    expect(JSON.parse(seen[0]!.body!).new_asset_settings.playback_policy).toEqual(["public"]);
    expect(seen[1]!.bytes).toBe(5);
    expect(saved.upload).toEqual({ id: "up1", url: "https://storage.mux.test/put/up1" });
    expect((await videoRow(v.id))!.providerAssetId).toBe("upload:up1");

    // A retry after a crash reuses the upload it recorded: no second asset.
    seen.length = 0;
    await mux.run({ ...run, job: { ...job, payload: saved } } as any);
    expect(seen.map((s) => s.method)).toEqual(["PUT"]);
    // Not left processing: reconciliation in a later test would ask the real Mux about it.
    await deps.db.delete(videos).where(eq(videos.id, v.id));
  });

  test("with a signing key configured new assets are signed-only", async () => {
    const { deps } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const v = await insertVideo(owner.id, { provider: "mux", sizeBytes: 1 });
    await deps.storage.put(v.originalKey!, new Uint8Array([1]));
    const { seen, fetchFn } = fakeMux();
    const config = { ...deps.config, MUX_TOKEN_ID: "id", MUX_TOKEN_SECRET: "secret", MUX_SIGNING_KEY_ID: "k1", MUX_SIGNING_KEY: "a2V5" };
    const job = { id: "j2", kind: "transcode", videoId: v.id, ownerId: owner.id, provider: "mux", payload: {} } as any;
    const run = { deps, job, signal: new AbortController().signal, deliver: fetchFn, renew: async () => true, checkpoint: async () => true };
    await muxProvider({ ...deps, config }, fetchFn).run(run as any);
    expect(JSON.parse(seen[0]!.body!).new_asset_settings.playback_policy).toEqual(["signed"]);
    await deps.db.delete(videos).where(eq(videos.id, v.id));
  });

  test("reconciliation reads the asset through its upload; a ready asset heals the video", async () => {
    const { deps } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const v = await insertVideo(owner.id, { provider: "mux", providerAssetId: "upload:up9" });
    const { fetchFn } = fakeMux({
      "GET /uploads/up9": { asset_id: "as9" },
      "GET /assets/as9": { id: "as9", status: "ready", duration: 7.5, max_stored_resolution: "SD" },
    });
    const mux = muxProvider(deps, fetchFn);
    const ev = await mux.status(deps, v);
    expect(ev).toMatchObject({ videoId: v.id, type: "ready", result: { durationSeconds: 7.5, renditions: ["360p"], assetId: "as9" } });
    expect(await applyProviderEvent(deps, "mux", ev!)).toBe("applied");
    expect(await videoRow(v.id)).toMatchObject({ status: "ready", providerAssetId: "as9" });
  });

  test("purging a trashed Mux video deletes its asset and its local objects", async () => {
    const { deps } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const v = await insertVideo(owner.id, { provider: "mux", providerAssetId: "as7", status: "ready" });
    await deps.storage.put(v.originalKey!, new Uint8Array([1]));
    const { seen, fetchFn } = fakeMux();
    const { purgeVideo } = await import("../../src/modules/videos/service.ts");
    const { trashVideo } = await import("../../src/modules/videos/trash.ts");
    await trashVideo(deps, owner.id, v.id);
    await purgeVideo(deps, owner.id, v.id);
    const [job] = await deps.db.select().from(transcodeJobs).where(eq(transcodeJobs.videoId, v.id));
    expect(job).toMatchObject({ kind: "delete", provider: "mux", payload: { assetId: "as7" } });
    const run = { deps, job, signal: new AbortController().signal, deliver: fetchFn, renew: async () => true, checkpoint: async () => true };
    await muxProvider(deps, fetchFn).run(run as any);
    // Done here: no worker of another test may take it to the real Mux.
    await deps.db.update(transcodeJobs).set({ state: "done" }).where(eq(transcodeJobs.id, job!.id));
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["DELETE https://api.mux.com/video/v1/assets/as7"]);
    expect(await deps.storage.read(v.originalKey!)).toBeNull();
  });

  /** Runs a claimed delete job with the stand-in, then marks it done (no worker of another test may take it to the real Mux). */
  async function runDelete(videoId: string, fake: ReturnType<typeof fakeMux>) {
    const { deps } = await testContext();
    const [job] = await deps.db
      .select()
      .from(transcodeJobs)
      .where(and(eq(transcodeJobs.videoId, videoId), eq(transcodeJobs.kind, "delete")));
    const run = { deps, job, signal: new AbortController().signal, deliver: fake.fetchFn, renew: async () => true, checkpoint: async () => true };
    await deps.db.update(transcodeJobs).set({ state: "done" }).where(eq(transcodeJobs.id, job!.id));
    await muxProvider(deps, fake.fetchFn).run(run as any);
    return job!;
  }

  test("a video deleted while Mux makes its asset: the asset its upload made is deleted, or the upload cancelled before it makes one", async () => {
    const { deps } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const { purgeVideo } = await import("../../src/modules/videos/service.ts");
    const { trashVideo } = await import("../../src/modules/videos/trash.ts");
    const deleteVideo = async (d: typeof deps, ownerId: string, id: string) => {
      await trashVideo(d, ownerId, id);
      await purgeVideo(d, ownerId, id);
    };

    const made = await insertVideo(owner.id, { provider: "mux", providerAssetId: "upload:up5" });
    await deleteVideo(deps, owner.id, made.id);
    const fake = fakeMux({ "GET /uploads/up5": { id: "up5", status: "asset_created", asset_id: "as5" } });
    expect((await runDelete(made.id, fake)).payload).toEqual({ uploadId: "up5" });
    expect(fake.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "GET https://api.mux.com/video/v1/uploads/up5",
      "DELETE https://api.mux.com/video/v1/assets/as5",
    ]);

    const waiting = await insertVideo(owner.id, { provider: "mux", providerAssetId: "upload:up6" });
    await deleteVideo(deps, owner.id, waiting.id);
    const fake2 = fakeMux({ "GET /uploads/up6": { id: "up6", status: "waiting" }, "PUT /uploads/up6/cancel": { id: "up6", status: "cancelled" } });
    await runDelete(waiting.id, fake2);
    expect(fake2.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "GET https://api.mux.com/video/v1/uploads/up6",
      "PUT https://api.mux.com/video/v1/uploads/up6/cancel",
    ]);
  });

  test("deleting an account deletes its Mux assets: shelf admin user delete queues a delete per video before the rows go", async () => {
    const { deps } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const ready = await insertVideo(owner.id, { provider: "mux", providerAssetId: "as8", status: "ready" });
    const pending = await insertVideo(owner.id, { provider: "mux", providerAssetId: "upload:up8" });
    await deps.storage.put(ready.originalKey!, new Uint8Array([1]));
    const done = await adminCli("user", "delete", "--email", owner.email, "--yes");
    expect(done.code).toBe(0);
    expect(done.out[0]).toContain("2 videos");
    expect(await videoRow(ready.id)).toBeUndefined();

    const fake = fakeMux({ "GET /uploads/up8": { id: "up8", status: "asset_created", asset_id: "as8b" } });
    expect(await runDelete(ready.id, fake)).toMatchObject({ ownerId: owner.id, payload: { assetId: "as8" } });
    expect(await runDelete(pending.id, fake)).toMatchObject({ payload: { uploadId: "up8" } });
    expect(fake.seen.filter((s) => s.method === "DELETE").map((s) => s.url)).toEqual([
      "https://api.mux.com/video/v1/assets/as8",
      "https://api.mux.com/video/v1/assets/as8b",
    ]);
    expect(await deps.storage.read(ready.originalKey!)).toBeNull();
  });
});
