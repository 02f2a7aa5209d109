// Media listing fixtures: one kind-neutral way to add an item of a kind for a user at an
// instant, and the listing read page by page.
import { callJson } from "../helpers/context.ts";
import { insertVideo } from "../videos/fixtures.ts";

export const KINDS = ["video"] as const;
export type Kind = (typeof KINDS)[number];

/** An item of `kind` owned by `ownerId`, created at `at` (and with `id`, when given). */
export async function addItem(kind: Kind, ownerId: string, at: Date, id?: string): Promise<string> {
  switch (kind) {
    case "video":
      return (await insertVideo(ownerId, { createdAt: at, updatedAt: at, ...(id && { id }) })).id;
  }
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
