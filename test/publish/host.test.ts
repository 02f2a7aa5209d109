// PUBLISH_HOST: a site on a host of its own (<slug>.<PUBLISH_HOST>), its pages at that
// host's root, its links and pictures there; the API's url names that host; any other
// host's requests go on to the API as before.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { PNG, storedFile, upsertFile } from "../kbs/file-fixtures.ts";
import { newKb } from "../kbs/fixtures.ts";
import { pushed2 } from "../kbs/v2-fixtures.ts";
import { markdownDoc } from "../shares/fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const shared = await testContext();
const services = createServices({ ...shared.deps, config: { ...shared.deps.config, PUBLISH_HOST: "pages.test" } });
const app = createApp(services);
afterAll(() => services.close());

const send = (url: string, init: RequestInit & { headers?: Record<string, string> } = {}) => app.handle(new Request(url, init));

describe("PUBLISH_HOST", () => {
  test("a site at <slug>.<PUBLISH_HOST>: its home, a note, a picture and search at that host's root; other hosts are the API", async () => {
    const owner = await makeUser({ plan: "pro" });
    const kb = await newKb(owner.jwt);
    await storedFile(owner.jwt, kb.id, PNG, "rose.png");
    await pushed2(owner.jwt, kb.id, [upsertFile("garden/rose.png", PNG)]);
    await markdownDoc(owner.jwt, "# Roses\n\n![[rose.png]] in [[Tulips]]", { kbId: kb.id, relativePath: "garden/roses.md" });
    await markdownDoc(owner.jwt, "# Tulips\n\nautumn bulbs", { kbId: kb.id, relativePath: "garden/tulips.md" });
    const res = await send("http://shelf.test/v1/published-pages", {
      method: "POST",
      headers: { authorization: `Bearer ${owner.jwt}`, "content-type": "application/json" },
      body: JSON.stringify({ kbId: kb.id, path: "garden", slug: `g${Date.now().toString(36)}` }),
    });
    expect(res.status).toBe(201);
    const site = (await res.json()).data as { slug: string; url: string };
    expect(site.url).toBe(`http://${site.slug}.pages.test`);

    const note = await send(`${site.url}/roses`);
    expect(note.status).toBe(200);
    const html = await note.text();
    expect(html).toContain(`<img src="${site.url}/rose.png" alt="rose.png" loading="lazy">`);
    expect(html).toContain(`<a href="${site.url}/tulips" class="wikilink">Tulips</a>`);
    expect(note.headers.get("content-security-policy")).toContain("style-src 'self' http://shelf.test");
    expect(html).toContain('<link rel="stylesheet" href="http://shelf.test/');
    const picture = await send(`${site.url}/rose.png`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/png");
    expect(await (await send(`${site.url}/?q=autumn`)).text()).toContain(`<a href="${site.url}/tulips">Tulips</a>`);
    // The API's paths on a site's host are the site's: no such note.
    expect((await send(`${site.url}/v1/published-pages`)).status).toBe(404);
    expect((await send("http://nope.pages.test/")).status).toBe(404);
    expect((await send(`${site.url}/roses`, { method: "POST" })).status).toBe(404);
    // The site's path on the center still answers; another host is the API.
    expect((await send(`http://shelf.test/p/${site.slug}/roses`)).status).toBe(200);
    expect((await send("http://a.b.pages.test/health")).status).toBe(200);
  });
});
