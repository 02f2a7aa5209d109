// GET, PATCH and DELETE /v1/audio/:id, and what the module offers the unified
// media listing, the usage check and the orphan sweep (public.ts).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { inArray } from "drizzle-orm";
import { audio } from "../../src/modules/audio/table.ts";
import { AudioItem, audioMediaPage, purgeAudio, storedAudio, trashAudio } from "../../src/modules/audio/public.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser, type TestUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { audioObjects, audioRow, fixture, uploadAudio, usageOf } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

async function uploaded(token: string, kind: Parameters<typeof fixture>[0] = "mp3", fields: Record<string, string> = {}) {
  const res = await uploadAudio(token, await fixture(kind), `a.${kind.slice(0, 4).replace("-", "")}`, fields);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const edge = (url: string, token?: string) => call("GET", new URL(url).pathname, { token });

describe("GET /v1/audio/:id", () => {
  test("the owner reads both; anonymous and strangers read a public file, a private one is 404 to them; a bad credential is 401", async () => {
    const { user, key } = await makeClient();
    const pub = await uploaded(key);
    const priv = await uploaded(key, "mp3", { isPublic: "false" });
    const stranger = await makeUser();
    for (const a of [pub, priv]) {
      const own = await callJson("GET", `/v1/audio/${a.id}`, { token: user.jwt });
      expect(own.status).toBe(200);
      expect(own.body.data).toMatchObject({ id: a.id, type: "audio", status: "ready", isPublic: a.isPublic });
    }
    expect((await callJson("GET", `/v1/audio/${pub.id}`)).status).toBe(200);
    expect((await callJson("GET", `/v1/audio/${pub.id}`, { token: stranger.jwt })).status).toBe(200);
    const hidden = await callJson("GET", `/v1/audio/${priv.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ code: "NOT_FOUND", meta: { entity: "audio" } });
    expect((await callJson("GET", `/v1/audio/${priv.id}`, { token: stranger.jwt })).status).toBe(404);
    expect((await callJson("GET", `/v1/audio/${pub.id}`, { token: "sk_not_a_key" })).status).toBe(401);
    const { key: narrow } = await makeKey(user, ["usage.read"]);
    expect((await callJson("GET", `/v1/audio/${pub.id}`, { token: narrow })).status).toBe(403);
  });

  test("a private file and its thumbnail play only with its owner's credential on the edge (404 to anyone else)", async () => {
    const { user, key } = await makeClient();
    const a = await uploaded(key, "mp3", { isPublic: "false" });
    expect((await edge(a.url)).status).toBe(404);
    expect((await edge(a.url, (await makeUser()).jwt)).status).toBe(404);
    const own = await edge(a.url, user.jwt);
    expect(own.status).toBe(200);
    expect(own.headers.get("cache-control")).toBe("private, no-cache");
    expect((await edge(a.thumbnailUrl, user.jwt)).status).toBe(200);
  });
});

describe("PATCH /v1/audio/:id", () => {
  test("{} changes nothing and answers the file; title and is_public (or isPublic) change it, and the edge follows at once", async () => {
    const { key } = await makeClient();
    const a = await uploaded(key);
    const same = await callJson("PATCH", `/v1/audio/${a.id}`, { token: key, json: {} });
    expect(same.status).toBe(200);
    expect(same.body.data).toEqual(a);
    expect((await edge(a.url)).status).toBe(200);

    const changed = await callJson("PATCH", `/v1/audio/${a.id}`, { token: key, json: { title: "Renamed", is_public: false } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ title: "Renamed", isPublic: false, filename: a.filename });
    expect((await edge(a.url)).status).toBe(404);
    const back = await callJson("PATCH", `/v1/audio/${a.id}`, { token: key, json: { isPublic: true } });
    expect(back.body.data.isPublic).toBe(true);
    expect((await edge(a.url)).status).toBe(200);
  });

  test("a title over 255 characters, a blank one, a number, or disagreeing is_public/isPublic: 422, nothing changed", async () => {
    const { key } = await makeClient();
    const a = await uploaded(key);
    for (const json of [{ title: "x".repeat(256) }, { title: " " }, { title: 7 }, { is_public: true, isPublic: false }]) {
      const res = await callJson("PATCH", `/v1/audio/${a.id}`, { token: key, json });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    expect(await audioRow(a.id)).toMatchObject({ title: a.title, isPublic: true });
  });
});

describe("DELETE /v1/audio/:id", () => {
  test("204 to the trash, the edge's copy dropped; purged: the object, the cover and the record gone, every counter back where it was", async () => {
    const { user, key } = await makeClient();
    const before = await usageOf(user);
    const a = await uploaded(key, "mp3-cover");
    expect((await edge(a.url)).status).toBe(200);
    expect((await edge(a.thumbnailUrl)).status).toBe(200);
    const during = await usageOf(user);
    expect(during.video.storage.used).toBeGreaterThan(before.video.storage.used);
    expect(during.image.storage.used).toBeGreaterThan(before.image.storage.used);

    const del = await call("DELETE", `/v1/audio/${a.id}`, { token: user.jwt });
    expect(del.status).toBe(204);
    // In the trash: not served, still counted; purged, gone.
    expect((await edge(a.url)).status).toBe(404);
    expect((await usageOf(user)).video.storage).toEqual(during.video.storage);
    expect((await call("DELETE", `/v1/trash/${a.id}`, { token: user.jwt })).status).toBe(204);
    const after = await usageOf(user);
    expect(after.video.storage).toEqual(before.video.storage);
    expect(after.image.storage).toEqual(before.image.storage);
    expect(await audioObjects(user.id)).toEqual([]);
    expect(await audioRow(a.id)).toBeUndefined();
    expect((await edge(a.url)).status).toBe(404);
    expect((await edge(a.thumbnailUrl)).status).toBe(404);
    expect((await callJson("GET", `/v1/audio/${a.id}`, { token: key })).status).toBe(404);
    expect((await call("DELETE", `/v1/audio/${a.id}`, { token: user.jwt })).status).toBe(404);
  });
});

describe("tenancy", () => {
  for (const route of [
    { method: "PATCH", path: (id: string) => `/v1/audio/${id}`, scope: "media.write" as const, request: () => ({ json: { title: "mine now" } }) },
    { method: "DELETE", path: (id: string) => `/v1/audio/${id}`, scope: "media.delete" as const },
  ]) {
    test(`${route.method} /v1/audio/:id: 401 without a credential, 403 without the scope, 404 for another user's file`, async () => {
      await expectTenantIsolation({
        ...route,
        create: async (owner: TestUser) => (await uploaded(owner.jwt)).id,
        untouched: async (owner, id) => {
          expect(await audioRow(id)).toMatchObject({ ownerId: owner.id, title: "a.mp3" });
          expect(await audioObjects(owner.id)).toEqual([`audio/${owner.id}/${id}/original`]);
        },
      });
    });
  }
});

describe("public surface", () => {
  test("audioMediaPage: newest first by (createdAt, id), strictly after the key, AudioItems of the owner only", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await uploaded(key)).id);
    // Three at one instant: the id breaks the tie.
    const tie = (await audioRow(ids[1]!))!.createdAt;
    await deps.db
      .update(audio)
      .set({ createdAt: tie })
      .where(inArray(audio.id, ids.slice(1, 4)));
    await uploaded((await makeUser()).jwt);
    const all = await audioMediaPage(deps, user.id, null, 10);
    expect(all).toHaveLength(5);
    for (const item of all) expect(Value.Check(AudioItem, item)).toBe(true);
    const key2 = (i: AudioItem) => `${i.createdAt}|${i.id}`;
    expect(all.map(key2)).toEqual(all.map(key2).sort().reverse());
    expect(new Set(all.map((i) => i.id))).toEqual(new Set(ids));

    const walked: string[] = [];
    let after: { createdAt: Date; id: string } | null = null;
    for (;;) {
      const page = await audioMediaPage(deps, user.id, after, 2);
      if (page.length === 0) break;
      walked.push(...page.map((i) => i.id));
      const last = page[page.length - 1]!;
      after = { createdAt: new Date(last.createdAt), id: last.id };
    }
    expect(walked).toEqual(all.map((i) => i.id));
  });

  test("trashAudio and purgeAudio are false for another owner's or an absent file; the stored kind's recount and references follow the rows", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const a = await uploaded(key);
    const b = await uploaded(key, "mp3-cover");
    const row = (await audioRow(b.id))!;
    const recount = async (id: string) => (await storedAudio.recount(deps.db, [id])).get(id);
    expect(await recount(user.id)).toEqual({ mediaBytes: a.sizeBytes + b.sizeBytes, imageBytes: row.coverBytes, trashBytes: 0 });
    const aKey = `audio/${user.id}/${a.id}/original`;
    const named = [aKey, row.objectKey, row.coverKey!];
    const strangerKey = `audio/${"s".repeat(21)}/${a.id}/original`;
    expect(await storedAudio.referenced(deps.db, [...named, strangerKey, `audio/${user.id}/${a.id}/other`])).toEqual(new Set(named));

    const stranger = await makeUser();
    expect(await trashAudio(deps, stranger.id, a.id)).toBe(false);
    expect(await trashAudio(deps, user.id, "x".repeat(21))).toBe(false);
    // Not in the trash yet: nothing to purge.
    expect(await purgeAudio(deps, user.id, a.id)).toBe(false);
    expect(await trashAudio(deps, user.id, a.id)).toBe(true);
    // Trashed, it still counts, and its object is still named.
    expect(await recount(user.id)).toEqual({ mediaBytes: a.sizeBytes + b.sizeBytes, imageBytes: row.coverBytes, trashBytes: a.sizeBytes });
    expect((await storedAudio.referenced(deps.db, [aKey])).size).toBe(1);
    expect(await purgeAudio(deps, stranger.id, a.id)).toBe(false);
    expect(await purgeAudio(deps, user.id, a.id)).toBe(true);
    expect(await recount(user.id)).toEqual({ mediaBytes: b.sizeBytes, imageBytes: row.coverBytes, trashBytes: 0 });
    expect((await storedAudio.referenced(deps.db, [aKey])).size).toBe(0);
    expect(await recount(stranger.id)).toBeUndefined();
  });
});
