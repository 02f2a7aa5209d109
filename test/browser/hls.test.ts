// A player on another site plays a video from the media edge: a page served from a second
// origin (another port) runs hls.js in Chromium against the playback_url of a video the
// local provider transcoded. With the edge's default CORS it parses the manifest and
// buffers a fragment, and a Range request with a validator (which needs a preflight) reads the
// exposed headers; against an edge with MEDIA_CORS_ORIGINS=none the same player fails
// with manifestLoadError, as every player did before the edge sent CORS headers.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { createApp } from "../../src/wiring/app.ts";
import { createServices, type Services } from "../../src/wiring/services.ts";
import { addressesFromRequest, callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { clip, drain, testWorker, uploadVideo } from "../videos/fixtures.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

/** hls.js as published (a pinned devDependency), served by the page's own server. */
const HLS_JS = Bun.file(Bun.fileURLToPath(import.meta.resolve("hls.js/dist/hls.min.js")));

/**
 * The player page: hls.js on a <video>, every event it reports kept in `window.seen`, then
 * (once a fragment is in) a fetch of the first segment with Range and If-None-Match, as a
 * player revalidating a cached fragment would send: not a simple request, so the browser
 * sends the preflight first.
 */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>player</title><script src="/hls.js"></script></head>
<body><video id="v" muted playsinline></video>
<script>
  const seen = (window.seen = []);
  const src = new URLSearchParams(location.search).get("src");
  const hls = new Hls({ enableWorker: false });
  hls.on(Hls.Events.MANIFEST_PARSED, (_, d) => seen.push({ type: "manifest", levels: d.levels.length }));
  hls.on(Hls.Events.FRAG_LOADED, (_, d) => {
    seen.push({ type: "fragment", url: d.frag.url, bytes: d.payload.byteLength });
    if (seen.filter((e) => e.type === "fragment").length > 1) return;
    fetch(d.frag.url, { headers: { range: "bytes=0-187", "if-none-match": '"stale"' } })
      .then(async (r) => seen.push({ type: "range", status: r.status, contentRange: r.headers.get("content-range"), etag: r.headers.get("etag"), bytes: (await r.arrayBuffer()).byteLength }))
      .catch((e) => seen.push({ type: "range", error: String(e) }));
  });
  hls.on(Hls.Events.FRAG_BUFFERED, (_, d) => seen.push({ type: "buffered", sn: d.frag.sn }));
  hls.on(Hls.Events.ERROR, (_, d) => seen.push({ type: "error", details: d.details, fatal: d.fatal }));
  hls.loadSource(src);
  hls.attachMedia(document.getElementById("v"));
</script></body></html>`;

/**
 * The captions page: hls.js on a <video>, showing the first subtitle track once the master
 * names it; `window.cues` gets the cues the browser holds for it, as the viewer sees them.
 */
const CAPTIONS_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>captions</title><script src="/hls.js"></script></head>
<body><video id="v" muted playsinline></video>
<script>
  const seen = (window.seen = []);
  const video = document.getElementById("v");
  const hls = new Hls({ enableWorker: false });
  hls.on(Hls.Events.SUBTITLE_TRACKS_UPDATED, (_, d) => {
    seen.push({ type: "tracks", tracks: d.subtitleTracks.map((t) => ({ lang: t.lang, name: t.name })) });
  });
  // As a viewer turns captions on in the player's menu: the track shows, and hls.js loads it.
  video.textTracks.addEventListener("addtrack", (e) => (e.track.mode = "showing"));
  hls.on(Hls.Events.ERROR, (_, d) => seen.push({ type: "error", details: d.details, fatal: d.fatal }));
  window.firstFrame = () => (video.buffered.length ? video.buffered.start(0) : null);
  window.cues = () => [...video.textTracks].flatMap((t) => [...(t.cues || [])].map((c) => ({ lang: t.language, text: c.text, start: c.startTime, end: c.endTime })));
  hls.loadSource(new URLSearchParams(location.search).get("src"));
  hls.attachMedia(video);
</script></body></html>`;

type Seen = { type: string; [k: string]: unknown };

describe.skipIf(!executable)("hls.js on another origin plays from the media edge", () => {
  let browser: Browser;
  let page: ReturnType<typeof Bun.serve>;
  const servers: { stop(force?: boolean): unknown }[] = [];
  const opened: Services[] = [];
  let playbackPath: string;
  let videoId: string;
  let videoTitle: string;
  let ownerKey: string;

  /**
   * The app on the shared parts with `mediaCorsOrigins`, listening on a port of its own: its
   * origin. `atItsAddress`: PUBLIC_URL unset, so the URLs it hands out are of that origin.
   */
  async function edgeServer(mediaCorsOrigins?: readonly string[], atItsAddress = false): Promise<string> {
    const { deps, services: shared } = await testContext();
    let services = shared;
    if (mediaCorsOrigins || atItsAddress) {
      const config = { ...deps.config, ...(mediaCorsOrigins && { mediaCorsOrigins }) };
      services = createServices({ ...deps, config: atItsAddress ? addressesFromRequest(config) : config });
      opened.push(services);
    }
    const app = createApp(services).listen({ port: 0, hostname: "127.0.0.1" });
    servers.push(app);
    return app.server!.url.origin;
  }

  beforeAll(async () => {
    const { deps } = await testContext();
    // A short clip through the local provider (real ffmpeg), as an upload is made playable.
    const { key } = await makeClient({ plan: "pro" });
    const up = await uploadVideo(key, await clip({ seconds: 2 }));
    expect(up.status).toBe(201);
    await drain(await testWorker());
    const v = (await callJson("GET", `/v1/videos/${up.body.data.id}`, { token: key })).body.data;
    expect(v.status).toBe("ready");
    playbackPath = new URL(v.playback_url).pathname;
    videoId = v.id;
    videoTitle = v.title;
    ownerKey = key;
    expect(v.playback_url).toBe(`${deps.config.MEDIA_URL}/v/${v.id}/master.m3u8`);

    page = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      routes: {
        "/": new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
        "/hls.js": new Response(await HLS_JS.arrayBuffer(), { headers: { "content-type": "text/javascript" } }),
        "/captions": new Response(CAPTIONS_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
        // Another site framing a page it names: the embeddable player, or the dashboard.
        "/frame": (req) => {
          const src = new URL(req.url).searchParams.get("src") ?? "";
          const attr = src.replaceAll("&", "&amp;").replaceAll('"', "&quot;");
          return new Response(
            `<!doctype html><html><head><meta charset="utf-8"><title>frame</title></head><body><iframe src="${attr}" width="640" height="360"></iframe></body></html>`,
            {
              headers: { "content-type": "text/html; charset=utf-8" },
            },
          );
        },
      },
    });
    browser = await chromium.launch({ executablePath: executable!, args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"] });
  }, SLOW);

  afterAll(async () => {
    await browser?.close();
    page?.stop(true);
    for (const s of servers) void s.stop(true);
    await Promise.all(opened.map((s) => s.close()));
  }, SLOW);

  /**
   * Opens the player page on `src` and waits until hls.js has a fragment in the video's
   * buffer and the Range fetch answered, or until something failed for good.
   */
  async function play(src: string): Promise<Seen[]> {
    const context = await browser.newContext();
    context.setDefaultTimeout(SLOW / 2);
    try {
      const tab = await context.newPage();
      await tab.goto(`${page.url.origin}/?src=${encodeURIComponent(src)}`);
      await tab.waitForFunction(() => {
        const seen = (window as unknown as { seen: Seen[] }).seen;
        return (seen.some((e) => e.type === "range") && seen.some((e) => e.type === "buffered")) || seen.some((e) => e.type === "error" && e.fatal);
      });
      return await tab.evaluate(() => (window as unknown as { seen: Seen[] }).seen);
    } finally {
      await context.close();
    }
  }

  test(
    "with the default (Access-Control-Allow-Origin: *): MANIFEST_PARSED, a fragment loaded into the video's buffer, and a preflighted Range read with its Content-Range",
    async () => {
      const edge = await edgeServer();
      expect(edge).not.toBe(page.url.origin);
      const seen = await play(`${edge}${playbackPath}`);
      expect(seen.filter((e) => e.type === "error" && e.fatal)).toEqual([]);
      expect(seen.find((e) => e.type === "manifest")).toMatchObject({ levels: expect.any(Number) });
      const fragment = seen.find((e) => e.type === "fragment")!;
      expect(fragment.url).toStartWith(`${edge}${playbackPath.replace(/master\.m3u8$/, "")}`);
      expect(fragment.bytes).toBeGreaterThan(0);
      // Transmuxed and appended to the video's source buffer: the bytes are a stream it plays.
      expect(seen.some((e) => e.type === "buffered")).toBe(true);
      const range = seen.find((e) => e.type === "range")!;
      expect(range).toMatchObject({ status: 206, bytes: 188, etag: expect.stringMatching(/^".+"$/) });
      expect(range.contentRange).toMatch(/^bytes 0-187\/\d+$/);
    },
    SLOW,
  );

  test(
    "with MEDIA_CORS_ORIGINS=none the same player cannot read the manifest (manifestLoadError)",
    async () => {
      const edge = await edgeServer([]);
      const seen = await play(`${edge}${playbackPath}`);
      expect(seen.find((e) => e.type === "error" && e.fatal)).toMatchObject({ details: "manifestLoadError" });
      expect(seen.some((e) => e.type === "manifest" || e.type === "fragment")).toBe(false);
    },
    SLOW,
  );

  test(
    "captions uploaded as SRT are a subtitle track hls.js offers by language and name, and the browser holds their cues at their times",
    async () => {
      const srt = "1\n00:00:00,200 --> 00:00:00,900\nHello there\n\n2\n00:00:01,000 --> 00:00:01,800\nGeneral Kenobi\n";
      const put = await callJson("PUT", `/v1/videos/${videoId}/captions/en`, {
        token: ownerKey,
        body: srt,
        headers: { "content-type": "application/x-subrip" },
      });
      expect(put.status).toBe(201);
      const edge = await edgeServer();
      const context = await browser.newContext();
      context.setDefaultTimeout(SLOW / 2);
      try {
        const tab = await context.newPage();
        await tab.goto(`${page.url.origin}/captions?src=${encodeURIComponent(`${edge}${playbackPath}`)}`);
        await tab.waitForFunction(
          () =>
            ((window as unknown as { cues: () => unknown[] }).cues().length >= 2 &&
              (window as unknown as { firstFrame: () => number | null }).firstFrame() !== null) ||
            (window as unknown as { seen: Seen[] }).seen.some((e) => e.type === "error" && e.fatal),
        );
        const seen = await tab.evaluate(() => (window as unknown as { seen: Seen[] }).seen);
        expect(seen.filter((e) => e.type === "error")).toEqual([]);
        expect(seen.find((e) => e.type === "tracks")).toEqual({ type: "tracks", tracks: [{ lang: "en", name: "English" }] });
        const cues = await tab.evaluate(() => (window as unknown as { cues: () => { text: string; start: number; end: number }[] }).cues());
        expect(cues.map((c) => c.text)).toEqual(["Hello there", "General Kenobi"]);
        // A cue's time is the video's own: counted from where the player starts the picture
        // (the segments' clock starts at 1.4 s and the encoder's delay; the file's
        // X-TIMESTAMP-MAP says so), within a frame at 15 fps.
        const first = await tab.evaluate(() => (window as unknown as { firstFrame: () => number }).firstFrame());
        console.info(`captions: picture from ${first.toFixed(3)} s; cues ${cues.map((c) => `${c.start.toFixed(3)}-${c.end.toFixed(3)}`).join(", ")}`);
        expect(Math.abs(cues[0]!.start - first - 0.2)).toBeLessThan(1 / 15);
        expect(Math.abs(cues[1]!.start - first - 1.0)).toBeLessThan(1 / 15);
        expect(Math.abs(cues[1]!.end - first - 1.8)).toBeLessThan(1 / 15);
      } finally {
        await context.close();
      }
    },
    SLOW,
  );

  test(
    "the embeddable player plays in a frame on another origin (hls.js parses the manifest); the dashboard in a frame is refused",
    async () => {
      const edge = await edgeServer(undefined, true);
      const embed = `${edge}/embed/v/${videoId}`;
      const context = await browser.newContext();
      context.setDefaultTimeout(SLOW / 2);
      try {
        const tab = await context.newPage();
        await tab.goto(`${page.url.origin}/frame?src=${encodeURIComponent(embed)}`);
        const frame = tab.frameLocator("iframe");
        await frame.locator("video[data-manifest=parsed]").waitFor({ state: "attached" });
        // Named by the video's title, as a screen reader announces it.
        await expect(frame.locator("video").getAttribute("aria-label")).resolves.toBe(videoTitle);
        const shot = join(mkdtempSync(join(tmpdir(), "shelf-embed-")), "embed-in-frame.png");
        await tab.screenshot({ path: shot });
        console.info(`screenshot: ${shot}`);

        // The dashboard keeps frame-ancestors 'none': its frame holds no page of it.
        await tab.goto(`${page.url.origin}/frame?src=${encodeURIComponent(`${edge}/`)}`);
        await tab.waitForFunction(() => document.querySelector("iframe") !== null);
        const framed = tab.frames().find((f) => f !== tab.mainFrame());
        await expect(framed!.evaluate(() => document.getElementById("app") !== null).catch(() => false)).resolves.toBe(false);
      } finally {
        await context.close();
      }
    },
    SLOW,
  );
});
