// CORS on the media edge: a player or page on another origin reads public media (images,
// audio, playlists, segments, thumbnails) and the edge's refusals; its preflight for a
// Range is answered; MEDIA_CORS_ORIGINS narrows the origins or turns CORS off; a private
// video stays behind its signature whatever CORS says. The browser side: test/browser/hls.test.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import type { MediaCorsOrigins } from "../../src/modules/edge/cors-origins.ts";
import { createPlaybackSigner } from "../../src/modules/videos/sign.ts";
import { createServices, type Services } from "../../src/wiring/services.ts";
import { call, type CallOptions, callJson, testContext, testEnv } from "../helpers/context.ts";
import { makeClient, makeUser } from "../helpers/factories.ts";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { storedVideo } from "../videos/playback-fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const PLAYER = "https://player.example";
const EXPOSED = ["Content-Length", "Content-Range", "Accept-Ranges", "ETag", "X-Request-Id"];

const opened: Services[] = [];
afterAll(() => Promise.all(opened.map((s) => s.close())));

/** GET (or `method`) of a media URL through the shared app, held to the OpenAPI document. */
const edge = (url: string, headers: Record<string, string> = {}, method = "GET", opts: CallOptions = {}) =>
  call(method, new URL(url).pathname, { ...opts, headers });

/** The preflight Chromium sends before a GET with Range (hls.js loads fragments by range). */
const preflight = (url: string, origin = PLAYER, opts: CallOptions = {}) =>
  edge(url, { origin, "access-control-request-method": "GET", "access-control-request-headers": "range,if-none-match" }, "OPTIONS", opts);

/** An app on the shared parts with MEDIA_CORS_ORIGINS read from `raw` as the config loader reads it. */
async function appWith(raw: string): Promise<{ app: CallOptions["app"]; origins: MediaCorsOrigins }> {
  const { deps } = await testContext();
  const { mediaCorsOrigins } = loadConfig(testEnv({ MEDIA_CORS_ORIGINS: raw }));
  const services = createServices({ ...deps, config: { ...deps.config, mediaCorsOrigins } });
  opened.push(services);
  return { app: createApp(services), origins: mediaCorsOrigins };
}

function expectOpen(res: Response, what: string) {
  expect(res.headers.get("access-control-allow-origin"), what).toBe("*");
  const exposed = (res.headers.get("access-control-expose-headers") ?? "").split(",").map((h) => h.trim().toLowerCase());
  for (const h of EXPOSED) expect(exposed, `${what}: exposes ${h}`).toContain(h.toLowerCase());
  // The same answer for every origin: nothing for a cache to key on.
  expect(res.headers.get("vary") ?? "", what).not.toContain("Origin");
}

async function publicVideo() {
  const owner = await makeUser({ plan: "pro" });
  const v = await storedVideo(owner.id);
  const detail = await callJson("GET", `/v1/videos/${v.id}`, { token: owner.jwt });
  expect(detail.status).toBe(200);
  return { ...v, owner, ...(detail.body.data as { playback_url: string; thumbnail_url: string }) };
}

describe("public media answers any origin (MEDIA_CORS_ORIGINS=*, the default)", () => {
  test("an image: 200, 206 for a Range, 304 for its ETag, and HEAD carry Access-Control-Allow-Origin: * and expose the range and validator headers", async () => {
    const { key } = await makeClient();
    const img = await uploaded(key, await png());
    const whole = await edge(img.url, { origin: PLAYER, accept: "*/*" });
    expect(whole.status).toBe(200);
    expectOpen(whole, "200");
    // Images negotiate WebP: Vary stays Accept, and only Accept.
    expect(whole.headers.get("vary")).toBe("Accept");
    const part = await edge(img.url, { origin: PLAYER, accept: "*/*", range: "bytes=0-9" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-9/${img.size}`);
    expectOpen(part, "206");
    const again = await edge(img.url, { origin: PLAYER, accept: "*/*", "if-none-match": whole.headers.get("etag")! });
    expect(again.status).toBe(304);
    expectOpen(again, "304");
    expectOpen(await edge(img.url, { origin: PLAYER }, "HEAD"), "HEAD");
    // Sent whether or not the request names an origin, so a CDN keeps one answer for all.
    expectOpen(await edge(img.url, { accept: "*/*" }), "no Origin");
  });

  test("audio and its thumbnail", async () => {
    const owner = await makeUser();
    const a = (await uploadAudio(owner.jwt, await fixture("mp3"), "tone.mp3")).body.data as { url: string; thumbnailUrl: string };
    const file = await edge(a.url, { origin: PLAYER, range: "bytes=0-99" });
    expect(file.status).toBe(206);
    expectOpen(file, "audio");
    const thumb = await edge(a.thumbnailUrl, { origin: PLAYER });
    expect(thumb.status).toBe(200);
    expectOpen(thumb, "audio thumbnail");
  });

  test("a video's master and variant playlists, a segment (whole and by range) and its thumbnail", async () => {
    const v = await publicVideo();
    const base = v.playback_url.replace(/master\.m3u8$/, "");
    for (const [what, url, headers] of [
      ["master", v.playback_url, {}],
      ["variant", `${base}360p/index.m3u8`, {}],
      ["segment", `${base}360p/seg_00000.ts`, {}],
      ["segment range", `${base}360p/seg_00000.ts`, { range: "bytes=0-187" }],
      ["thumbnail", v.thumbnail_url, {}],
    ] as const) {
      const res = await edge(url, { origin: PLAYER, ...headers });
      expect(res.status, what).toBe("range" in headers ? 206 : 200);
      expectOpen(res, what);
    }
  });

  test("the edge's refusals carry it too, so a player reads why: 404 of an unknown object, of a path no kind serves, of a private image", async () => {
    const { config } = await testContext();
    const { key } = await makeClient();
    const hidden = await uploaded(key, await png(), { is_public: "false" });
    for (const url of [`${config.MEDIA_URL}/AAAAAAAAAAA.png`, `${config.MEDIA_URL}/no/such/thing`, hidden.url]) {
      const res = await edge(url, { origin: PLAYER });
      expect(res.status, url).toBe(404);
      expect(res.headers.get("cache-control"), url).toBe("no-store");
      expectOpen(res, url);
      expect(await res.json()).toMatchObject({ success: false, code: "NOT_FOUND" });
    }
  });

  test("the preflight for a Range: 204 allowing GET and HEAD with Range, If-None-Match and the other validators, kept for a day; no lookup", async () => {
    const { key } = await makeClient();
    const img = await uploaded(key, await png());
    const res = await preflight(img.url);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const methods = res.headers
      .get("access-control-allow-methods")!
      .split(",")
      .map((m) => m.trim());
    expect(methods).toEqual(expect.arrayContaining(["GET", "HEAD", "OPTIONS"]));
    const allowed = res.headers
      .get("access-control-allow-headers")!
      .split(",")
      .map((h) => h.trim().toLowerCase());
    expect(allowed).toEqual(expect.arrayContaining(["range", "if-none-match", "if-modified-since", "if-range"]));
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThanOrEqual(600);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    // Any path a kind serves is answered without asking whether the object exists...
    const { config } = await testContext();
    expect((await preflight(`${config.MEDIA_URL}/AAAAAAAAAAA.png`)).status).toBe(204);
    // ...and a path no kind serves is the same 404 as its GET.
    const none = await preflight(`${config.MEDIA_URL}/no/such/thing`);
    expect(none.status).toBe(404);
    expect(none.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("on a listening server (Bun's routes, no Elysia in front)", () => {
  let server: ReturnType<ReturnType<typeof createApp>["listen"]>;
  let origin: string;
  beforeAll(async () => {
    const { services } = await testContext();
    server = createApp(services).listen({ port: 0, hostname: "127.0.0.1" });
    origin = server.server!.url.origin;
  });
  afterAll(() => void server?.stop(true));

  test("the preflight passes whatever runs before routes, and the GET that follows it is readable", async () => {
    const v = await publicVideo();
    const url = `${origin}${new URL(v.playback_url).pathname.replace(/master\.m3u8$/, "360p/seg_00000.ts")}`;
    const pre = await fetch(url, {
      method: "OPTIONS",
      headers: { origin: PLAYER, "access-control-request-method": "GET", "access-control-request-headers": "range" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-headers")).toContain("Range");
    const res = await fetch(url, { headers: { origin: PLAYER, range: "bytes=0-187" } });
    expect(res.status).toBe(206);
    expect((await res.arrayBuffer()).byteLength).toBe(188);
    expectOpen(res, "segment");
    const missing = await fetch(`${origin}${new URL(v.playback_url).pathname.replace(v.id, "AAAAAAAAAAAAAAAAAAAAA")}`, { headers: { origin: PLAYER } });
    expect(missing.status).toBe(404);
    expectOpen(missing, "404");
  });

  test("the API is not part of it: its Bearer routes answer any origin with no credentials, its cookie routes none (http/cors.ts)", async () => {
    const res = await fetch(`${origin}/v1/images`, { headers: { origin: PLAYER } });
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    const cookie = await fetch(`${origin}/v1/auth/refresh`, { method: "POST", headers: { origin: PLAYER } });
    expect(cookie.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("a private video stays behind its signature, CORS or not", () => {
  test("without a signature, or with a tampered or another video's, 403 (readable by the player); with its own, 200", async () => {
    const { deps, config } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id, { isPublic: false });
    const other = await storedVideo(owner.id, { isPublic: false });
    const signer = createPlaybackSigner(config.JWT_SECRET);
    const until = Math.floor(deps.clock.nowMs() / 1000) + 600;
    const good = signer.token(v.id, until);
    const base = `${config.MEDIA_URL}/v/${v.id}`;
    // The preflight is answered (it says nothing of the video); the GET is what is guarded.
    expect((await preflight(`${base}/master.m3u8`)).status).toBe(204);
    for (const path of ["master.m3u8", "360p/seg_00000.ts", `${good.slice(0, -2)}xx/master.m3u8`, `${signer.token(other.id, until)}/master.m3u8`]) {
      const res = await edge(`${base}/${path}`, { origin: PLAYER });
      expect(res.status, path).toBe(403);
      expect(await res.json()).toMatchObject({ success: false, code: "FORBIDDEN" });
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
    }
    const ok = await edge(`${base}/${good}/360p/seg_00000.ts`, { origin: PLAYER, range: "bytes=0-187" });
    expect(ok.status).toBe(206);
    expect(ok.headers.get("cache-control")).toBe("private, no-cache");
    expectOpen(ok, "signed segment");
  });
});

describe("MEDIA_CORS_ORIGINS narrows the origins", () => {
  test("a listed origin is echoed with Vary: Origin; an unlisted one or none gets no CORS header; Vary: Origin either way", async () => {
    const { app, origins } = await appWith(`${PLAYER}, http://LOCALHOST:3000/`);
    expect(origins).toEqual([PLAYER, "http://localhost:3000"]);
    const { key } = await makeClient();
    const img = await uploaded(key, await png());
    const v = await publicVideo();
    for (const url of [img.url, v.playback_url]) {
      for (const listed of [PLAYER, "http://localhost:3000"]) {
        const res = await edge(url, { origin: listed, accept: "*/*" }, "GET", { app });
        expect(res.status, url).toBe(200);
        expect(res.headers.get("access-control-allow-origin"), url).toBe(listed);
        expect(res.headers.get("access-control-expose-headers"), url).toContain("Content-Range");
        expect(res.headers.get("vary"), url).toContain("Origin");
      }
      for (const stranger of ["https://elsewhere.example", "https://player.example.evil", "null"]) {
        const res = await edge(url, { origin: stranger, accept: "*/*" }, "GET", { app });
        expect(res.status, url).toBe(200);
        expect(res.headers.get("access-control-allow-origin"), `${url} ${stranger}`).toBeNull();
        expect(res.headers.get("access-control-expose-headers"), url).toBeNull();
        expect(res.headers.get("vary"), url).toContain("Origin");
      }
      const bare = await edge(url, { accept: "*/*" }, "GET", { app });
      expect(bare.headers.get("access-control-allow-origin")).toBeNull();
    }
    // An image keeps its own Vary beside the policy's.
    expect((await edge(img.url, { origin: PLAYER }, "GET", { app })).headers.get("vary")).toBe("Accept, Origin");
    // Refusals follow the same rule.
    const missing = await edge(img.url.replace(img.id, "AAAAAAAAAAA"), { origin: PLAYER }, "GET", { app });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe(PLAYER);
    const pre = await preflight(img.url, PLAYER, { app });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe(PLAYER);
    expect(pre.headers.get("access-control-allow-headers")).toContain("Range");
    const refused = await preflight(img.url, "https://elsewhere.example", { app });
    expect(refused.status).toBe(204);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect(refused.headers.get("access-control-allow-methods")).toBeNull();
  });

  test("none: no CORS header on any answer, the preflight allows nothing", async () => {
    const { app, origins } = await appWith("none");
    expect(origins).toEqual([]);
    const { key } = await makeClient();
    const img = await uploaded(key, await png());
    const res = await edge(img.url, { origin: PLAYER, accept: "*/*" }, "GET", { app });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("vary")).toBe("Accept");
    const pre = await preflight(img.url, PLAYER, { app });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("the setting is checked at start: only *, none or a list of origins (scheme, host, port), each problem named", () => {
    const env = (v?: string) => ({ ...testEnv(), MEDIA_CORS_ORIGINS: v });
    expect(loadConfig(env()).mediaCorsOrigins).toBe("*");
    expect(loadConfig(env(" * ")).mediaCorsOrigins).toBe("*");
    expect(loadConfig(env("NONE")).mediaCorsOrigins).toEqual([]);
    expect(loadConfig(env("https://a.example:8443,https://a.example:8443,https://B.example:443")).mediaCorsOrigins).toEqual([
      "https://a.example:8443",
      "https://b.example",
    ]);
    for (const bad of [
      "https://a.example/player",
      "https://a.example?x=1",
      "ftp://a.example",
      "a.example",
      "*, https://a.example",
      "none,https://a.example",
      ",",
      "https://u:p@a.example",
    ]) {
      let problem: unknown;
      try {
        loadConfig(env(bad));
      } catch (e) {
        problem = e;
      }
      expect(problem, bad).toBeInstanceOf(ConfigError);
      expect((problem as ConfigError).problems.join("\n"), bad).toContain("MEDIA_CORS_ORIGINS");
    }
  });
});
