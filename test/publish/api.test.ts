// /v1/published-pages: publish a KB or a folder of it, list, read, unpublish; another
// user's KB or site is 404; a slug taken is 409.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, callJson } from "../helpers/context.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { newKb } from "../kbs/fixtures.ts";
import { markdownDoc } from "../shares/fixtures.ts";
import { pathOf, published } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("/v1/published-pages", () => {
  test("publish a folder: the site in the envelope, its URL below CENTER_URL/p/; listed and read; unpublished at once", async () => {
    const owner = await makeUser({ plan: "pro" });
    const kb = await newKb(owner.jwt);
    await markdownDoc(owner.jwt, "# Rome", { kbId: kb.id, relativePath: "trips/rome.md" });
    const res = await callJson("POST", "/v1/published-pages", { token: owner.jwt, json: { kbId: kb.id, path: "trips/", slug: "my-trips" } });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const site = res.body.data;
    expect(Object.keys(site).sort()).toEqual(["createdAt", "id", "kbId", "path", "slug", "url"]);
    expect(site).toMatchObject({ kbId: kb.id, path: "trips", slug: "my-trips", url: "http://shelf.test/p/my-trips" });

    const list = await callJson("GET", "/v1/published-pages", { token: owner.jwt });
    expect(list.status).toBe(200);
    expect(list.body.data.items).toEqual([site]);
    expect(list.body.data.nextCursor).toBeNull();
    expect((await callJson("GET", `/v1/published-pages/${site.id}`, { token: owner.jwt })).body.data).toEqual(site);
    expect((await call("GET", "/p/my-trips/rome")).status).toBe(200);

    expect((await call("DELETE", `/v1/published-pages/${site.id}`, { token: owner.jwt })).status).toBe(204);
    expect((await call("GET", "/p/my-trips/rome")).status).toBe(404);
    expect((await call("GET", "/p/my-trips")).status).toBe(404);
    expect((await callJson("GET", `/v1/published-pages/${site.id}`, { token: owner.jwt })).status).toBe(404);
    expect((await call("DELETE", `/v1/published-pages/${site.id}`, { token: owner.jwt })).status).toBe(404);
  });

  test("without a slug: the KB's, then it with a random ending; a slug taken is 409", async () => {
    const owner = await makeUser({ plan: "pro" });
    const kb = await newKb(owner.jwt);
    await markdownDoc(owner.jwt, "# Roses", { kbId: kb.id, relativePath: "roses.md" });
    const first = await published(owner.jwt, { kbId: kb.id });
    expect(first.slug).toBe(kb.slug);
    expect(first.path).toBe("");
    const second = await published(owner.jwt, { kbId: kb.id });
    expect(second.slug).toMatch(new RegExp(`^${kb.slug}-[a-z0-9]{6}$`));
    const clash = await callJson("POST", "/v1/published-pages", { token: owner.jwt, json: { kbId: kb.id, slug: first.slug } });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe("CONFLICT");
    const bad = await callJson("POST", "/v1/published-pages", { token: owner.jwt, json: { kbId: kb.id, slug: "Not A Slug" } });
    expect(bad.status).toBe(422);
  });

  test("another user's KB, or a folder with nothing in it: 404; another user's site: 404 to read and to unpublish", async () => {
    const owner = await makeUser({ plan: "pro" });
    const other = await makeUser({ plan: "pro" });
    const kb = await newKb(owner.jwt);
    await markdownDoc(owner.jwt, "# Rome", { kbId: kb.id, relativePath: "trips/rome.md" });
    const theirs = await callJson("POST", "/v1/published-pages", { token: other.jwt, json: { kbId: kb.id } });
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe("NOT_FOUND");
    expect((await callJson("POST", "/v1/published-pages", { token: owner.jwt, json: { kbId: kb.id, path: "nowhere" } })).status).toBe(404);
    const site = await published(owner.jwt, { kbId: kb.id, path: "trips" });
    expect((await callJson("GET", `/v1/published-pages/${site.id}`, { token: other.jwt })).status).toBe(404);
    expect((await call("DELETE", `/v1/published-pages/${site.id}`, { token: other.jwt })).status).toBe(404);
    expect((await callJson("GET", "/v1/published-pages", { token: other.jwt })).body.data.items).toEqual([]);
    expect((await call("GET", `${pathOf(site.url)}/rome`)).status).toBe(200);
  });

  test("scopes: kb.read lists, kb.write publishes", async () => {
    const owner = await makeUser({ plan: "pro" });
    const kb = await newKb(owner.jwt);
    await markdownDoc(owner.jwt, "# Rome", { kbId: kb.id, relativePath: "rome.md" });
    const reader = (await makeKey(owner, ["kb.read"])).key;
    expect((await callJson("GET", "/v1/published-pages", { token: reader })).status).toBe(200);
    expect((await callJson("POST", "/v1/published-pages", { token: reader, json: { kbId: kb.id } })).status).toBe(403);
  });
});
