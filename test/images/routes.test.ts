// GET /v1/images (pages, cursors, tags, total), GET/PATCH/DELETE /v1/images/:id, and the
// cross-tenant checks every route runs.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createModuleApp } from "../../src/wiring/app.ts";
import { CACHE_TTL_MS } from "../../src/infra/cache.ts";
import { identityModule } from "../../src/modules/identity/index.ts";
import { imagesModule } from "../../src/modules/images/index.ts";
import { createServices, routeServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { testContext, callJson, call } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser, type TestUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { edgeGet, png, uploaded } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const smallPng = await png(8, 8);
const createFor = async (owner: TestUser) => (await uploaded(owner.jwt, smallPng, { tags: '["keep"]' })).id;

/** The owner's image is still there, unchanged, and still served. */
async function expectUntouched(owner: TestUser, id: string) {
  const res = await callJson("GET", `/v1/images/${id}`, { token: owner.jwt });
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ id, filename: "upload.bin", tags: ["keep"], is_public: true });
  expect((await edgeGet(res.body.data.url)).status).toBe(200);
}

describe("images: tenancy", () => {
  test("GET /v1/images/:id: 401, 403 without media.read, 404 for another user's image", async () => {
    await expectTenantIsolation({ method: "GET", path: (id) => `/v1/images/${id}`, scope: "media.read", create: createFor, untouched: expectUntouched });
  });

  test("PATCH /v1/images/:id: 401, 403 without media.write, 404 for another user's image, which stays as it was", async () => {
    await expectTenantIsolation({
      method: "PATCH",
      path: (id) => `/v1/images/${id}`,
      scope: "media.write",
      create: createFor,
      request: () => ({ json: { is_public: false, tags: ["stolen"] } }),
      untouched: expectUntouched,
    });
  });

  test("DELETE /v1/images/:id: 401, 403 without media.delete, 404 for another user's image, which stays", async () => {
    await expectTenantIsolation({ method: "DELETE", path: (id) => `/v1/images/${id}`, scope: "media.delete", create: createFor, untouched: expectUntouched });
  });

  test("GET /v1/images: 401, 403 without media.read; another user's images are not listed", async () => {
    await expectTenantIsolation({ method: "GET", path: () => "/v1/images", scope: "media.read" });
    const owner = await makeUser();
    const id = await createFor(owner);
    const { key } = await makeClient();
    const list = await callJson("GET", "/v1/images", { token: key });
    expect(list.body.data).toEqual({ items: [], nextCursor: null, total: 0 });
    const byTag = await callJson("GET", "/v1/images?tag=keep", { token: key });
    expect(byTag.body.data.items.map((i: { id: string }) => i.id)).not.toContain(id);
  });
});

describe("GET /v1/images", () => {
  test("pages and cursors walk the whole list, newest first, with total and list fields", async () => {
    const { key } = await makeClient();
    const { deps } = await testContext();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push((await uploaded(key, smallPng, { filename: `p${i}.png`, tags: i % 2 ? '["odd"]' : "[]" })).id);
      deps.clock.advance(1); // distinct created_at, so "newest first" is observable
    }
    const seen: string[] = [];
    let cursor: string | null = "";
    let pages = 0;
    while (cursor !== null) {
      const res: { status: number; body: any } = await callJson("GET", `/v1/images?limit=3${cursor ? `&cursor=${cursor}` : ""}`, { token: key });
      expect(res.status).toBe(200);
      expect(res.body.data.total).toBe(7);
      expect(res.body.data.items.length).toBeLessThanOrEqual(3);
      for (const item of res.body.data.items) {
        expect(Object.keys(item).sort()).toEqual([
          "created_at",
          "filename",
          "height",
          "id",
          "is_public",
          "placeholder",
          "size",
          "tags",
          "thumbnail_url",
          "url",
          "width",
        ]);
        seen.push(item.id);
      }
      cursor = res.body.data.nextCursor;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  test("tag filters; limit defaults to 20 and is at most 100; a bad cursor is 400 INVALID_CURSOR", async () => {
    const { key } = await makeClient();
    await uploaded(key, smallPng, { tags: '["odd","x"]' });
    await uploaded(key, smallPng, { tags: '["even"]' });
    const odd = await callJson("GET", "/v1/images?tag=odd", { token: key });
    expect(odd.body.data.items).toHaveLength(1);
    expect(odd.body.data.items[0].tags).toEqual(["odd", "x"]);
    expect(odd.body.data.total).toBe(2); // the whole library
    expect((await callJson("GET", "/v1/images?limit=101", { token: key })).status).toBe(422);
    expect((await callJson("GET", "/v1/images?limit=100", { token: key })).status).toBe(200);
    for (const cursor of ["bm9wZQ", Buffer.from(JSON.stringify(["0000-01-01T00:00:00.000Z", "x"])).toString("base64url")]) {
      const bad = await callJson("GET", `/v1/images?cursor=${cursor}`, { token: key });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe("INVALID_CURSOR");
    }
    for (const limit of ["0", "abc"]) expect((await callJson("GET", `/v1/images?limit=${limit}`, { token: key })).status).toBe(422);
  });

  test("without a limit a page holds 20 items", async () => {
    const { key } = await makeClient({ plan: "pro" });
    for (let i = 0; i < 21; i++) await uploaded(key, smallPng);
    const first = await callJson("GET", "/v1/images", { token: key });
    expect(first.body.data.items).toHaveLength(20);
    expect(first.body.data.total).toBe(21);
    const rest = await callJson("GET", `/v1/images?cursor=${first.body.data.nextCursor}`, { token: key });
    expect(rest.body.data.items).toHaveLength(1);
    expect(rest.body.data.nextCursor).toBeNull();
  });

  test("an API key the list has cached: refused at once once revoked; a deleted account's key refused once the cache's 5 s are over", async () => {
    // A node of its own on a clock that stands still, so "still cached" cannot run out by itself.
    const { deps } = await testContext();
    const clock = stoppedClock(deps.clock.nowMs());
    const services = createServices({ ...deps, clock });
    const app = createModuleApp(services, identityModule(routeServices(services)), imagesModule(routeServices(services)));
    try {
      const list = (key: string) => callJson("GET", "/v1/images", { token: key, app });
      const owner = await makeUser();
      const revoked = await makeKey(owner);
      expect((await list(revoked.key)).status).toBe(200); // cached now
      expect((await call("DELETE", `/v1/api-keys/${revoked.id}`, { token: owner.jwt, app })).status).toBe(204);
      const refused = await list(revoked.key);
      expect([refused.status, refused.body.code]).toEqual([401, "API_KEY_REVOKED"]);

      const gone = await makeClient();
      await uploaded(gone.key, smallPng);
      expect((await list(gone.key)).body.data.total).toBe(1); // cached now
      await deps.db.execute(sql`delete from users where id = ${gone.user.id}`);
      clock.advance(CACHE_TTL_MS);
      expect((await list(gone.key)).status).toBe(401);
    } finally {
      await services.close();
    }
  });
});

describe("GET, PATCH /v1/images/:id", () => {
  test("GET one returns the list item; an unknown or malformed id is 404 / 422", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, smallPng, { filename: "one.png" });
    const res = await callJson("GET", `/v1/images/${d.id}`, { token: key });
    expect(res.body.data).toMatchObject({ ...d, is_public: true, tags: [] });
    expect((await callJson("GET", "/v1/images/AAAAAAAAAAA", { token: key })).status).toBe(404);
    expect((await callJson("GET", "/v1/images/short", { token: key })).status).toBe(422);
  });

  test("PATCH changes filename, is_public and tags; an empty or invalid body is 422", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, smallPng);
    const res = await callJson("PATCH", `/v1/images/${d.id}`, { token: key, json: { filename: "renamed.png", is_public: false, tags: ["a", "b"] } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: d.id, filename: "renamed.png", is_public: false, tags: ["a", "b"], url: d.url });
    expect((await callJson("GET", `/v1/images/${d.id}`, { token: key })).body.data.filename).toBe("renamed.png");
    // At the limits: 10 tags of 32 characters.
    const most = Array.from({ length: 10 }, (_, i) => `${i}`.padEnd(32, "x"));
    const full = await callJson("PATCH", `/v1/images/${d.id}`, { token: key, json: { tags: most } });
    expect(full.status).toBe(200);
    expect(full.body.data.tags).toEqual(most);
    for (const json of [
      {},
      { tags: ["x".repeat(33)] },
      { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) },
      { filename: "" },
      { filename: "a/b" },
      { size: 1 },
    ]) {
      const bad = await callJson("PATCH", `/v1/images/${d.id}`, { token: key, json });
      expect(bad.status).toBe(422);
      expect(bad.body.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("DELETE /v1/images/:id", () => {
  test("204; to the trash: the edge stops serving it, its bytes stay counted until its purge removes the objects", async () => {
    const { user, key: uploadKey } = await makeClient();
    const { key } = await makeKey(user, ["media.read", "media.write", "media.delete", "usage.read"]);
    const { deps } = await testContext();
    const d = await uploaded(uploadKey, await png(64, 64));
    expect((await edgeGet(d.url)).status).toBe(200); // now cached at the edge
    const before = await callJson("GET", "/v1/user/me/usage", { token: key });
    expect(before.body.data.image.storage.used).toBeGreaterThan(d.size); // original + WebP

    const del = await call("DELETE", `/v1/images/${d.id}`, { token: key });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe("");

    const trashed = await callJson("GET", "/v1/user/me/usage", { token: key });
    expect(trashed.body.data.image.storage.used).toBe(before.body.data.image.storage.used);
    expect(trashed.body.data.trashBytes).toBe(before.body.data.image.storage.used);
    expect((await edgeGet(d.url)).status).toBe(404);
    expect((await edgeGet(d.url, { accept: "image/webp" })).status).toBe(404);
    expect((await callJson("GET", `/v1/images/${d.id}`, { token: key })).status).toBe(404);
    expect((await call("DELETE", `/v1/images/${d.id}`, { token: key })).status).toBe(404);

    expect((await call("DELETE", `/v1/trash/${d.id}`, { token: key })).status).toBe(204);
    const after = await callJson("GET", "/v1/user/me/usage", { token: key });
    expect([after.body.data.image.storage.used, after.body.data.trashBytes]).toEqual([0, 0]);
    const left = [];
    for await (const o of deps.storage.list(`images/${user.id}/`)) left.push(o.key);
    expect(left).toEqual([]);
  });
});
