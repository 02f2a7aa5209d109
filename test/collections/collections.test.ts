// /v1/collections: create, list, read, change and delete collections; add, remove and
// reorder their items; what the owner's other media and other users' media do to them.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { newId } from "../../src/infra/ids.ts";
import { COLLECTION_LIMITS } from "../../src/modules/collections/limits.ts";
import { collectionItems, collections } from "../../src/modules/collections/table.ts";
import { videos } from "../../src/modules/videos/table.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { anAudio, anImage, aVideo, itemRefs, newCollection } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("collections: create, read, change, delete", () => {
  test("POST creates one with its first items in order (201, the envelope); GET reads it with its count and the first item as cover", async () => {
    const user = await makeUser({ plan: "pro" });
    const [img, vid, aud] = [await anImage(user), await aVideo(user), await anAudio(user)];
    const created = await callJson("POST", "/v1/collections", {
      token: user.jwt,
      json: { title: "Summer", description: "the trip", items: [vid, img, aud] },
    });
    expect(created.status).toBe(201);
    expect(created.body.success).toBe(true);
    const c = created.body.data;
    expect(c).toMatchObject({ title: "Summer", description: "the trip", itemCount: 3, cover: { kind: "video", id: vid.id, chosen: false } });
    expect(c.id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(c.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(c.cover.thumbnailUrl).toBeNull(); // an inserted video without a thumbnail

    const got = await callJson("GET", `/v1/collections/${c.id}`, { token: user.jwt });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ success: true, data: c });

    const items = await callJson("GET", `/v1/collections/${c.id}/items`, { token: user.jwt });
    expect(items.status).toBe(200);
    expect(items.body.data.nextCursor).toBeNull();
    expect(items.body.data.items.map((e: any) => [e.kind, e.id, e.position])).toEqual([
      ["video", vid.id, 0],
      ["image", img.id, 1],
      ["audio", aud.id, 2],
    ]);
    const [v, i, a] = items.body.data.items;
    // Each item as its kind's own reads give it.
    const image = await callJson("GET", `/v1/images/${img.id}`, { token: user.jwt });
    expect(i.item).toEqual(image.body.data);
    expect(i.item.thumbnail_url).toContain("?w=");
    const videos = await callJson("GET", "/v1/videos", { token: user.jwt });
    expect(v.item).toEqual(videos.body.data.items[0]);
    const media = await callJson("GET", "/v1/media?type=audio", { token: user.jwt });
    expect(a.item).toEqual(media.body.data.items[0]);
    expect(a.addedAt).toBe(c.createdAt);
  });

  test("an empty collection has no cover; PATCH changes title and description, and the cover only to one of its items", async () => {
    const user = await makeUser();
    const c = await newCollection(user.jwt, { title: "Empty" });
    expect(c).toMatchObject({ itemCount: 0, description: null, cover: null });
    const [a, b] = [await anImage(user), await anImage(user)];
    const outsider = await anImage(user);
    await callJson("POST", `/v1/collections/${c.id}/items`, { token: user.jwt, json: { items: [a, b] } });

    const renamed = await callJson("PATCH", `/v1/collections/${c.id}`, { token: user.jwt, json: { title: "Full", description: "now" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ title: "Full", description: "now", cover: { kind: "image", id: a.id, chosen: false } });

    const covered = await callJson("PATCH", `/v1/collections/${c.id}`, { token: user.jwt, json: { cover: b } });
    expect(covered.body.data.cover).toMatchObject({ kind: "image", id: b.id, chosen: true });
    expect(covered.body.data.cover.thumbnailUrl).toContain(b.id);

    const refused = await callJson("PATCH", `/v1/collections/${c.id}`, { token: user.jwt, json: { cover: outsider, title: "Not applied" } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: "COLLECTION_COVER_NOT_ITEM", meta: { kind: "image", id: outsider.id } });
    const stranger = await makeUser();
    const theirs = await anImage(stranger);
    expect((await callJson("PATCH", `/v1/collections/${c.id}`, { token: user.jwt, json: { cover: theirs } })).body.code).toBe("COLLECTION_COVER_NOT_ITEM");

    const back = await callJson("PATCH", `/v1/collections/${c.id}`, { token: user.jwt, json: { cover: null, description: null } });
    expect(back.body.data).toMatchObject({ title: "Full", description: null, cover: { id: a.id, chosen: false } });
    // A removed cover is passed by: the first item shows again.
    await callJson("PATCH", `/v1/collections/${c.id}`, { token: user.jwt, json: { cover: b } });
    await callJson("DELETE", `/v1/collections/${c.id}/items`, { token: user.jwt, json: { items: [b] } });
    expect((await callJson("GET", `/v1/collections/${c.id}`, { token: user.jwt })).body.data.cover).toMatchObject({ id: a.id, chosen: false });
  });

  test("DELETE answers 204 and the collection is gone; its items stay in the library", async () => {
    const user = await makeUser();
    const img = await anImage(user);
    const c = await newCollection(user.jwt, { title: "Gone", items: [img] });
    const res = await call("DELETE", `/v1/collections/${c.id}`, { token: user.jwt });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    const again = await callJson("GET", `/v1/collections/${c.id}`, { token: user.jwt });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ success: false, code: "NOT_FOUND", meta: { entity: "collection" } });
    expect((await call("DELETE", `/v1/collections/${c.id}`, { token: user.jwt })).status).toBe(404);
    expect((await callJson("GET", `/v1/images/${img.id}`, { token: user.jwt })).status).toBe(200);
  });

  test("bad input is 422 VALIDATION_ERROR: a blank or long title, an unknown kind, a malformed id, a repeated item, too many", async () => {
    const user = await makeUser();
    const img = await anImage(user);
    const bodies = [
      {},
      { title: "" },
      { title: "   " },
      { title: "x".repeat(121) },
      { title: "t", description: "d".repeat(501) },
      { title: "t", items: [{ kind: "document", id: img.id }] },
      { title: "t", items: [{ kind: "image", id: "short" }] },
      { title: "t", items: [img, img] },
      { title: "t", items: Array.from({ length: 101 }, () => img) },
    ];
    for (const json of bodies) {
      const res = await callJson("POST", "/v1/collections", { token: user.jwt, json });
      expect({ json, status: res.status, code: res.body.code }).toEqual({ json, status: 422, code: "VALIDATION_ERROR" });
    }
    expect((await callJson("GET", "/v1/collections", { token: user.jwt })).body.data.items).toEqual([]);
    const c = await newCollection(user.jwt);
    expect((await callJson("PATCH", `/v1/collections/${c.id}`, { token: user.jwt, json: {} })).status).toBe(422);
    expect((await callJson("GET", "/v1/collections?limit=51", { token: user.jwt })).status).toBe(422);
    const bad = await callJson("GET", "/v1/collections?cursor=nope!", { token: user.jwt });
    expect(bad).toMatchObject({ status: 400, body: { code: "INVALID_CURSOR" } });
  });
});

describe("collections: items", () => {
  test("POST items appends by default, inserts at a position, keeps an item already in it where it was", async () => {
    const user = await makeUser();
    const [a, b, c, d] = [await anImage(user), await anImage(user), await anImage(user), await anImage(user)];
    const col = await newCollection(user.jwt, { title: "Order", items: [a] });
    const added = await callJson("POST", `/v1/collections/${col.id}/items`, { token: user.jwt, json: { items: [b, c] } });
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ added: 2, alreadyIn: 0, collection: { id: col.id, itemCount: 3 } });
    expect(await itemRefs(user.jwt, col.id)).toEqual([a, b, c]);

    const inserted = await callJson("POST", `/v1/collections/${col.id}/items`, { token: user.jwt, json: { items: [d, a], position: 1 } });
    expect(inserted.body.data).toMatchObject({ added: 1, alreadyIn: 1, collection: { itemCount: 4 } });
    expect(await itemRefs(user.jwt, col.id)).toEqual([a, d, b, c]);
    const page = await callJson("GET", `/v1/collections/${col.id}/items`, { token: user.jwt });
    expect(page.body.data.items.map((e: any) => e.position)).toEqual([0, 1, 2, 3]);

    // Past the end: at the end.
    const e = await anImage(user);
    await callJson("POST", `/v1/collections/${col.id}/items`, { token: user.jwt, json: { items: [e], position: 99 } });
    expect(await itemRefs(user.jwt, col.id)).toEqual([a, d, b, c, e]);
  });

  test("adding an item of another user, or one that does not exist, is 404 naming it and adds nothing (all or nothing)", async () => {
    const user = await makeUser();
    const stranger = await makeUser();
    const mine = await anImage(user);
    const theirs = await anImage(stranger);
    const col = await newCollection(user.jwt);
    const res = await callJson("POST", `/v1/collections/${col.id}/items`, { token: user.jwt, json: { items: [mine, theirs] } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: "NOT_FOUND", meta: { entity: "image", id: theirs.id } });
    expect(res.body.error).toContain(theirs.id);
    expect(await itemRefs(user.jwt, col.id)).toEqual([]);

    const ghost = { kind: "video", id: "V".repeat(21) };
    const created = await callJson("POST", "/v1/collections", { token: user.jwt, json: { title: "No", items: [mine, ghost] } });
    expect(created.status).toBe(404);
    expect(created.body.meta).toEqual({ entity: "video", id: ghost.id });
    expect((await callJson("GET", "/v1/collections", { token: user.jwt })).body.data.items.map((c: any) => c.id)).toEqual([col.id]);
    // An image's id named as a video is not that video.
    const asVideo = await callJson("POST", `/v1/collections/${col.id}/items`, { token: user.jwt, json: { items: [{ kind: "audio", id: mine.id }] } });
    expect(asVideo.status).toBe(404);
  });

  test("an item may be in several collections; DELETE items takes it out of one only and counts what was not in it", async () => {
    const user = await makeUser();
    const [a, b] = [await anImage(user), await anAudio(user)];
    const one = await newCollection(user.jwt, { title: "One", items: [a, b] });
    const two = await newCollection(user.jwt, { title: "Two", items: [b, a] });
    const out = await callJson("DELETE", `/v1/collections/${one.id}/items`, { token: user.jwt, json: { items: [a, { kind: "image", id: "i".repeat(11) }] } });
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({ removed: 1, notIn: 1, collection: { itemCount: 1 } });
    expect(await itemRefs(user.jwt, one.id)).toEqual([b]);
    expect(await itemRefs(user.jwt, two.id)).toEqual([b, a]);
    const page = await callJson("GET", `/v1/collections/${one.id}/items`, { token: user.jwt });
    expect(page.body.data.items[0].position).toBe(0);
  });

  test("PUT order sets the new order; a list that is not exactly the items is 409 COLLECTION_ORDER_MISMATCH and changes nothing", async () => {
    const user = await makeUser();
    const [a, b, c, x] = [await anImage(user), await anImage(user), await anImage(user), await anImage(user)];
    const col = await newCollection(user.jwt, { title: "Playlist", items: [a, b, c] });
    const put = await callJson("PUT", `/v1/collections/${col.id}/order`, { token: user.jwt, json: { items: [c, a, b] } });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ id: col.id, itemCount: 3, cover: { id: c.id } });
    expect(await itemRefs(user.jwt, col.id)).toEqual([c, a, b]);

    for (const [items, missing, unknown] of [
      [[a, b], [c], []],
      [[c, a, b, x], [], [x]],
      [[c, a, x], [b], [x]],
    ] as const) {
      const res = await callJson("PUT", `/v1/collections/${col.id}/order`, { token: user.jwt, json: { items } });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        code: "COLLECTION_ORDER_MISMATCH",
        meta: { missing, unknown, missingCount: missing.length, unknownCount: unknown.length },
      });
    }
    const repeated = await callJson("PUT", `/v1/collections/${col.id}/order`, { token: user.jwt, json: { items: [c, a, b, a] } });
    expect(repeated).toMatchObject({ status: 422, body: { code: "VALIDATION_ERROR", meta: { path: "/items/3" } } });
    expect(await itemRefs(user.jwt, col.id)).toEqual([c, a, b]);
  });

  test("an item in the trash is not listed and not counted, and is back in its place when restored", async () => {
    const user = await makeUser({ plan: "pro" });
    const [a, v] = [await anImage(user), await aVideo(user)];
    const col = await newCollection(user.jwt, { title: "Kept", items: [a, v] });
    expect((await call("DELETE", `/v1/images/${a.id}`, { token: user.jwt })).status).toBe(204);
    expect((await callJson("GET", `/v1/collections/${col.id}`, { token: user.jwt })).body.data).toMatchObject({ itemCount: 1 });
    expect(await itemRefs(user.jwt, col.id)).toEqual([v]);
    expect((await call("POST", `/v1/trash/${a.id}/restore`, { token: user.jwt })).status).toBe(200);
    expect(await itemRefs(user.jwt, col.id)).toEqual([a, v]);
  });

  test("an item deleted for good is not listed and not counted, and the collection keeps working; its membership goes", async () => {
    const user = await makeUser({ plan: "pro" });
    const [a, v, s] = [await anImage(user), await aVideo(user), await anAudio(user)];
    const col = await newCollection(user.jwt, { title: "Mixed", items: [a, v, s] });
    expect((await call("DELETE", `/v1/images/${a.id}`, { token: user.jwt })).status).toBe(204);
    expect((await call("DELETE", `/v1/audio/${s.id}`, { token: user.jwt })).status).toBe(204);
    // Purged from the trash: gone for good.
    expect((await call("DELETE", "/v1/trash", { token: user.jwt })).status).toBeLessThan(300);

    const got = await callJson("GET", `/v1/collections/${col.id}`, { token: user.jwt });
    expect(got.body.data).toMatchObject({ itemCount: 1, cover: { kind: "video", id: v.id } });
    const list = await callJson("GET", "/v1/collections", { token: user.jwt });
    expect(list.body.data.items[0]).toMatchObject({ id: col.id, itemCount: 1 });
    expect(await itemRefs(user.jwt, col.id)).toEqual([v]);
    // The order names what is there; positions close up with the next change.
    const put = await callJson("PUT", `/v1/collections/${col.id}/order`, { token: user.jwt, json: { items: [v] } });
    expect(put.status).toBe(200);
    const page = await callJson("GET", `/v1/collections/${col.id}/items`, { token: user.jwt });
    expect(page.body.data.items.map((e: any) => [e.id, e.position])).toEqual([[v.id, 0]]);
    const b = await anImage(user);
    await callJson("POST", `/v1/collections/${col.id}/items`, { token: user.jwt, json: { items: [b] } });
    expect((await callJson("GET", `/v1/collections/${col.id}/items`, { token: user.jwt })).body.data.items.map((e: any) => e.position)).toEqual([0, 1]);
  });
});

describe("collections: changes at once", () => {
  test("adds, removes and a reorder sent together each take their turn: every item once, positions 0 to n-1", async () => {
    const user = await makeUser();
    const refs = [];
    for (let i = 0; i < 8; i++) refs.push(await anImage(user));
    const col = await newCollection(user.jwt, { title: "Busy", items: refs.slice(0, 2) });
    const answers = await Promise.all([
      ...refs.slice(2).map((r, i) => callJson("POST", `/v1/collections/${col.id}/items`, { token: user.jwt, json: { items: [r], position: i % 2 } })),
      callJson("DELETE", `/v1/collections/${col.id}/items`, { token: user.jwt, json: { items: [refs[0]] } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const page = await callJson("GET", `/v1/collections/${col.id}/items?limit=50`, { token: user.jwt });
    const entries = page.body.data.items as { id: string; position: number }[];
    expect(entries.map((e) => e.position)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(new Set(entries.map((e) => e.id))).toEqual(new Set(refs.slice(1).map((r) => r.id)));
  });
});

describe("collections: pages", () => {
  test("GET /v1/collections pages newest first with the cursor, neither repeating nor skipping", async () => {
    const user = await makeUser();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await newCollection(user.jwt, { title: `C${i}` })).id);
    const seen: string[] = [];
    let cursor = "";
    let pages = 0;
    do {
      const res = await callJson("GET", `/v1/collections?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token: user.jwt });
      expect(res.status).toBe(200);
      expect(res.body.data.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.items.map((c: any) => c.id));
      cursor = res.body.data.nextCursor ?? "";
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
    expect([...seen].sort()).toEqual([...ids].sort());
    const times = (await callJson("GET", "/v1/collections?limit=50", { token: user.jwt })).body.data.items.map((c: any) => c.createdAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  test("GET items pages in order with the cursor", async () => {
    const user = await makeUser();
    const refs = [];
    for (let i = 0; i < 7; i++) refs.push(await anImage(user));
    const col = await newCollection(user.jwt, { title: "Long", items: refs });
    expect(await itemRefs(user.jwt, col.id, 3)).toEqual(refs);
    const first = await callJson("GET", `/v1/collections/${col.id}/items?limit=3`, { token: user.jwt });
    expect(first.body.data.items).toHaveLength(3);
    expect(typeof first.body.data.nextCursor).toBe("string");
  });
});

describe("collections: who may", () => {
  test("without a credential 401; without the scope 403 (reads media.read, changes media.write)", async () => {
    const user = await makeUser();
    const col = await newCollection(user.jwt);
    const routes: [string, string, string, unknown?][] = [
      ["GET", "/v1/collections", "media.read"],
      ["GET", `/v1/collections/${col.id}`, "media.read"],
      ["GET", `/v1/collections/${col.id}/items`, "media.read"],
      ["POST", "/v1/collections", "media.write", { title: "x" }],
      ["PATCH", `/v1/collections/${col.id}`, "media.write", { title: "x" }],
      ["DELETE", `/v1/collections/${col.id}`, "media.write"],
      ["POST", `/v1/collections/${col.id}/items`, "media.write", { items: [{ kind: "image", id: "i".repeat(11) }] }],
      ["DELETE", `/v1/collections/${col.id}/items`, "media.write", { items: [{ kind: "image", id: "i".repeat(11) }] }],
      ["PUT", `/v1/collections/${col.id}/order`, "media.write", { items: [{ kind: "image", id: "i".repeat(11) }] }],
    ];
    const { key: readOnly } = await makeKey(user, ["media.read"]);
    const { key: writeOnly } = await makeKey(user, ["media.write"]);
    for (const [method, path, scope, json] of routes) {
      const anonymous = await callJson(method, path, { json });
      expect({ path, status: anonymous.status, code: anonymous.body.code }).toEqual({ path, status: 401, code: "UNAUTHORIZED" });
      const wrong = await callJson(method, path, { json, token: scope === "media.read" ? writeOnly : readOnly });
      expect({ method, path, status: wrong.status, code: wrong.body.code }).toEqual({ method, path, status: 403, code: "FORBIDDEN" });
    }
    expect((await callJson("GET", `/v1/collections/${col.id}`, { token: user.jwt })).status).toBe(200);
  });

  test("another user's collection is 404 on every route and is not listed; theirs stays as it was", async () => {
    const owner = await makeUser();
    const img = await anImage(owner);
    const col = await newCollection(owner.jwt, { title: "Private", items: [img] });
    const stranger = await makeUser();
    const own = await anImage(stranger);
    const before = await callJson("GET", `/v1/collections/${col.id}`, { token: owner.jwt });
    for (const [method, path, json] of [
      ["GET", `/v1/collections/${col.id}`],
      ["GET", `/v1/collections/${col.id}/items`],
      ["PATCH", `/v1/collections/${col.id}`, { title: "Mine" }],
      ["DELETE", `/v1/collections/${col.id}`],
      ["POST", `/v1/collections/${col.id}/items`, { items: [own] }],
      ["DELETE", `/v1/collections/${col.id}/items`, { items: [img] }],
      ["PUT", `/v1/collections/${col.id}/order`, { items: [img] }],
    ] as [string, string, unknown?][]) {
      const res = await callJson(method, path, { token: stranger.jwt, json });
      expect({ method, path, status: res.status, code: res.body.code }).toEqual({ method, path, status: 404, code: "NOT_FOUND" });
    }
    expect((await callJson("GET", "/v1/collections", { token: stranger.jwt })).body.data.items).toEqual([]);
    expect((await callJson("GET", `/v1/collections/${col.id}`, { token: owner.jwt })).body).toEqual(before.body);
    expect(await itemRefs(owner.jwt, col.id)).toEqual([img]);
  });
});

describe("collections: limits", () => {
  test("past 1000 collections an account is refused 403 COLLECTION_LIMIT_REACHED; past 1000 items a collection 409 COLLECTION_FULL, nothing added", async () => {
    const { deps } = await testContext();
    const user = await makeUser();
    const now = deps.clock.now();
    // Rows as the routes leave them, written at once: a thousand requests would only be slower.
    await deps.db
      .insert(collections)
      .values(
        Array.from({ length: COLLECTION_LIMITS.perAccount - 1 }, (_, i) => ({ id: newId(), ownerId: user.id, title: `C${i}`, createdAt: now, updatedAt: now })),
      );
    const last = await newCollection(user.jwt, { title: "The last one" });
    const refused = await callJson("POST", "/v1/collections", { token: user.jwt, json: { title: "One too many" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: "COLLECTION_LIMIT_REACHED", meta: { limit: 1000, used: 1000 } });

    const vids = Array.from({ length: COLLECTION_LIMITS.itemsPerCollection }, () => ({
      id: newId(),
      ownerId: user.id,
      title: "clip",
      filename: "clip.mp4",
      sizeBytes: 1,
      container: "mp4" as const,
      provider: "local" as const,
      createdAt: now,
      updatedAt: now,
    }));
    await deps.db.insert(videos).values(vids);
    await deps.db
      .insert(collectionItems)
      .values(vids.map((v, i) => ({ collectionId: last.id, kind: "video" as const, itemId: v.id, position: i, addedAt: now })));
    expect((await callJson("GET", `/v1/collections/${last.id}`, { token: user.jwt })).body.data.itemCount).toBe(1000);
    const img = await anImage(user);
    const full = await callJson("POST", `/v1/collections/${last.id}/items`, { token: user.jwt, json: { items: [img, { kind: "video", id: vids[0]!.id }] } });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: "COLLECTION_FULL", meta: { limit: 1000, count: 1000, adding: 1 } });
    // What is in it already is no addition: accepted.
    const again = await callJson("POST", `/v1/collections/${last.id}/items`, { token: user.jwt, json: { items: [{ kind: "video", id: vids[0]!.id }] } });
    expect(again.body.data).toMatchObject({ added: 0, alreadyIn: 1, collection: { itemCount: 1000 } });
  });
});
