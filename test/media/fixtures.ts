// Media listing fixtures: one kind-neutral way to add an item of a kind for a user at an
// instant, and the listing read page by page.
import { newId } from "../../src/infra/ids.ts";
import { originalKey } from "../../src/modules/audio/layout.ts";
import { audio } from "../../src/modules/audio/table.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { insertVideo } from "../videos/fixtures.ts";

/** In the order the listing gives the kinds on one instant. */
export const KINDS = ["video", "audio"] as const;
export type Kind = (typeof KINDS)[number];

/** An item of `kind` owned by `ownerId`, created at `at` (and with `id`, when given). */
export async function addItem(kind: Kind, ownerId: string, at: Date, id?: string): Promise<string> {
  switch (kind) {
    case "video":
      return (await insertVideo(ownerId, { createdAt: at, updatedAt: at, ...(id && { id }) })).id;
    case "audio":
      return insertAudio(ownerId, at, id);
  }
}

/** An audio row as an upload without a cover leaves it (no object, nothing counted). */
async function insertAudio(ownerId: string, at: Date, id = newId()): Promise<string> {
  const { deps } = await testContext();
  await deps.db.insert(audio).values({
    id,
    ownerId,
    title: "tone",
    filename: "tone.mp3",
    format: "mp3",
    sizeBytes: 1000,
    durationSeconds: 2,
    bitrate: 64,
    objectKey: originalKey({ ownerId, id }),
    createdAt: at,
    updatedAt: at,
  });
  return id;
}

export async function listPage(key: string, query: string) {
  const res = await callJson("GET", `/v1/media?${query}`, { token: key });
  if (res.status !== 200) throw new Error(`GET /v1/media?${query} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as { items: { id: string; type: string; createdAt: string }[]; nextCursor: string | null };
}

/** Every page of the listing, `before` running ahead of each page after the first. */
export async function allPages(key: string, query: string, before: (page: number) => Promise<void> = async () => {}) {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    if (pages.length > 0) await before(pages.length);
    const page = await listPage(key, `${query}${cursor ? `&cursor=${cursor}` : ""}`);
    pages.push(page.items.map((i) => i.id));
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}
