// GET /v1/docs?inKb: a listing of documents with or without those that live in a knowledge
// base (a media library beside images and videos asks for the loose ones only); without
// it the listing holds both, as before.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { makeKb, uploadedDoc } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** Every id of the listing with `query`, page by page (two a page, so the cursor carries the filter). */
async function walk(token: string, query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = "";
  while (cursor !== null) {
    const res: { status: number; body: any } = await callJson("GET", `/v1/docs?limit=2${query}${cursor ? `&cursor=${cursor}` : ""}`, { token });
    expect(res.status).toBe(200);
    ids.push(...res.body.data.items.map((i: { id: string }) => i.id));
    cursor = res.body.data.nextCursor;
  }
  return ids;
}

describe("GET /v1/docs inKb", () => {
  test("false lists only documents outside every KB, true only those in one, absent both; it combines with the other filters and pages", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const kbId = await makeKb(user);
    /** Each a moment after the one before, so created_asc is the order they were made in. */
    const made = async (json: Record<string, unknown>) => {
      const { id } = await uploadedDoc(key, json);
      deps.clock.advance(1);
      return id as string;
    };
    const loose1 = await made({ title: "loose one", tags: ["x"] });
    const inKb1 = await made({ title: "note one", tags: ["x"], kbId, relativePath: "a.md" });
    const loose2 = await made({ title: "loose two" });
    const inKb2 = await made({ title: "note two", kbId, relativePath: "b.md" });
    const inKb3 = await made({ title: "note three", kbId, relativePath: "c.md" });

    expect((await walk(key, "&sort=created_asc")).sort()).toEqual([loose1, inKb1, loose2, inKb2, inKb3].sort());
    expect(await walk(key, "&sort=created_asc&inKb=false")).toEqual([loose1, loose2]);
    expect(await walk(key, "&sort=created_asc&inKb=true")).toEqual([inKb1, inKb2, inKb3]);
    expect(await walk(key, "&inKb=false&tag=x")).toEqual([loose1]);
    expect(await walk(key, "&inKb=true&q=one")).toEqual([inKb1]);
    expect(await walk(key, `&inKb=false&kbId=${kbId}`)).toEqual([]);
  });

  test("anything but true or false is refused", async () => {
    const { key } = await makeClient();
    const res = await callJson("GET", "/v1/docs?inKb=maybe", { token: key });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", meta: { path: "query.inKb" } });
  });
});
