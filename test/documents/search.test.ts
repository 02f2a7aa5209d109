// GET /v1/docs/search: full-text search over the caller's active documents (title, KB
// path, inline content), best first, with « » marked snippets and the marks' offsets;
// kbId, limit and the cursor; every write path (upload, replacement at a KB path, sync,
// PATCH, delete) keeps what is found current.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, callJson } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { pushed, upsert } from "../kbs/fixtures.ts";
import { makeKb, postDoc, uploadedDoc } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

interface Hit {
  id: string;
  kbId: string | null;
  relativePath: string | null;
  title: string;
  format: string;
  updatedAt: string;
  rank: number;
  snippet: string;
  marks: { start: number; end: number }[];
}

async function searchPage(token: string, query: string): Promise<{ items: Hit[]; nextCursor: string | null }> {
  const res = await callJson("GET", `/v1/docs/search?${query}`, { token });
  expect(res.status).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body.data;
}

const search = async (token: string, query: string) => (await searchPage(token, query)).items;

/** The words a hit's marks point at. */
const markedWords = (hit: Hit) => hit.marks.map((m) => hit.snippet.slice(m.start, m.end));

const ids = (hits: Hit[]) => hits.map((h) => h.id);

async function expectRefused(token: string, query: string, path = "query.q") {
  const res = await callJson("GET", `/v1/docs/search?${query}`, { token });
  expect(res.status).toBe(422);
  expect(res.body).toMatchObject({ success: false, code: "VALIDATION_ERROR", meta: { path } });
}

describe("GET /v1/docs/search", () => {
  test("a title match ranks above a match in the text only; each item says where the document is", async () => {
    const { key } = await makeClient();
    const inText = await uploadedDoc(key, { filename: "b.md", title: "Weekly log", content: "Nothing much. Then a heron landed on the roof.\n" });
    const inTitle = await uploadedDoc(key, { filename: "a.md", title: "Heron sightings", content: "Birds seen this spring.\n" });
    await uploadedDoc(key, { filename: "c.md", title: "Unrelated", content: "Cats and dogs.\n" });

    const hits = await search(key, "q=heron");
    expect(ids(hits)).toEqual([inTitle.id, inText.id]);
    expect(hits[0]!.rank).toBeGreaterThan(hits[1]!.rank);
    expect(hits[1]!.rank).toBeGreaterThan(0);
    expect(hits[0]).toMatchObject({ title: "Heron sightings", format: "markdown", kbId: null, relativePath: null, updatedAt: inTitle.updatedAt });
    // Letter case does not matter.
    expect(ids(await search(key, "q=HERON"))).toEqual([inTitle.id, inText.id]);
  });

  test("the snippet is one line of plain text with the matched words between « and »", async () => {
    const { key } = await makeClient();
    const filler = "words that fill the page ".repeat(40);
    const doc = await uploadedDoc(key, {
      filename: "fox.md",
      title: "Animals",
      content: `# Animals\n\n${filler}\n\nThe quick brown fox\njumps over the <b>lazy</b> dog.\n\n${filler}\n`,
    });
    const [hit] = await search(key, "q=fox");
    expect(hit!.id).toBe(doc.id);
    expect(hit!.snippet).toContain("brown «fox» jumps");
    expect(hit!.snippet).not.toContain("\n");
    expect(hit!.snippet).not.toContain("<b>");
    // A fragment, not the whole text.
    expect(hit!.snippet.length).toBeLessThan(300);

    // Phrases and exclusions, as in a web search.
    const [phrase] = await search(key, `q=${encodeURIComponent('"brown fox"')}`);
    expect(phrase!.snippet).toContain("«brown» «fox»");
    expect(await search(key, `q=${encodeURIComponent('"fox brown"')}`)).toEqual([]);
    expect(await search(key, "q=fox%20-dog")).toEqual([]);
    expect(ids(await search(key, "q=fox%20-cat"))).toEqual([doc.id]);
  });

  test("KB documents are found by the words of their path; kbId keeps one KB's documents", async () => {
    const { user, key } = await makeClient();
    const kb1 = await makeKb(user);
    const kb2 = await makeKb(user);
    const one = await uploadedDoc(key, { filename: "x.md", title: "Plan", content: "budget\n", kbId: kb1, relativePath: "projects/orchid-garden.md" });
    const two = await uploadedDoc(key, { filename: "y.md", title: "Other plan", content: "budget\n", kbId: kb2, relativePath: "notes/y.md" });
    const loose = await uploadedDoc(key, { filename: "z.md", title: "Loose", content: "budget\n" });

    const [byPath] = await search(key, "q=orchid");
    expect(byPath).toMatchObject({ id: one.id, kbId: kb1, relativePath: "projects/orchid-garden.md" });
    expect(ids(await search(key, "q=garden%20projects"))).toEqual([one.id]);

    expect(new Set(ids(await search(key, "q=budget")))).toEqual(new Set([one.id, two.id, loose.id]));
    expect(ids(await search(key, `q=budget&kbId=${kb1}`))).toEqual([one.id]);
    expect(ids(await search(key, `q=budget&kbId=${kb2}`))).toEqual([two.id]);
  });

  test("another user's documents never appear, by their words or through their KB's id (404)", async () => {
    const owner = await makeClient();
    const stranger = await makeClient();
    const kb = await makeKb(owner.user);
    await uploadedDoc(owner.key, { filename: "s.md", title: "Secret", content: "the password is swordfish\n" });
    await uploadedDoc(owner.key, { filename: "k.md", title: "Kept", content: "swordfish again\n", kbId: kb, relativePath: "k.md" });
    const own = await uploadedDoc(stranger.key, { filename: "mine.md", title: "Mine", content: "a swordfish of my own\n" });

    expect(ids(await search(stranger.key, "q=swordfish"))).toEqual([own.id]);
    const theirKb = await callJson("GET", `/v1/docs/search?q=swordfish&kbId=${kb}`, { token: stranger.key });
    expect(theirKb.status).toBe(404);
    expect(theirKb.body).toMatchObject({ success: false, code: "NOT_FOUND" });
    expect(await search(stranger.key, "q=secret")).toEqual([]);
  });

  test("deleted documents are not found, in a KB (soft delete) or not", async () => {
    const { user, key } = await makeClient();
    const kb = await makeKb(user);
    const loose = await uploadedDoc(key, { filename: "a.md", title: "Lantern", content: "one\n" });
    const inKb = await uploadedDoc(key, { filename: "b.md", title: "Lantern two", content: "two\n", kbId: kb, relativePath: "b.md" });
    const kept = await uploadedDoc(key, { filename: "c.md", title: "Lantern three", content: "three\n" });
    expect(ids(await search(key, "q=lantern"))).toHaveLength(3);

    for (const id of [loose.id, inKb.id]) expect((await call("DELETE", `/v1/docs/${id}`, { token: key })).status).toBe(204);
    expect(ids(await search(key, "q=lantern"))).toEqual([kept.id]);
  });

  test("a replaced content is found by its new words and not the old, whichever path wrote it", async () => {
    const { user, key } = await makeClient();
    const kb = await makeKb(user);

    // An upload to a KB path that holds a document replaces its content (same id).
    const doc = await uploadedDoc(key, { filename: "p.md", title: "Page", content: "walrus\n", kbId: kb, relativePath: "p.md" });
    const replaced = await postDoc(key, { filename: "p.md", title: "Page", content: "narwhal\n", kbId: kb, relativePath: "p.md" });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.id).toBe(doc.id);
    expect(ids(await search(key, "q=narwhal"))).toEqual([doc.id]);
    expect(await search(key, "q=walrus")).toEqual([]);

    // A sync push: new rows and replaced contents are written many at a time.
    const first = await pushed(key, kb, [upsert("synced/s.md", "pelican\n")]);
    const synced = first.applied[0]!;
    expect(ids(await search(key, "q=pelican"))).toEqual([synced.id]);
    await pushed(key, kb, [upsert("synced/s.md", "cormorant\n", synced.updatedAt)]);
    expect(ids(await search(key, "q=cormorant"))).toEqual([synced.id]);
    expect(await search(key, "q=pelican")).toEqual([]);

    // A new title.
    const loose = await uploadedDoc(key, { filename: "t.md", title: "Old name", content: "body\n" });
    expect((await callJson("PATCH", `/v1/docs/${loose.id}`, { token: key, json: { title: "Brand new name" } })).status).toBe(200);
    expect(ids(await search(key, "q=brand"))).toEqual([loose.id]);
    expect(await search(key, "q=old")).toEqual([]);
  });

  test("the text of a document stored outside the database is not searched; its title and path are", async () => {
    const { user, key } = await makeClient({ plan: "pro_plus" });
    const kb = await makeKb(user);
    const big = await uploadedDoc(key, {
      filename: "big.md",
      title: "Archive",
      content: `${"lorem ipsum dolor sit amet ".repeat(11_000)}\nmarmalade\n`,
      kbId: kb,
      relativePath: "old/almanac.md",
    });
    expect(big.hasInlineContent).toBe(false);
    expect(ids(await search(key, "q=archive"))).toEqual([big.id]);
    expect(ids(await search(key, "q=almanac"))).toEqual([big.id]);
    expect(await search(key, "q=marmalade")).toEqual([]);
  });

  test("marks give each matched word's place in the snippet, so the document's own « and » are told apart", async () => {
    const { key } = await makeClient();
    await uploadedDoc(key, {
      filename: "fr.md",
      title: "Citations",
      content: "Il a dit « bonjour » puis « au revoir ». Le mot bonjour revient.\n",
    });
    const [hit] = await search(key, "q=bonjour");
    expect(hit!.snippet).toContain("«bonjour» » puis « au revoir »");
    expect(markedWords(hit!)).toEqual(["bonjour", "bonjour"]);
    for (const m of hit!.marks) {
      expect(hit!.snippet[m.start - 1]).toBe("«");
      expect(hit!.snippet[m.end]).toBe("»");
    }
    // Text that looks like markup is text: the snippet is never HTML to render.
    await uploadedDoc(key, { filename: "h.md", title: "Markup", content: "a <img src=x onerror=alert(1)> zebra\n" });
    const [zebra] = await search(key, "q=zebra");
    expect(markedWords(zebra!)).toEqual(["zebra"]);
  });

  test("the snippet is cut from the words a reader sees: no front matter, heading, list, task or quote marks, emphasis, highlight or wikilink brackets, and the title only for a document with no text", async () => {
    const { key } = await makeClient();
    await uploadedDoc(key, {
      filename: "heron.md",
      title: "Heron",
      content: "---\ntags: [birds, wading]\n---\n# Heron\n\n> [!note] The **grey** heron\n- [x] saw a ==heron== at the [[River|river]]\n1. `wades` slowly\n",
    });
    const [hit] = await search(key, "q=heron");
    expect(hit!.snippet).toBe("«Heron» [!note] The grey «heron» saw a «heron» at the River|river wades slowly");
    expect(hit!.snippet).not.toContain("tags");
    // A wading bird: the front matter's words still find the note, the snippet is its text.
    const [tagged] = await search(key, "q=wading");
    expect(tagged!.snippet).not.toContain("---");
  });

  test("pages through every match once, best first, with the one cursor; a cursor that is not one is 400", async () => {
    const { user, key } = await makeClient();
    const kb = await makeKb(user);
    // Equal ranks and equal times too: the id breaks the tie, so no page repeats or skips one.
    const made: string[] = [];
    for (let i = 0; i < 9; i++)
      made.push((await uploadedDoc(key, { filename: `p${i}.md`, title: `Page ${i}`, content: "quokka\n", kbId: kb, relativePath: `p${i}.md` })).id);
    const best = await uploadedDoc(key, { filename: "q.md", title: "Quokka", content: "quokka quokka\n", kbId: kb, relativePath: "q.md" });
    const all = await search(key, "q=quokka&limit=50");
    expect(all).toHaveLength(10);
    const walked: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await searchPage(key, `q=quokka&kbId=${kb}&limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      walked.push(...ids(page.items));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(walked).toEqual(ids(all));
    expect(walked[0]).toBe(best.id);
    expect(new Set(walked)).toEqual(new Set([...made, best.id]));

    const bad = await callJson("GET", "/v1/docs/search?q=quokka&cursor=bm90LWEtY3Vyc29y", { token: key });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_CURSOR");
    // A rank no search gives (negative, or past what a float4 holds either way) is no cursor of this search either.
    for (const rank of [-1, 1e300, 1e-300]) {
      const forged = Buffer.from(JSON.stringify([rank, "2026-01-01T00:00:00.000Z", best.id])).toString("base64url");
      const res = await callJson("GET", `/v1/docs/search?q=quokka&cursor=${forged}`, { token: key });
      expect({ rank, status: res.status, code: res.body.code }).toEqual({ rank, status: 400, code: "INVALID_CURSOR" });
    }
  });

  test("limit caps the answer (default 10), best first", async () => {
    const { key } = await makeClient();
    const made: string[] = [];
    for (let i = 0; i < 12; i++) made.push((await uploadedDoc(key, { filename: `n${i}.md`, title: `Note ${i}`, content: `pumpkin ${i}\n` })).id);
    const best = await uploadedDoc(key, { filename: "best.md", title: "Pumpkin", content: "pumpkin soup\n" });
    const all = await search(key, "q=pumpkin&limit=50");
    expect(all).toHaveLength(13);
    expect(all[0]!.id).toBe(best.id);
    const first = await searchPage(key, "q=pumpkin");
    expect(first.items).toHaveLength(10);
    expect(first.nextCursor).toEqual(expect.any(String));
    const two = await search(key, "q=pumpkin&limit=2");
    expect(ids(two)).toEqual(ids(all).slice(0, 2));
  });

  test("a q with no word to look for, and out-of-range values, are 422 VALIDATION_ERROR", async () => {
    const { key } = await makeClient();
    await uploadedDoc(key, { filename: "a.md", title: "Something", content: "draft\n" });
    await expectRefused(key, "");
    await expectRefused(key, "q=");
    await expectRefused(key, "q=%20%20%20");
    await expectRefused(key, `q=${encodeURIComponent("!!! ... ---")}`);
    await expectRefused(key, `q=${encodeURIComponent('"" | () :* & ?')}`);
    // Only exclusions: nothing a document must contain.
    await expectRefused(key, "q=-draft");
    await expectRefused(key, `q=${"a".repeat(201)}`);
    await expectRefused(key, "q=draft&limit=0", "query.limit");
    await expectRefused(key, "q=draft&limit=51", "query.limit");
    await expectRefused(key, "q=draft&kbId=not%20an%20id", "query.kbId");
    // A word no document has is no error.
    expect(await search(key, "q=nonexistentword")).toEqual([]);
  });

  test("needs a credential with kb.read", async () => {
    await expectTenantIsolation({ method: "GET", path: () => "/v1/docs/search?q=anything", scope: "kb.read" });
    const user = await makeUser();
    const { key } = await makeKey(user, ["kb.read"]);
    expect(await search(key, "q=anything")).toEqual([]);
  });
});
