// Mux-hosted videos at the playback edge: made ready by Mux's signed webhook (its playback
// id kept), then the master playlist is a 302 to stream.mux.com after every check a local
// video gets (signature of a private video, bandwidth state, owner), degraded owners capped
// at 360p, and with a signing key a token Mux can verify (RS256, kid, sub, aud, exp).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { exportPKCS8, generateKeyPair, jwtVerify, decodeProtectedHeader } from "jose";
import { createApp } from "../../src/wiring/app.ts";
import type { Config } from "../../src/config.ts";
import { createPlaybackSigner } from "../../src/modules/videos/sign.ts";
import { createServices, type Services } from "../../src/wiring/services.ts";
import type { Clock } from "../../src/infra/clock.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { insertVideo, videoRow } from "./fixtures.ts";
import { addMediaBandwidth } from "./playback-fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const SECRET = "mux-signing-secret-for-tests";
const opened: Services[] = [];
afterAll(() => Promise.all(opened.map((s) => s.close())));

type App = { handle(r: Request): Promise<Response> };

async function muxApp(extra: Partial<Config> = {}, clock?: Clock): Promise<App> {
  const { deps } = await testContext();
  const services = createServices({ ...deps, clock: clock ?? deps.clock, config: { ...deps.config, MUX_WEBHOOK_SECRET: SECRET, ...extra } });
  opened.push(services);
  return createApp(services);
}

/** A Mux video of a new owner, made ready by Mux's video.asset.ready webhook carrying `playbackId`. */
async function readyMuxVideo(app: App, opts: { isPublic?: boolean; playbackId?: string } = {}) {
  const { deps } = await testContext();
  const owner = await makeUser({ plan: "pro" });
  const v = await insertVideo(owner.id, { provider: "mux", providerAssetId: "upload:u1", isPublic: opts.isPublic ?? true });
  const playbackId = opts.playbackId ?? `pb${v.id}`;
  const body = JSON.stringify({
    type: "video.asset.ready",
    object: { type: "asset", id: `as-${v.id}` },
    id: `ev-${v.id}`,
    data: {
      id: `as-${v.id}`,
      status: "ready",
      duration: 12,
      max_stored_resolution: "HD",
      passthrough: v.id,
      playback_ids: [{ policy: "signed", id: playbackId }],
    },
  });
  const t = Math.floor(deps.clock.nowMs() / 1000);
  const sig = `t=${t},v1=${createHmac("sha256", SECRET).update(`${t}.${body}`).digest("hex")}`;
  const res = await app.handle(new Request("http://shelf.test/webhooks/mux", { method: "POST", headers: { "mux-signature": sig }, body }));
  expect(res.status).toBe(200);
  expect(await videoRow(v.id)).toMatchObject({ status: "ready", providerPlaybackId: playbackId });
  return { id: v.id, owner, playbackId };
}

async function play(app: App, id: string, file: string, headers: Record<string, string> = {}) {
  const { config } = await testContext();
  return app.handle(new Request(`${config.MEDIA_URL}/v/${id}/${file}`, { headers }));
}

describe("Mux playback at the edge (public playback ids)", () => {
  test("the master playlist is a 302 to stream.mux.com, not cached; variants and segments are Mux's (404 here); the poster goes to image.mux.com", async () => {
    const { config } = await testContext();
    const app = await muxApp();
    const v = await readyMuxVideo(app);
    const res = await play(app, v.id, "master.m3u8");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`https://stream.mux.com/${v.playbackId}.m3u8`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    // A player on another origin follows the redirect only when it too allows the origin.
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    for (const file of ["360p/index.m3u8", "720p/seg_00000.ts", "direct.mp4"]) expect((await play(app, v.id, file)).status).toBe(404);
    const thumb = await play(app, v.id, "thumb.jpg");
    expect(thumb.status).toBe(302);
    expect(thumb.headers.get("location")).toBe(`https://image.mux.com/${v.playbackId}/thumbnail.jpg?time=5`);
    // The API names that poster as the video's thumbnail_url, in its detail and in the list.
    const detail = await callJson("GET", `/v1/videos/${v.id}`, { token: v.owner.jwt });
    expect(detail.body.data).toMatchObject({
      thumbnail_url: `${config.MEDIA_URL}/v/${v.id}/thumb.jpg`,
      playback_url: `${config.MEDIA_URL}/v/${v.id}/master.m3u8`,
    });
    const listed = await callJson("GET", "/v1/videos", { token: v.owner.jwt });
    expect(listed.body.data.items[0].thumbnail_url).toBe(`${config.MEDIA_URL}/v/${v.id}/thumb.jpg`);
  });

  test("a degraded owner gets max_resolution=360p; a suspended one 451 BANDWIDTH_SUSPENDED", async () => {
    const { deps } = await testContext();
    const app = await muxApp();
    const degraded = await readyMuxVideo(app);
    await addMediaBandwidth(degraded.owner.id, deps.plans.pro.mediaBandwidthBytes + 1);
    const res = await play(app, degraded.id, "master.m3u8");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`https://stream.mux.com/${degraded.playbackId}.m3u8?max_resolution=360p`);

    const suspended = await readyMuxVideo(app);
    await addMediaBandwidth(suspended.owner.id, Math.ceil(deps.plans.pro.mediaBandwidthBytes * 1.2) + 1);
    const refused = await play(app, suspended.id, "master.m3u8");
    expect(refused.status).toBe(451);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await refused.json()).toMatchObject({ success: false, code: "BANDWIDTH_SUSPENDED" });
  });

  test("a private Mux video: 403 without our signature or with one of another video, 302 with its own", async () => {
    const { deps, config } = await testContext();
    const app = await muxApp();
    const v = await readyMuxVideo(app, { isPublic: false });
    const other = await readyMuxVideo(app, { isPublic: false });
    const signer = createPlaybackSigner(config.JWT_SECRET);
    const until = Math.floor(deps.clock.nowMs() / 1000) + 600;
    const bare = await play(app, v.id, "master.m3u8");
    expect(bare.status).toBe(403);
    expect(await bare.json()).toMatchObject({ success: false, code: "FORBIDDEN" });
    expect((await play(app, v.id, `${signer.token(other.id, until)}/master.m3u8`)).status).toBe(403);
    // Another user's credential opens nothing either.
    expect((await play(app, v.id, "master.m3u8", { authorization: `Bearer ${other.owner.jwt}` })).status).toBe(403);
    const ok = await play(app, v.id, `${signer.token(v.id, until)}/master.m3u8`);
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe(`https://stream.mux.com/${v.playbackId}.m3u8`);
  });
});

describe("Mux playback with a signing key", () => {
  test("the redirect carries an RS256 token Mux verifies: kid, sub = playback id, aud v/t, exp from our signature or 1 h, max_resolution when degraded", async () => {
    const { deps, config } = await testContext();
    const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
    const pem = await exportPKCS8(privateKey);
    // Stopped: the token's exp is "now + 1 h" in whole seconds, and a second may turn
    // between this test reading the time and the edge doing so.
    const clock = stoppedClock();
    const app = await muxApp({ MUX_SIGNING_KEY_ID: "kid-test", MUX_SIGNING_KEY: Buffer.from(pem).toString("base64") } as Partial<Config>, clock);
    const nowS = Math.floor(clock.nowMs() / 1000);
    const tokenOf = (res: Response, base: string) => {
      const location = res.headers.get("location")!;
      expect(location.startsWith(`${base}?token=`)).toBe(true);
      return new URL(location).searchParams.get("token")!;
    };
    const verify = (token: string, aud: string) => jwtVerify(token, publicKey, { audience: aud, currentDate: clock.now() });

    const v = await readyMuxVideo(app);
    const res = await play(app, v.id, "master.m3u8");
    expect(res.status).toBe(302);
    const token = tokenOf(res, `https://stream.mux.com/${v.playbackId}.m3u8`);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "RS256", kid: "kid-test" });
    const { payload } = await verify(token, "v");
    expect(payload).toEqual({ sub: v.playbackId, aud: "v", exp: nowS + 3600 });

    const thumb = await play(app, v.id, "thumb.jpg");
    const t = await verify(tokenOf(thumb, `https://image.mux.com/${v.playbackId}/thumbnail.jpg`), "t");
    expect(t.payload).toMatchObject({ sub: v.playbackId, aud: "t", time: "5" });

    // A private video: the token lives as long as our signature does.
    const priv = await readyMuxVideo(app, { isPublic: false });
    await addMediaBandwidth(priv.owner.id, deps.plans.pro.mediaBandwidthBytes + 1);
    const signed = createPlaybackSigner(config.JWT_SECRET).token(priv.id, nowS + 300);
    const p = await verify(tokenOf(await play(app, priv.id, `${signed}/master.m3u8`), `https://stream.mux.com/${priv.playbackId}.m3u8`), "v");
    expect(p.payload).toEqual({ sub: priv.playbackId, aud: "v", exp: nowS + 300, max_resolution: "360p" });
    // A key other than ours does not verify it.
    const stranger = await generateKeyPair("RS256");
    await expect(jwtVerify(token, stranger.publicKey, { currentDate: clock.now() })).rejects.toThrow();
  });
});
