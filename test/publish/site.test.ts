// A published site (CENTER_URL/p/<slug>): its navigation, its notes at their paths, their
// wikilinks and embeds placed on the site and only within the folder, its search, a sync
// showing at once, unpublishing and the trash closing it at once, titles escaped.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { PNG, storedFile, upsertFile } from "../kbs/file-fixtures.ts";
import { newKb } from "../kbs/fixtures.ts";
import { pushed2, upsert2 } from "../kbs/v2-fixtures.ts";
import { markdownDoc } from "../shares/fixtures.ts";
import { pathOf, published } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const get = (url: string) => call("GET", pathOf(url));
const html = async (url: string) => {
  const res = await get(url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  return res.text();
};
/** The search results of a page (the navigation lists every note too). */
const hitsOf = (page: string) => /<ul class="hits">[\s\S]*?<\/ul>/.exec(page)?.[0] ?? "";
const meta = (page: string, property: string) => new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(page)?.[1];

async function garden() {
  const owner = await makeUser({ plan: "pro" });
  const kb = await newKb(owner.jwt);
  await storedFile(owner.jwt, kb.id, PNG, "rose.png");
  await pushed2(owner.jwt, kb.id, [upsertFile("garden/img/rose.png", PNG), upsertFile("private/me.png", PNG)]);
  await markdownDoc(owner.jwt, "# Welcome\n\nSee [[Roses]] and [[Roses#Pruning|how to prune]].", { kbId: kb.id, relativePath: "garden/index.md" });
  await markdownDoc(
    owner.jwt,
    "# Roses\n\n## Pruning\n\nCut in spring. ![[rose.png]]\n\nAlso [[Diary]] and [[Tulips|the tulips]] and [the welcome](index.md).",
    { kbId: kb.id, relativePath: "garden/flowers/roses.md" },
  );
  await markdownDoc(owner.jwt, "# Tulips\n\nplanted in autumn", { kbId: kb.id, relativePath: "garden/flowers/tulips.md" });
  await markdownDoc(owner.jwt, "# Diary\n\nmy secret autumn thoughts", { kbId: kb.id, relativePath: "private/diary.md" });
  const site = await published(owner.jwt, { kbId: kb.id, path: "garden" });
  return { owner, kb, site };
}

describe("a published site", () => {
  test("home, navigation and a note at its path: rendered by the note renderer, with Open Graph tags; no script", async () => {
    const { site } = await garden();
    const res = await get(site.url);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'none'");
    const home = await res.text();
    expect(home).toContain("<h1");
    expect(home).toContain("Welcome");
    expect(home).toContain(`<nav aria-label="Pages">`);
    expect(home).toContain(`href="${site.url}/flowers/roses"`);
    expect(home).toContain(`href="${site.url}/flowers/tulips"`);
    expect(home).not.toContain("Diary");
    // [[Roses]] and [[Roses#Pruning|alias]] lead to the note on the site.
    expect(home).toContain(`<a href="${site.url}/flowers/roses" class="wikilink">Roses</a>`);
    expect(home).toContain(`<a href="${site.url}/flowers/roses#note-pruning" class="wikilink">how to prune</a>`);

    const roses = await html(`${site.url}/flowers/roses`);
    expect(roses).toContain('id="note-pruning"');
    expect(roses).toContain(`aria-current="page">Roses</a>`);
    expect(meta(roses, "og:title")).toBe("Roses");
    expect(meta(roses, "og:type")).toBe("article");
    expect(meta(roses, "og:url")).toBe(`${site.url}/flowers/roses`);
    expect(meta(roses, "og:description")).toContain("Cut in spring");
    // A wikilink out of the folder is its words, never a link; one in it, a link; a Markdown link too.
    expect(roses).toContain('<span class="wikilink">Diary</span>');
    expect(roses).not.toContain("secret");
    expect(roses).toContain(`<a href="${site.url}/flowers/tulips" class="wikilink">the tulips</a>`);
    expect(roses).toContain(`<a href="${site.url}/index">the welcome</a>`);
    // The embed shows through the site's own URL, and that URL serves the picture.
    expect(roses).toContain(`<img src="${site.url}/img/rose.png" alt="rose.png" loading="lazy">`);
    const picture = await get(`${site.url}/img/rose.png`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await picture.arrayBuffer())).toEqual(PNG);
  });

  test("nothing outside the folder: another folder's note and file are 404, also by climbing", async () => {
    const { site } = await garden();
    for (const path of ["/private/diary", "/../private/diary", "/%2e%2e/private/diary", "/private/me.png", "/nowhere", "/flowers/roses.md"]) {
      const res = await call("GET", new URL(site.url).pathname + path);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("secret");
    }
  });

  test("search: finds a note in the folder, never one outside it", async () => {
    const { site } = await garden();
    const found = hitsOf(await html(`${site.url}?q=autumn`));
    expect(found).toContain(`href="${site.url}/flowers/tulips"`);
    expect(found).toContain("planted in <mark>autumn</mark>");
    expect(found).not.toContain("secret");
    expect(found).not.toContain("Diary");
    expect(await html(`${site.url}?q=${encodeURIComponent("-autumn")}`)).toContain("Type a word to look for.");
    expect(await html(`${site.url}?q=zebra`)).toContain("Nothing found");
  });

  test("search looks in the folder itself: many better hits outside it do not crowd out the one inside", async () => {
    const { owner, kb, site } = await garden();
    const outside = Array.from({ length: 60 }, (_, i) => upsert2(`elsewhere/n${i}.md`, `# Note ${i}\n\nmarigold marigold marigold`));
    await pushed2(owner.jwt, kb.id, [upsert2("garden/flowers/marigold.md", "# Inside\n\nonce a marigold, among many other words of the garden")]);
    await pushed2(owner.jwt, kb.id, outside);
    const found = hitsOf(await html(`${site.url}?q=marigold`));
    expect(found).toContain(`href="${site.url}/flowers/marigold"`);
    expect(found).not.toContain("elsewhere");
  });

  test("a sync push shows at once, new notes in the navigation too", async () => {
    const { owner, kb, site } = await garden();
    expect((await get(`${site.url}/flowers/lilies`)).status).toBe(404);
    await pushed2(owner.jwt, kb.id, [upsert2("garden/flowers/lilies.md", "# Lilies\n\nfresh from the sync")]);
    expect(await html(`${site.url}/flowers/lilies`)).toContain("fresh from the sync");
    expect(await html(site.url)).toContain(`href="${site.url}/flowers/lilies"`);
  });

  test("unpublished, or its KB in the trash: 404 at once, pages and files", async () => {
    const { owner, kb, site } = await garden();
    expect((await get(`${site.url}/img/rose.png`)).status).toBe(200);
    expect((await call("DELETE", `/v1/kbs/${kb.id}?cascade=true`, { token: owner.jwt })).status).toBe(204);
    expect((await get(site.url)).status).toBe(404);
    expect((await get(`${site.url}/img/rose.png`)).status).toBe(404);
    // Restored from the trash, it is served again.
    expect((await call("POST", `/v1/trash/${kb.id}/restore`, { token: owner.jwt })).status).toBe(200);
    expect((await get(`${site.url}/flowers/roses`)).status).toBe(200);
    const again = await garden();
    expect((await call("DELETE", `/v1/published-pages/${again.site.id}`, { token: again.owner.jwt })).status).toBe(204);
    expect((await get(`${again.site.url}/flowers/roses`)).status).toBe(404);
    expect((await get(`${again.site.url}/img/rose.png`)).status).toBe(404);
    expect((await call("GET", "/p/no-such-site")).status).toBe(404);
  });

  test("titles and paths are escaped", async () => {
    const owner = await makeUser({ plan: "pro" });
    const kb = await newKb(owner.jwt, { name: `<script>alert("kb")</script>`, slug: `x${Date.now().toString(36)}` });
    await markdownDoc(owner.jwt, `# <img src=x onerror=alert(1)> & "quotes"\n\ntext`, { kbId: kb.id, relativePath: `notes/<b>"odd"</b>.md` });
    const site = await published(owner.jwt, { kbId: kb.id });
    const home = await html(site.url);
    expect(home).not.toContain("<script>alert");
    expect(home).toContain("&lt;script&gt;");
    expect(home).not.toContain("<img src=x");
    expect(home).not.toContain('<b>"odd"');
    const link = /href="([^"]*odd[^"]*)"/.exec(home)![1]!;
    const note = await html(link.replaceAll("&amp;", "&"));
    expect(note).not.toContain("<img src=x");
    expect(note).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});
