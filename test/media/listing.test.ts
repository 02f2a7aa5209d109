// GET /v1/media: videos and audio under one cursor, newest first; on one instant videos
// before audio, each kind's ids in the order its SQL gives them; paging neither repeats
// nor skips while new items arrive; type filter, cursor and limit bounds; no user sees
// another's items.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { encodeCursor } from "../../src/core/cursor.ts";
import { newId } from "../../src/infra/ids.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { clip, uploadVideo } from "../videos/fixtures.ts";
import { addItem, allPages, KINDS, type Kind, listPage } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const kindAt = (i: number) => KINDS[i % KINDS.length]!;
/** A fresh id beginning with `first` (21 characters, as every id). */
const idStarting = (first: string) => first + newId().slice(1);

/** The ids in descending order as the database compares text (its collation, whatever it is). */
async function dbOrderDesc(ids: string[]): Promise<string[]> {
  const { deps } = await testContext();
  const res = await deps.db.execute(sql`select x from unnest(${`{${ids.join(",")}}`}::text[]) as t(x) order by x desc`);
  return ((res as { rows?: { x: string }[] }).rows ?? (res as unknown as { x: string }[])).map((r) => r.x);
}

describe("GET /v1/media", () => {
  test("newest first; on one instant videos before audio, each kind's ids as its SQL orders them; every page size gives the same sequence", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    const t0 = deps.clock.nowMs() - 60_000;
    const made: { at: number; id: string; kind: Kind }[] = [];
    for (let i = 0; i < 4; i++) {
      const at = t0 + i * 1000;
      made.push({ at, kind: kindAt(i), id: await addItem(kindAt(i), user.id, new Date(at)) });
    }
    // Items of every kind on one instant, with ids that sort differently by bytes than by a
    // language's rules (a database may have either).
    const tie = t0 + 1500;
    for (const kind of KINDS) {
      for (const first of ["A", "_", "-", "z", "0", "a"]) {
        const id = idStarting(first);
        await addItem(kind, user.id, new Date(tie), id);
        made.push({ at: tie, kind, id });
      }
    }
    const expected: string[] = [];
    for (const at of [...new Set(made.map((m) => m.at))].sort((a, b) => b - a)) {
      for (const kind of KINDS) expected.push(...(await dbOrderDesc(made.filter((m) => m.at === at && m.kind === kind).map((m) => m.id))));
    }
    for (const limit of [1, 2, 3, 5, 50]) expect((await allPages(key, `limit=${limit}`)).flat()).toEqual(expected);

    const all = await listPage(key, "limit=50");
    expect(all.nextCursor).toBeNull();
    for (const item of all.items) expect(item.type).toBe(made.find((m) => m.id === item.id)!.kind);
  });

  test("a video item is the GET /v1/videos list item plus type video; an audio item is the audio resource", async () => {
    const { user, key } = await makeClient({ plan: "pro" });
    const v = await addItem("video", user.id, new Date());
    const up = await uploadAudio(key, await fixture("mp3"), "tone.mp3");
    expect(up.status).toBe(201);
    const listed = (await callJson("GET", "/v1/videos", { token: key })).body.data.items[0];
    expect((await listPage(key, "type=video")).items).toEqual([{ ...listed, type: "video" }]);
    expect(listed.id).toBe(v);
    const [item] = (await listPage(key, "type=audio")).items;
    const full = (await callJson("GET", `/v1/audio/${up.body.data.id}`, { token: key })).body.data;
    const fields = [
      "id",
      "type",
      "url",
      "filename",
      "sizeBytes",
      "mimeType",
      "title",
      "thumbnailUrl",
      "placeholder",
      "durationSeconds",
      "bitrate",
      "status",
      "isPublic",
      "createdAt",
    ];
    expect(Object.keys(item!).sort()).toEqual([...fields].sort());
    expect(item).toEqual(Object.fromEntries(fields.map((f) => [f, full[f]])) as never);
    expect(item).toMatchObject({ type: "audio", status: "ready", mimeType: "audio/mpeg" });
  }, 60_000);

  test("pages through mixed videos and audio without duplicates or gaps while uploads happen; the new items are newer than every cursor, so none shows behind it", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    const [video, tone] = await Promise.all([clip(), fixture("mp3")]);
    const t0 = deps.clock.nowMs() - 120_000;
    const existing = new Set<string>();
    // Two items per instant, of both kinds, so page edges fall inside instants too.
    for (let i = 0; i < 11; i++) existing.add(await addItem(kindAt(i), user.id, new Date(t0 + Math.floor(i / 2) * 1000)));

    const added: string[] = [];
    const pages = await allPages(key, "limit=3", async () => {
      // A video and an audio file uploaded through their routes, each after the clock moved on.
      deps.clock.advance(1000);
      const v = await uploadVideo(key, video);
      expect(v.status).toBe(201);
      added.push(v.body.data.id);
      deps.clock.advance(1000);
      const a = await uploadAudio(key, tone, "tone.mp3");
      expect(a.status).toBe(201);
      added.push(a.body.data.id);
    });
    const seen = pages.flat();
    expect(pages.length).toBe(4);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(existing);
    expect(seen.filter((id) => added.includes(id))).toEqual([]);

    // A listing from the start shows them, newest first, before the older ones.
    const fresh = await listPage(key, "limit=50");
    expect(fresh.items.slice(0, added.length).map((i) => i.id)).toEqual([...added].reverse());
    expect(fresh.items.slice(0, added.length).map((i) => i.type)).toEqual(added.map((_, i) => (i % 2 ? "audio" : "video")).reverse());
    expect(new Set(fresh.items.slice(added.length).map((i) => i.id))).toEqual(existing);
  }, 120_000);

  test("type=video and type=audio list one kind each, page by page; another type is 422", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    const t0 = deps.clock.nowMs() - 60_000;
    const byKind: Record<Kind, string[]> = { video: [], audio: [] };
    for (let i = 0; i < 8; i++) byKind[kindAt(i)].unshift(await addItem(kindAt(i), user.id, new Date(t0 + i * 1000)));
    for (const kind of KINDS) {
      expect((await allPages(key, `type=${kind}&limit=3`)).flat()).toEqual(byKind[kind]);
      const page = await listPage(key, `type=${kind}`);
      expect(page.items.every((i) => i.type === kind)).toBe(true);
    }
    // A cursor names a place in the one order, whichever filter made it.
    const mixed = await listPage(key, "limit=3");
    const rest = (await allPages(key, `type=audio&cursor=${mixed.nextCursor}`)).flat();
    expect(rest).toEqual(byKind.audio.filter((id) => !mixed.items.some((i) => i.id === id)));
    for (const bad of ["image", "VIDEO", "video,audio", ""]) {
      const res = await callJson("GET", `/v1/media?type=${bad}`, { token: key });
      expect(res.status, bad).toBe(422);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
  });

  test("limit: default 20, 1 to 50; 0, 51 or not a number is 422", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient({ plan: "pro" });
    const t0 = deps.clock.nowMs() - 100_000;
    for (let i = 0; i < 21; i++) await addItem(kindAt(i), user.id, new Date(t0 + i));
    const page = await listPage(key, "");
    expect(page.items.length).toBe(20);
    expect(page.nextCursor).toEqual(expect.any(String));
    expect((await listPage(key, "limit=50")).items.length).toBe(21);
    expect((await listPage(key, "limit=1")).items.length).toBe(1);
    for (const bad of ["0", "51", "-1", "x", "2.5"]) {
      const res = await callJson("GET", `/v1/media?limit=${bad}`, { token: key });
      expect(res.status, bad).toBe(422);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
  });

  test("a cursor that is not one of ours is 400 INVALID_CURSOR", async () => {
    const { key } = await makeClient();
    const bad = [
      "nope!",
      "bm9wZQ",
      encodeCursor(["2026-01-01T00:00:00.000Z"]),
      encodeCursor(["2026-01-01T00:00:00.000Z", "x"]),
      encodeCursor(["2026-01-01T00:00:00.000Z", "image", "x"]),
      encodeCursor(["2026-01-01T00:00:00.000Z", "video", "x", "y"]),
      encodeCursor([12, "video", "x"]),
      encodeCursor(["2026-01-01", "video", "x"]),
      encodeCursor(["2026-01-01T00:00:00.000Z", "video", 5]),
      "A".repeat(600),
    ];
    for (const cursor of bad) {
      const res = await callJson("GET", `/v1/media?cursor=${encodeURIComponent(cursor)}`, { token: key });
      expect(res.status, cursor).toBe(400);
      expect(res.body.code).toBe("INVALID_CURSOR");
    }
    // Any instant and id a cursor may hold is an answer, never a 500.
    for (const type of KINDS) {
      for (const at of ["9999-12-31T23:59:59.999Z", "0001-01-01T00:00:00.000Z"]) {
        const res = await callJson("GET", `/v1/media?cursor=${encodeCursor([at, type, ""])}`, { token: key });
        expect([200, 400], `${type} ${at}`).toContain(res.status);
      }
    }
    // An empty cursor is the first page.
    expect((await callJson("GET", "/v1/media?cursor=", { token: key })).status).toBe(200);
  });

  test("lists the caller's items only, whoever else has items at the same instants", async () => {
    const { deps } = await testContext();
    const a = await makeClient({ plan: "pro" });
    const b = await makeClient({ plan: "pro" });
    const at = new Date(deps.clock.nowMs() - 5000);
    const mine = [await addItem(kindAt(0), a.user.id, at), await addItem(kindAt(1), a.user.id, at)];
    await addItem(kindAt(0), b.user.id, at);
    await addItem(kindAt(1), b.user.id, at);
    expect(new Set((await allPages(a.key, "limit=1")).flat())).toEqual(new Set(mine));
    // Another user's cursor only names an instant and an id: it shows the caller's own items.
    const theirs = await listPage(b.key, "limit=1");
    const page = await listPage(a.key, `cursor=${theirs.nextCursor}`);
    for (const item of page.items) expect(mine).toContain(item.id);
  });

  test("401 without a credential, 403 without media.read", async () => {
    await expectTenantIsolation({ method: "GET", path: () => "/v1/media", scope: "media.read" });
  });
});
