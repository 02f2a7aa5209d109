// Collections in the account export (docs/api.md, "Backup"): the manifest lists each of the
// account's collections with its fields, its chosen cover and its items in order, keeping
// only the items the archive lists (not one in the trash, not one of a kind not exported).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { call, callJson } from "../helpers/context.ts";
import { makeUser, type TestUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { download, exportWorker, readZip, runExport, startExport } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS * 2);

type Ref = { kind: "image" | "video" | "audio"; id: string };

async function anImage(user: TestUser, name: string): Promise<Ref> {
  return { kind: "image", id: (await uploaded(user.jwt, await png(8, 8), { filename: name })).id };
}

async function collection(user: TestUser, body: { title: string; description?: string; items: Ref[] }, cover?: Ref) {
  const res = await callJson("POST", "/v1/collections", { token: user.jwt, json: body });
  expect(res.status).toBe(201);
  if (cover) expect((await callJson("PATCH", `/v1/collections/${res.body.data.id}`, { token: user.jwt, json: { cover } })).status).toBe(200);
  return (await callJson("GET", `/v1/collections/${res.body.data.id}`, { token: user.jwt })).body.data as { id: string; createdAt: string; updatedAt: string };
}

/** The manifest of an export of `kinds` (everything when absent), run to its end. */
async function manifestOf(user: TestUser, kinds?: string[]) {
  const id = (await startExport(user.jwt, kinds ? { kinds } : {})).body.data.id;
  const ready = await runExport(await exportWorker(), user.jwt, id);
  expect(ready.state).toBe("ready");
  const members = await readZip(new Uint8Array(await (await download(ready.downloadUrl)).arrayBuffer()));
  return JSON.parse(new TextDecoder().decode(members.find((m) => m.name === "manifest.json")!.bytes));
}

describe("collections in the export's manifest", () => {
  test("each collection with its fields, its chosen cover and its items in order; a trashed item is not in it, nor a cover that is", async () => {
    const user = await makeUser({ plan: "pro" });
    const [a, b, c] = [await anImage(user, "a.png"), await anImage(user, "b.png"), await anImage(user, "c.png")];
    const audio = await uploadAudio(user.jwt, await fixture("mp3"), "song.mp3");
    expect(audio.status).toBe(201);
    const song: Ref = { kind: "audio", id: audio.body.data.id };
    const trip = await collection(user, { title: "Trip", description: "the summer", items: [b, song, a, c] }, a);
    const covered = await collection(user, { title: "Covered by the trashed one", items: [c, a] }, c);
    const empty = await collection(user, { title: "Empty", items: [] });
    expect((await call("DELETE", `/v1/images/${c.id}`, { token: user.jwt })).status).toBe(204);

    const manifest = await manifestOf(user);
    expect(manifest.version).toBe(1);
    expect(manifest.counts).toMatchObject({ items: 3, collections: 3 });
    expect(manifest.items.map((i: Ref) => i.id)).not.toContain(c.id);
    expect(manifest.collections).toEqual([
      { id: trip.id, title: "Trip", description: "the summer", cover: a, createdAt: trip.createdAt, updatedAt: trip.updatedAt, items: [b, song, a] },
      {
        id: covered.id,
        title: "Covered by the trashed one",
        description: null,
        cover: null,
        createdAt: covered.createdAt,
        updatedAt: covered.updatedAt,
        items: [a],
      },
      { id: empty.id, title: "Empty", description: null, cover: null, createdAt: empty.createdAt, updatedAt: empty.updatedAt, items: [] },
    ]);
  });

  test("only the exported kinds' items are kept; an export without media holds no collection", async () => {
    const user = await makeUser({ plan: "pro" });
    const a = await anImage(user, "a.png");
    const audio = await uploadAudio(user.jwt, await fixture("mp3"), "song.mp3");
    const song: Ref = { kind: "audio", id: audio.body.data.id };
    const mixed = await collection(user, { title: "Mixed", items: [song, a] }, song);

    const images = await manifestOf(user, ["images"]);
    expect(images.collections).toEqual([expect.objectContaining({ id: mixed.id, items: [a], cover: null })]);
    const documents = await manifestOf(user, ["documents"]);
    expect(documents.collections).toEqual([]);
    expect(documents.counts.collections).toBe(0);
  });
});
