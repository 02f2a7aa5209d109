// /v1/shares: a link to an item, a KB or a KB folder the caller owns; its unguessable URL
// below CENTER_URL; listing in cursor pages; changing expiry and password; revoking.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { addressesFromRequest, call, callJson, testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { newKb } from "../kbs/fixtures.ts";
import { oauthApp } from "../oauth/flow.ts";
import { storedVideo } from "../videos/playback-fixtures.ts";
import { CENTER, markdownDoc, privateImage, shared } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("POST /v1/shares", () => {
  test("a link to the caller's image: 201 with an unguessable url below CENTER_URL, no password, no expiry, no views", async () => {
    const owner = await makeUser({ plan: "pro" });
    const image = await privateImage(owner.jwt);
    const res = await callJson("POST", "/v1/shares", { token: owner.jwt, json: { target: { kind: "image", id: image.id } } });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const s = res.body.data;
    expect(s).toMatchObject({ target: { kind: "image", id: image.id }, hasPassword: false, expiresAt: null, revokedAt: null, active: true, viewCount: 0 });
    expect(s.id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(s.url).toMatch(new RegExp(`^${CENTER}/s/[A-Za-z0-9_-]{32}$`));
    // The URL names the link by its token, never by its id.
    expect(s.url).not.toContain(s.id);
    const again = await shared(owner.jwt, { target: { kind: "image", id: image.id } });
    expect(again.url).not.toBe(s.url);
  });

  test("a video, a document, a KB and a KB folder; a password and an expiry are kept (the password never answered)", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id, { isPublic: false });
    const doc = await markdownDoc(owner.jwt, "# Hello\n\ntext");
    const kb = await newKb(owner.jwt);
    await markdownDoc(owner.jwt, "# In a folder", { kbId: kb.id, relativePath: "trips/rome.md" });
    const { deps } = await testContext();
    const expiresAt = new Date(deps.clock.nowMs() + 86_400_000).toISOString();
    for (const target of [
      { kind: "video", id: v.id },
      { kind: "document", id: doc.id },
      { kind: "kb", id: kb.id },
      { kind: "kb", id: kb.id, path: "trips" },
    ]) {
      const res = await callJson("POST", "/v1/shares", { token: owner.jwt, json: { target, password: "open sesame", expiresAt } });
      expect(res.status).toBe(201);
      expect(res.body.data.target).toEqual(target.kind === "kb" ? { path: "", ...target } : target);
      expect(res.body.data.hasPassword).toBe(true);
      expect(res.body.data.expiresAt).toBe(expiresAt);
      expect(JSON.stringify(res.body)).not.toContain("open sesame");
    }
  });

  test("another user's item, a missing one, or a KB folder with nothing in it: 404 NOT_FOUND, and no link is made", async () => {
    const owner = await makeUser({ plan: "pro" });
    const stranger = await makeUser({ plan: "pro" });
    const image = await privateImage(owner.jwt);
    const v = await storedVideo(owner.id);
    const kb = await newKb(owner.jwt);
    for (const target of [
      { kind: "image", id: image.id },
      { kind: "video", id: v.id },
      { kind: "kb", id: kb.id },
      { kind: "document", id: "d".repeat(21) },
      { kind: "audio", id: "a".repeat(21) },
    ]) {
      const res = await callJson("POST", "/v1/shares", { token: stranger.jwt, json: { target } });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: "NOT_FOUND" });
    }
    const folder = await callJson("POST", "/v1/shares", { token: owner.jwt, json: { target: { kind: "kb", id: kb.id, path: "nowhere" } } });
    expect(folder.status).toBe(404);
    expect((await callJson("GET", "/v1/shares", { token: stranger.jwt })).body.data.items).toEqual([]);
  });

  test("a bad target or expiry: 422 VALIDATION_ERROR with the field's path", async () => {
    const owner = await makeUser({ plan: "pro" });
    const image = await privateImage(owner.jwt);
    const { deps } = await testContext();
    const cases: [unknown, string][] = [
      [{ target: { kind: "video", id: image.id } }, "body.target.id"],
      [{ target: { kind: "image", id: image.id, path: "x" } }, "body.target.path"],
      [{ target: { kind: "image", id: image.id }, expiresAt: new Date(deps.clock.nowMs() - 1000).toISOString() }, "body.expiresAt"],
    ];
    for (const [json, path] of cases) {
      const res = await callJson("POST", "/v1/shares", { token: owner.jwt, json });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.meta.path).toBe(path);
    }
    for (const json of [{}, { target: { kind: "collection", id: image.id } }, { target: { kind: "image", id: image.id }, password: "" }]) {
      expect((await callJson("POST", "/v1/shares", { token: owner.jwt, json })).status).toBe(422);
    }
  });
});

describe("GET, PATCH and DELETE /v1/shares", () => {
  test("the list is the caller's links newest first, in cursor pages; a bad cursor is 400 INVALID_CURSOR", async () => {
    const owner = await makeUser({ plan: "pro" });
    const image = await privateImage(owner.jwt);
    const made = [];
    const { deps } = await testContext();
    for (let i = 0; i < 3; i++) {
      // Distinct creation instants make "newest first" unambiguous (links made in one millisecond sort by id).
      deps.clock.advance(5);
      made.push(await shared(owner.jwt, { target: { kind: "image", id: image.id } }));
    }
    const first = await callJson("GET", "/v1/shares?limit=2", { token: owner.jwt });
    expect(first.status).toBe(200);
    expect(first.body.data.items.map((s: { id: string }) => s.id)).toEqual([made[2]!.id, made[1]!.id]);
    expect(first.body.data.nextCursor).toBeString();
    const second = await callJson("GET", `/v1/shares?limit=2&cursor=${first.body.data.nextCursor}`, { token: owner.jwt });
    expect(second.body.data.items.map((s: { id: string }) => s.id)).toEqual([made[0]!.id]);
    expect(second.body.data.nextCursor).toBeNull();
    const bad = await callJson("GET", "/v1/shares?cursor=nonsense!", { token: owner.jwt });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_CURSOR");
  });

  test("PATCH sets and removes the password and the expiry; another user's link is 404; a revoked one is 409", async () => {
    const owner = await makeUser({ plan: "pro" });
    const stranger = await makeUser({ plan: "pro" });
    const image = await privateImage(owner.jwt);
    const s = await shared(owner.jwt, { target: { kind: "image", id: image.id } });
    const { deps } = await testContext();
    const expiresAt = new Date(deps.clock.nowMs() + 3_600_000).toISOString();
    const set = await callJson("PATCH", `/v1/shares/${s.id}`, { token: owner.jwt, json: { password: "hunter22", expiresAt } });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ hasPassword: true, expiresAt, active: true });
    const cleared = await callJson("PATCH", `/v1/shares/${s.id}`, { token: owner.jwt, json: { password: null, expiresAt: null } });
    expect(cleared.body.data).toMatchObject({ hasPassword: false, expiresAt: null });
    expect((await callJson("PATCH", `/v1/shares/${s.id}`, { token: stranger.jwt, json: { password: "x" } })).status).toBe(404);
    expect((await callJson("PATCH", `/v1/shares/${s.id}`, { token: owner.jwt, json: {} })).status).toBe(422);

    expect((await call("DELETE", `/v1/shares/${s.id}`, { token: stranger.jwt })).status).toBe(404);
    const revoked = await call("DELETE", `/v1/shares/${s.id}`, { token: owner.jwt });
    expect(revoked.status).toBe(204);
    const after = await callJson("GET", `/v1/shares/${s.id}`, { token: owner.jwt });
    expect(after.body.data.active).toBe(false);
    expect(after.body.data.revokedAt).toBeString();
    // Revoking again keeps the first time.
    expect((await call("DELETE", `/v1/shares/${s.id}`, { token: owner.jwt })).status).toBe(204);
    expect((await callJson("GET", `/v1/shares/${s.id}`, { token: owner.jwt })).body.data.revokedAt).toBe(after.body.data.revokedAt);
    const refused = await callJson("PATCH", `/v1/shares/${s.id}`, { token: owner.jwt, json: { password: "again" } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("CONFLICT");
    expect((await callJson("GET", `/v1/shares/${s.id}`, { token: stranger.jwt })).status).toBe(404);
  });
});

describe("PUBLIC_URL unset", () => {
  test("a link's url, its page's Open Graph URL and its media URLs are made from the address the request came to", async () => {
    const o = await oauthApp((deps) => ({ config: addressesFromRequest(deps.config) }));
    const LAN = "http://192.168.1.5:8080";
    const owner = await makeUser({ plan: "pro" });
    const image = await privateImage(owner.jwt);
    const made = await o.app.handle(
      new Request(`${LAN}/v1/shares`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.jwt}`, "content-type": "application/json" },
        body: JSON.stringify({ target: { kind: "image", id: image.id } }),
      }),
    );
    expect(made.status).toBe(201);
    const { url } = ((await made.json()) as { data: { url: string } }).data;
    expect(url).toStartWith(`${LAN}/s/`);
    const html = await (await o.app.handle(new Request(url))).text();
    expect(html).toContain(`<meta property="og:url" content="${url}">`);
    expect(html).toContain(`src="${url}/m/${image.id}.png"`);
    // The same link asked for at another address names that one.
    const local = url.replace(LAN, "http://127.0.0.1:8080");
    expect(await (await o.app.handle(new Request(local))).text()).toContain(`<meta property="og:url" content="${local}">`);
    const embed = await o.app.handle(new Request(`http://127.0.0.1:8080/oembed?url=${encodeURIComponent(local)}`));
    expect(embed.status).toBe(200);
  });
});
