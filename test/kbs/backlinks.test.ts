// GET /v1/kbs/:id/backlinks?path=: the notes that link to a document, by wikilink, embed,
// front matter link or relative Markdown link, resolved as Obsidian resolves them (a name
// whatever its case, the linking note's folder first); code, %%comments%%, other documents'
// links and the document itself do not count.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { callJson } from "../helpers/context.ts";
import { makeUser, type TestUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { PNG, storedFile, upsertFile } from "./file-fixtures.ts";
import { newKb } from "./fixtures.ts";
import { pushed2, upsert2 } from "./v2-fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const backlinks = (user: TestUser, kbId: string, path: string) =>
  callJson("GET", `/v1/kbs/${kbId}/backlinks?${new URLSearchParams({ path })}`, { token: user.jwt });

async function vault(user: TestUser) {
  const kb = await newKb(user.jwt);
  await pushed2(user.jwt, kb.id, [
    upsert2("Plan.md", "# Plan\n\n## Goals\n\nSee [[Plan#Goals]] and [[Ideas]].\n"),
    upsert2("Ideas.md", "# Ideas\n\nBack to [[Plan]].\n"),
    upsert2("journal/Monday.md", "# Monday\n\nWorked on the [[plan#Goals|goals]].\n"),
    upsert2("journal/Tuesday.md", "# Tuesday\n\nRead [the plan](../Plan.md) again.\n"),
    upsert2("journal/Wednesday.md", "# Wednesday\n\n![[Plan]]\n"),
    upsert2("people/Ann.md", '---\ntitle: Ann\nrelated: "[[Plan]]"\n---\n\nNo link in the text.\n'),
    upsert2("people/Bob.md", "# Bob\n\n`[[Plan]]` in code, %%a comment's [[Plan]]%%\n\n```\n[[Plan]]\n```\n\n%%\n[[Plan]] in a comment's block\n%%\n"),
    upsert2("projects/Plan.md", "# Project plan\n"),
    upsert2("projects/Status.md", "# Status\n\nSee [[Plan]] (this folder's) and [[projects/Plan]].\n"),
    upsert2("projects/Notes.md", "# Notes\n\n[[/Plan.md|the top plan]][^1]\n\n[^1]: and [[Ideas]] in a footnote\n"),
    upsert2("papers/draft.typ", "= Draft\n\n[[Plan]]\n"),
    upsert2("shortest.md", "# Shortest\n\n[a link Obsidian writes by name](Monday.md)\n"),
    upsert2("Straße Notes.md", "# Street\n"),
    upsert2("encoded.md", "# Encoded\n\n[escaped](STRASSE%20NOTES.md)\n"),
    upsert2("spelled.md", "# Spelled\n\n[spelled](<stra\u0073se notes.md>) and [[straße notes]]\n"),
  ]);
  return kb;
}

describe("GET /v1/kbs/:id/backlinks", () => {
  test("lists the notes that link to a document by wikilink, heading, alias, embed, front matter or relative link, by path with their titles", async () => {
    const user = await makeUser();
    const kb = await vault(user);
    const res = await backlinks(user, kb.id, "Plan.md");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      items: [
        { relativePath: "Ideas.md", title: "Ideas" },
        { relativePath: "journal/Monday.md", title: "Monday" },
        { relativePath: "journal/Tuesday.md", title: "Tuesday" },
        { relativePath: "journal/Wednesday.md", title: "Wednesday" },
        { relativePath: "people/Ann.md", title: "Ann" },
        { relativePath: "projects/Notes.md", title: "Notes" },
      ],
    });
  });

  test("a name resolves to the linking note's folder first, a path to its own document; code, comments, Typst text and self-links do not count", async () => {
    const user = await makeUser();
    const kb = await vault(user);
    const project = await backlinks(user, kb.id, "projects/Plan.md");
    expect(project.body.data.items).toEqual([{ relativePath: "projects/Status.md", title: "Status" }]);
    // A footnote's text is the note's; the path is matched whatever its letter case.
    const ideas = await backlinks(user, kb.id, "IDEAS.md");
    expect(ideas.body.data.items.map((i: { relativePath: string }) => i.relativePath)).toEqual(["Plan.md", "projects/Notes.md"]);
    // A relative link that misses in the note's folder is read as a name, as Obsidian writes it.
    const monday = await backlinks(user, kb.id, "journal/Monday.md");
    expect(monday.body.data.items).toEqual([{ relativePath: "shortest.md", title: "Shortest" }]);
    expect((await backlinks(user, kb.id, "people/Bob.md")).body.data.items).toEqual([]);
    // A name escaped in a link, or in another letter case (ß is SS), is the same name.
    expect((await backlinks(user, kb.id, "Straße Notes.md")).body.data.items).toEqual([
      { relativePath: "encoded.md", title: "Encoded" },
      { relativePath: "spelled.md", title: "Spelled" },
    ]);
  });

  test("a file's backlinks are the notes that embed it or link to it; a file is named with its extension", async () => {
    const user = await makeUser();
    const kb = await newKb(user.jwt);
    await storedFile(user.jwt, kb.id, PNG);
    await pushed2(user.jwt, kb.id, [
      upsertFile("img/photo.png", PNG),
      upsert2("Trip.md", "![[photo.png|300]]\n"),
      upsert2("notes/Map.md", "![the map](../img/photo.png)\n"),
      upsert2("Other.md", "[[photo]] names a note, not the picture.\n"),
    ]);
    const res = await backlinks(user, kb.id, "img/photo.png");
    expect(res.body.data.items).toEqual([
      { relativePath: "notes/Map.md", title: "Map" },
      { relativePath: "Trip.md", title: "Trip" },
    ]);
  });

  test("no document at the path is 404; a path that breaks a path rule, or none, is 422 at query.path", async () => {
    const user = await makeUser();
    const kb = await vault(user);
    const missing = await backlinks(user, kb.id, "Nowhere.md");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("NOT_FOUND");
    for (const path of ["../Plan.md", "/Plan.md", "a//b.md"]) {
      const bad = await backlinks(user, kb.id, path);
      expect(bad.status).toBe(422);
      expect(bad.body.meta.path).toBe("query.path");
    }
    const none = await callJson("GET", `/v1/kbs/${kb.id}/backlinks`, { token: user.jwt });
    expect(none.status).toBe(422);
  });

  test("401 without credentials, 403 without kb.read, 404 for another user's KB", async () => {
    await expectTenantIsolation({
      method: "GET",
      path: (id) => `/v1/kbs/${id}/backlinks?path=Plan.md`,
      scope: "kb.read",
      create: async (owner) => (await vault(owner)).id,
    });
  });
});
