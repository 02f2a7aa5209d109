// A user's media of each kind, to put in collections.
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { callJson } from "../helpers/context.ts";
import type { TestUser } from "../helpers/factories.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { insertVideo } from "../videos/fixtures.ts";

export type Ref = { kind: "image" | "video" | "audio"; id: string };

export async function anImage(user: TestUser): Promise<Ref> {
  return { kind: "image", id: (await uploaded(user.jwt, await png(8, 8))).id };
}

export async function aVideo(user: TestUser): Promise<Ref> {
  return { kind: "video", id: (await insertVideo(user.id, { status: "ready", durationSeconds: 3 })).id };
}

export async function anAudio(user: TestUser): Promise<Ref> {
  const res = await uploadAudio(user.jwt, await fixture("mp3-cover"), "a.mp3");
  if (res.status !== 201) throw new Error(`audio upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { kind: "audio", id: res.body.data.id };
}

/** Creates a collection and returns its data; fails the test on anything but 201. */
export async function newCollection(token: string, body: Record<string, unknown> = { title: "Album" }) {
  const res = await callJson("POST", "/v1/collections", { token, json: body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; title: string; itemCount: number };
}

/** The refs of a collection's items, in order, every page read. */
export async function itemRefs(token: string, id: string, limit = 50): Promise<Ref[]> {
  const out: Ref[] = [];
  let cursor = "";
  do {
    const res = await callJson("GET", `/v1/collections/${id}/items?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, { token });
    if (res.status !== 200) throw new Error(`items failed: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...res.body.data.items.map((e: Ref) => ({ kind: e.kind, id: e.id })));
    cursor = res.body.data.nextCursor ?? "";
  } while (cursor);
  return out;
}
