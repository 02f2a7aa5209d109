// The embeddable player's page (CENTER_URL/embed/v/<id>, /embed/a/<id>) and oEmbed
// (GET /oembed): the page may be framed by any site while the dashboard may not, names its
// oEmbed URL, and holds no item data (its script reads the public item); oEmbed answers an
// <iframe> of it for a public video or audio file named by any of its URLs, scaled to the
// consumer's bounds, and 404 for a private or missing one. Playing in a frame on another
// origin: test/browser/hls.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { call, callJson } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { storedVideo } from "../videos/playback-fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const CENTER = "http://shelf.test";
const MEDIA = "http://shelf.test/media";
const oembed = (query: Record<string, string>) => callJson("GET", `/oembed?${new URLSearchParams(query)}`);

describe("the embeddable player and oEmbed", () => {
  test("the player page may be framed anywhere, loads only its script, names its oEmbed URL; the dashboard refuses framing; a path that names no item is 404", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id);
    const page = await call("GET", `/embed/v/${v.id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("frame-ancestors *");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("media-src blob: http://shelf.test");
    expect(page.headers.get("x-frame-options")).toBeNull();
    const html = await page.text();
    expect(html).toContain(`data-kind="video" data-id="${v.id}"`);
    expect(html).toContain(
      `<link rel="alternate" type="application/json+oembed" href="http://shelf.test/oembed?format=json&amp;url=${encodeURIComponent(`${CENTER}/embed/v/${v.id}`)}">`,
    );
    const script = /<script type="module" src="([^"]+)"><\/script>/.exec(html)![1]!;
    const js = await call("GET", script);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");

    const dashboard = await call("GET", "/");
    expect(dashboard.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(dashboard.headers.get("x-frame-options")).toBe("DENY");

    for (const path of ["/embed/x/abc", `/embed/v/${"a".repeat(200)}`, "/embed/v/not*an*id"]) expect((await call("GET", path)).status).toBe(404);
  });

  test("oEmbed of a public video by its player page or its playlist: an <iframe> of the player at 16:9 of its largest rendition, scaled down to maxwidth, never up", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id);
    const byPage = await oembed({ url: `${CENTER}/embed/v/${v.id}` });
    expect(byPage.status).toBe(200);
    expect(byPage.headers.get("content-type")).toStartWith("application/json");
    expect(byPage.body).toEqual({
      version: "1.0",
      type: "video",
      provider_name: "shelf",
      provider_url: CENTER,
      title: "clip",
      width: 1280,
      height: 720,
      thumbnail_url: `${MEDIA}/v/${v.id}/thumb.jpg`,
      html: `<iframe src="${CENTER}/embed/v/${v.id}" width="1280" height="720" title="clip" style="border:0" allow="fullscreen; picture-in-picture" allowfullscreen loading="lazy"></iframe>`,
    });
    const byPlaylist = await oembed({ url: `${MEDIA}/v/${v.id}/master.m3u8`, maxwidth: "640", format: "json" });
    expect(byPlaylist.body).toMatchObject({ width: 640, height: 360 });
    expect(byPlaylist.body.html).toContain('width="640" height="360"');
    expect((await oembed({ url: `${CENTER}/embed/v/${v.id}`, maxwidth: "5000", maxheight: "180" })).body).toMatchObject({ width: 320, height: 180 });
  });

  test("oEmbed of a public audio file is a rich <iframe> with its cover; a private, unready or missing item is 404, a URL of nothing here 404, another format 501, no url 422", async () => {
    const owner = await makeUser({ plan: "pro" });
    const up = await uploadAudio(owner.jwt, await fixture("mp3-cover"), "song.mp3");
    expect(up.status).toBe(201);
    const audio = up.body.data as { id: string; url: string; title: string; thumbnailUrl: string };
    const byFile = await oembed({ url: audio.url });
    expect(byFile.status).toBe(200);
    expect(byFile.body).toMatchObject({ type: "rich", title: audio.title, width: 480, height: 200, thumbnail_url: audio.thumbnailUrl });
    expect(byFile.body.html).toContain(`src="${CENTER}/embed/a/${audio.id}"`);

    const hidden = await storedVideo(owner.id, { isPublic: false });
    const processing = await storedVideo(owner.id, { status: "processing" });
    const privateAudio = (await uploadAudio(owner.jwt, await fixture("mp3-cover"), "secret.mp3", { isPublic: "false" })).body.data as {
      id: string;
      url: string;
    };
    for (const url of [
      `${CENTER}/embed/v/${hidden.id}`,
      `${MEDIA}/v/${hidden.id}/master.m3u8`,
      `${CENTER}/embed/v/${processing.id}`,
      privateAudio.url,
      `${CENTER}/embed/v/AAAAAAAAAAAAAAAAAAAAA`,
      "https://elsewhere.example/embed/v/AAAAAAAAAAAAAAAAAAAAA",
      `${CENTER}/v1/videos/${hidden.id}`,
    ]) {
      const res = await oembed({ url });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("NOT_FOUND");
    }
    const xml = await oembed({ url: audio.url, format: "xml" });
    expect(xml.status).toBe(501);
    expect(xml.body.code).toBe("NOT_IMPLEMENTED");
    expect((await callJson("GET", "/oembed")).status).toBe(422);
  });
});
