// A link's anonymous page (CENTER_URL/s/<token>): what it opens, for each kind of target,
// with Open Graph tags and oEmbed discovery; its media through URLs of the link only, so a
// private item shows there and nowhere else; a password asked once per browser; an expired
// or revoked link (and its media) closed at once; its view count.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { PNG, storedFile, upsertFile } from "../kbs/file-fixtures.ts";
import { newKb } from "../kbs/fixtures.ts";
import { pushed2 } from "../kbs/v2-fixtures.ts";
import { storedVideo } from "../videos/playback-fixtures.ts";
import { CENTER, markdownDoc, pathOf, privateImage, shared } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const page = (url: string, headers: Record<string, string> = {}) => call("GET", pathOf(url), { headers });
const media = (url: string, headers: Record<string, string> = {}) => call("GET", new URL(url).pathname + new URL(url).search, { headers });
const meta = (html: string, property: string) => new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(html)?.[1];
const srcOf = (html: string, tag: string) => new RegExp(`<${tag}[^>]* src="([^"]+)"`).exec(html)?.[1]?.replaceAll("&amp;", "&");
const viewsOf = async (token: string, id: string) => (await callJson("GET", `/v1/shares/${id}`, { token })).body.data.viewCount as number;

describe("the page of a link", () => {
  test("a private image: the page shows it through the link's own URL, with Open Graph tags and oEmbed discovery; its plain media URL stays 404 to anyone else; each view is counted", async () => {
    const owner = await makeUser({ plan: "pro" });
    const image = await privateImage(owner.jwt);
    const s = await shared(owner.jwt, { target: { kind: "image", id: image.id } });
    const res = await page(s.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'none'");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    const src = srcOf(html, "img")!;
    expect(src).toBe(`${s.url}/m/${image.id}.png`);
    expect(meta(html, "og:title")).toBe("secret.png");
    expect(meta(html, "og:type")).toBe("website");
    expect(meta(html, "og:url")).toBe(s.url);
    expect(meta(html, "og:image")).toBe(src);
    expect(html).toContain(`<link rel="alternate" type="application/json+oembed" href="${CENTER}/oembed?format=json&amp;url=${encodeURIComponent(s.url)}"`);

    const bytes = await media(src);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get("content-type")).toBe("image/png");
    expect(bytes.headers.get("cache-control")).toContain("private");
    expect((await bytes.arrayBuffer()).byteLength).toBe(image.size);
    // A size variant through the link, as on the edge.
    expect((await media(`${src}?w=256`, { accept: "image/webp" })).headers.get("content-type")).toBe("image/webp");
    // The image's own URL is still the owner's alone.
    expect((await call("GET", new URL(image.url).pathname)).status).toBe(404);
    // The link opens its one item: another of the owner's private images is not behind it.
    const other = await privateImage(owner.jwt);
    expect((await media(`${s.url}/m/${other.id}.png`)).status).toBe(404);
    expect(await viewsOf(owner.jwt, s.id)).toBe(1);
    await page(s.url);
    expect(await viewsOf(owner.jwt, s.id)).toBe(2);
  });

  test("a private video: the player's script plays the link's own playlist, whose relative segments resolve through the link; the video's own URLs stay 403", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id, { isPublic: false });
    const s = await shared(owner.jwt, { target: { kind: "video", id: v.id } });
    const res = await page(s.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain(`data-src="${s.url}/m/v/${v.id}/master.m3u8"`);
    expect(meta(html, "og:type")).toBe("video.other");
    expect(meta(html, "og:image")).toBe(`${s.url}/m/v/${v.id}/thumb.jpg`);
    const script = /<script type="module" src="([^"]+)"><\/script>/.exec(html)![1]!;
    expect((await call("GET", script)).status).toBe(200);

    const master = await media(`${s.url}/m/v/${v.id}/master.m3u8`);
    expect(master.status).toBe(200);
    expect(master.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    const variant = (await master.text()).split("\n").find((l) => l.endsWith(".m3u8"))!;
    const playlist = await media(`${s.url}/m/v/${v.id}/${variant}`);
    expect(playlist.status).toBe(200);
    const segment = (await playlist.text()).split("\n").find((l) => l.endsWith(".ts"))!;
    const seg = await media(`${s.url}/m/v/${v.id}/${variant.slice(0, variant.lastIndexOf("/") + 1)}${segment}`);
    expect(seg.status).toBe(200);
    expect(seg.headers.get("content-type")).toBe("video/mp2t");
    // Never kept by a shared cache, a public item's neither: a revoked link's URLs must stop.
    expect(seg.headers.get("cache-control")).toBe("private, no-cache");
    expect((await media(`${s.url}/m/v/${v.id}/thumb.jpg`)).status).toBe(200);
    expect((await call("GET", `/media/v/${v.id}/master.m3u8`)).status).toBe(403);
    // A signature of its own in the link's path is not taken.
    expect((await media(`${s.url}/m/v/${v.id}/s.1.${"a".repeat(43)}/master.m3u8`)).status).toBe(404);
  });

  test("a private audio file: a player that works without a script, its bytes in ranges through the link", async () => {
    const owner = await makeUser({ plan: "pro" });
    const up = await uploadAudio(owner.jwt, await fixture("mp3"), "song.mp3", { isPublic: "false" });
    expect(up.status).toBe(201);
    const s = await shared(owner.jwt, { target: { kind: "audio", id: up.body.data.id } });
    const html = await (await page(s.url)).text();
    expect(meta(html, "og:type")).toBe("music.song");
    const src = srcOf(html, "audio")!;
    expect(src).toStartWith(`${s.url}/m/a/${up.body.data.id}.`);
    const part = await media(src, { range: "bytes=0-99" });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
    expect((await media(srcOf(html, "img")!)).status).toBe(200);
  });

  test("a note: rendered on the server as the dashboard renders it (headings, tasks, callouts, footnotes), its raw HTML kept as text; a preview of its words", async () => {
    const owner = await makeUser({ plan: "pro" });
    const doc = await markdownDoc(
      owner.jwt,
      "# Trip plan\n\nSee [[Packing list]] and ==pack light==.\n\n- [x] book train\n- [ ] hotel\n\n> [!tip] Remember\n> passport\n\nA claim.[^1]\n\n<script>alert(1)</script>\n\n[^1]: a source\n",
    );
    const s = await shared(owner.jwt, { target: { kind: "document", id: doc.id } });
    const res = await page(s.url);
    expect(res.status).toBe(200);
    const html = await res.text();
    const article = html.slice(html.indexOf('<article class="doc-body"'), html.indexOf("</article>"));
    expect(article).toContain('<h1 id="note-trip-plan" tabindex="-1">Trip plan</h1>');
    expect(article).toContain('<span class="wikilink">Packing list</span>');
    expect(article).toContain("<mark>pack light</mark>");
    expect(article).toContain('type="checkbox"');
    expect(article).toContain("callout");
    expect(article).toContain('class="footnotes"');
    expect(article).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(article).not.toContain("<script");
    expect(meta(html, "og:type")).toBe("article");
    expect(meta(html, "og:description")).toStartWith("Trip plan See");
  });

  test("a title of markup stays text: in the page's title, its Open Graph tags and the note", async () => {
    const owner = await makeUser({ plan: "pro" });
    const doc = await markdownDoc(owner.jwt, '# "><script>alert(1)</script>\n\ntext');
    const s = await shared(owner.jwt, { target: { kind: "document", id: doc.id } });
    const html = await (await page(s.url)).text();
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  test("a KB folder: its notes and subfolders listed, nothing outside the folder", async () => {
    const owner = await makeUser({ plan: "pro" });
    const kb = await newKb(owner.jwt);
    await markdownDoc(owner.jwt, "# Rome", { kbId: kb.id, relativePath: "trips/rome.md" });
    await markdownDoc(owner.jwt, "# Day 1", { kbId: kb.id, relativePath: "trips/rome/day1.md" });
    await markdownDoc(owner.jwt, "# Secret", { kbId: kb.id, relativePath: "private/diary.md" });
    const s = await shared(owner.jwt, { target: { kind: "kb", id: kb.id, path: "trips" } });
    const html = await (await page(s.url)).text();
    expect(html).toContain("rome.md");
    expect(html).toContain(">rome/</a>");
    expect(html).not.toContain("diary");
  });

  test("a KB folder's gallery: its pictures through the link, its notes rendered on pages of the link, its subfolders by ?path=; nothing outside the folder", async () => {
    const owner = await makeUser({ plan: "pro" });
    const kb = await newKb(owner.jwt);
    await storedFile(owner.jwt, kb.id, PNG, "beach.png");
    const pushedOps = await pushed2(owner.jwt, kb.id, [upsertFile("trips/beach.png", PNG), upsertFile("private/me.png", PNG)]);
    const [beach, mine] = pushedOps.results.map((r) => r.docId);
    const note = await markdownDoc(owner.jwt, "# Rome\n\n==ciao==", { kbId: kb.id, relativePath: "trips/rome.md" });
    const diary = await markdownDoc(owner.jwt, "# Secret", { kbId: kb.id, relativePath: "private/diary.md" });
    await markdownDoc(owner.jwt, "# Day 1", { kbId: kb.id, relativePath: "trips/rome/day1.md" });
    const s = await shared(owner.jwt, { target: { kind: "kb", id: kb.id, path: "trips" } });
    const html = await (await page(s.url)).text();
    expect(html).toContain(`<img src="${s.url}/f/${beach}" alt="beach.png"`);
    const picture = await media(`${s.url}/f/${beach}`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/png");
    expect((await media(`${s.url}/f/${mine}`)).status).toBe(404);
    expect(html).toContain(`href="${s.url}/d/${note.id}"`);
    const rendered = await (await page(`${s.url}/d/${note.id}`)).text();
    expect(rendered).toContain("<mark>ciao</mark>");
    expect((await page(`${s.url}/d/${diary.id}`)).status).toBe(404);
    const sub = await (await call("GET", `${pathOf(s.url)}?path=${encodeURIComponent("trips/rome")}`)).text();
    expect(sub).toContain("day1.md");
    expect((await call("GET", `${pathOf(s.url)}?path=private`)).status).toBe(404);
    expect((await call("GET", `${pathOf(s.url)}?path=${encodeURIComponent("trips/../private")}`)).status).toBe(404);
    // Only the folder's main page counts a view.
    expect(await viewsOf(owner.jwt, s.id)).toBe(2);
  });

  test("no such link: 404; a link whose item is in the trash: 404, until the item is restored", async () => {
    const owner = await makeUser({ plan: "pro" });
    expect((await call("GET", `/s/${"x".repeat(32)}`)).status).toBe(404);
    expect((await call("GET", "/s/short")).status).toBe(404);
    const image = await privateImage(owner.jwt);
    const s = await shared(owner.jwt, { target: { kind: "image", id: image.id } });
    const shown = await (await page(s.url)).text();
    const picture = srcOf(shown, "img")!;
    expect((await media(picture)).status).toBe(200);
    expect((await call("DELETE", `/v1/images/${image.id}`, { token: owner.jwt })).status).toBe(204);
    expect((await page(s.url)).status).toBe(404);
    expect((await media(picture)).status).toBe(404);
    expect((await call("POST", `/v1/trash/${image.id}/restore`, { token: owner.jwt })).status).toBe(200);
    expect((await page(s.url)).status).toBe(200);
  });
});

describe("a link's password, expiry and revocation", () => {
  test("with a password: the form, never the content; a wrong password is the form again with an error; the right one opens it in that browser (a cookie of that link's path)", async () => {
    const owner = await makeUser({ plan: "pro" });
    const image = await privateImage(owner.jwt);
    const s = await shared(owner.jwt, { target: { kind: "image", id: image.id }, password: "open sesame" });
    const form = await page(s.url);
    expect(form.status).toBe(200);
    const formHtml = await form.text();
    expect(formHtml).toContain('<input id="password" name="password" type="password"');
    expect(formHtml).not.toContain(image.id);
    expect(meta(formHtml, "og:image")).toBeUndefined();
    expect(formHtml).not.toContain("json+oembed");
    expect((await media(`${s.url}/m/${image.id}.png`)).status).toBe(404);
    expect((await callJson("GET", `/oembed?url=${encodeURIComponent(s.url)}`)).status).toBe(404);

    const post = (password: string) =>
      call("POST", pathOf(s.url), { headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ password }).toString() });
    const wrong = await post("guess");
    expect(wrong.status).toBe(401);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain('role="alert"');
    expect(wrongHtml).not.toContain(image.id);
    expect(wrong.headers.get("set-cookie")).toBeNull();

    const right = await post("open sesame");
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe(s.url);
    const cookie = right.headers.get("set-cookie")!;
    expect(cookie).toContain(`Path=${pathOf(s.url)};`);
    expect(cookie).toContain("HttpOnly");
    const jar = { cookie: cookie.split(";")[0]! };
    const opened = await page(s.url, jar);
    expect(await opened.text()).toContain(`${s.url}/m/${image.id}.png`);
    expect((await media(`${s.url}/m/${image.id}.png`, jar)).status).toBe(200);
    expect(await viewsOf(owner.jwt, s.id)).toBe(1);
    // A new password closes the browsers that gave the old one.
    await callJson("PATCH", `/v1/shares/${s.id}`, { token: owner.jwt, json: { password: "new one" } });
    expect(await (await page(s.url, jar)).text()).toContain('name="password"');
  });

  test("password tries are limited per link and address: past the limit 429 with Retry-After, the right password included", async () => {
    const owner = await makeUser({ plan: "pro" });
    const image = await privateImage(owner.jwt);
    const s = await shared(owner.jwt, { target: { kind: "image", id: image.id }, password: "right" });
    const post = (password: string) =>
      call("POST", pathOf(s.url), { headers: { "content-type": "application/x-www-form-urlencoded" }, body: `password=${password}` });
    for (let i = 0; i < 10; i++) expect((await post("wrong")).status).toBe(401);
    const limited = await post("right");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("set-cookie")).toBeNull();
  });

  test("past its expiry (the clock moved) the page is 410 and its media 404; the owner sees it inactive", async () => {
    const owner = await makeUser({ plan: "pro" });
    const image = await privateImage(owner.jwt);
    const { deps } = await testContext();
    const { key } = await makeKey(owner);
    const s = await shared(owner.jwt, { target: { kind: "image", id: image.id }, expiresAt: new Date(deps.clock.nowMs() + 3_600_000).toISOString() });
    expect((await page(s.url)).status).toBe(200);
    expect((await media(`${s.url}/m/${image.id}.png`)).status).toBe(200);
    deps.clock.advance(3_600_001);
    const gone = await page(s.url);
    expect(gone.status).toBe(410);
    expect(await gone.text()).not.toContain(image.id);
    expect((await media(`${s.url}/m/${image.id}.png`)).status).toBe(404);
    // The access token has expired with the hour too: the owner asks with a key.
    expect((await callJson("GET", `/v1/shares/${s.id}`, { token: key })).body.data.active).toBe(false);
    // A later expiry (or none) opens it again.
    const revived = await callJson("PATCH", `/v1/shares/${s.id}`, { token: key, json: { expiresAt: null } });
    expect(revived.body.data.active).toBe(true);
    expect((await page(s.url)).status).toBe(200);
  });

  test("revoked: the page is 410 at once and the media URLs the page handed out stop working", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id, { isPublic: false });
    const image = await privateImage(owner.jwt);
    const sv = await shared(owner.jwt, { target: { kind: "video", id: v.id } });
    const si = await shared(owner.jwt, { target: { kind: "image", id: image.id } });
    const urls = [`${sv.url}/m/v/${v.id}/master.m3u8`, `${sv.url}/m/v/${v.id}/thumb.jpg`, `${si.url}/m/${image.id}.png`];
    for (const u of urls) expect((await media(u)).status).toBe(200);
    for (const s of [sv, si]) expect((await call("DELETE", `/v1/shares/${s.id}`, { token: owner.jwt })).status).toBe(204);
    for (const s of [sv, si]) expect((await page(s.url)).status).toBe(410);
    for (const u of urls) expect((await media(u)).status).toBe(404);
    expect((await callJson("GET", `/oembed?url=${encodeURIComponent(si.url)}`)).status).toBe(404);
  });
});

describe("oEmbed of a link", () => {
  test("an image's link: an <iframe> of its page at the picture's size, scaled to maxwidth, with the picture as thumbnail; a video's: type video at 16:9", async () => {
    const owner = await makeUser({ plan: "pro" });
    const image = await privateImage(owner.jwt);
    const s = await shared(owner.jwt, { target: { kind: "image", id: image.id } });
    const res = await callJson("GET", `/oembed?format=json&maxwidth=20&url=${encodeURIComponent(s.url)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: "1.0", type: "rich", title: "secret.png", width: 20, height: 15, thumbnail_url: `${s.url}/m/${image.id}.png` });
    expect(res.body.html).toContain(`<iframe src="${s.url}"`);
    const v = await storedVideo(owner.id, { isPublic: false });
    const sv = await shared(owner.jwt, { target: { kind: "video", id: v.id } });
    const video = await callJson("GET", `/oembed?url=${encodeURIComponent(sv.url)}`);
    expect(video.body).toMatchObject({ type: "video", width: 1280, height: 720, thumbnail_url: `${sv.url}/m/v/${v.id}/thumb.jpg` });
  });
});
