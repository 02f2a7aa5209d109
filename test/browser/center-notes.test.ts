// Notes read as notes, in Chromium: a small vault pushed through sync v2 and read in the
// dashboard. Front matter shows as properties; [[wikilinks]] (with an alias or a heading)
// and relative links open the KB's notes, an unresolved one is marked; footnotes go to
// their note and back; tasks are read-only checkboxes named by their text; a callout shows
// its title; "Linked from" lists the notes that link here; a Typst document shows its SVG
// render with its source a click away; a document outside any KB is rendered in the
// library's dialog; and a <script> in a note stays text. Found by role and accessible
// name, as a person finds them; the page logs no error and fetches nothing off its origin.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { callJson } from "../helpers/context.ts";
import type { TestUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { png } from "../images/fixtures.ts";
import { putFile, upsertFile } from "../kbs/file-fixtures.ts";
import { pushed2, upsert2 } from "../kbs/v2-fixtures.ts";
import { axeViolations } from "./axe.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness, PHONE, showScreen } from "./dashboard.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

const WELCOME = [
  "---",
  "title: Welcome",
  "tags: [projects, garden]",
  "status: draft",
  'related: "[[Plan]]"',
  "---",
  "",
  "# Welcome",
  "",
  "Start with the [[Plan]], its [[Plan#Goals|goals]], or [[Nowhere]].",
  "See [the ideas](ideas/Ideas.md) too.",
  "Water ==before noon== %%the neighbour said so, see [[Plan]]%%daily.",
  "",
  "%%",
  "A private note to self.",
  "",
  "It spans paragraphs.",
  "%%",
  "",
  "- [x] sow tomatoes",
  "- [ ] water the beans",
  "",
  "> [!warning] Frost tonight",
  "> Cover the **seedlings**.",
  "",
  "> [!tip]- Folded away",
  "> Only when opened.",
  "",
  "| Crop | Rows |",
  "|:-----|-----:|",
  "| Beans | 4 |",
  "",
  "```js",
  "const rows = 4;",
  "```",
  "",
  "A claim.[^1]",
  "",
  "<script>window.pwned = true</script>",
  "",
  "[^1]: The source of the claim.",
  "",
].join("\n");

const PLAN = "# Plan\n\n## Goals\n\nGrow food.\n\n## Later\n\nMore.\n";
const IDEAS = "# Ideas\n\nBack to [[Welcome]].\n\n![[Plan#Goals]]\n";

describe.skipIf(!executable)("notes in the dashboard", () => {
  const d = dashboardHarness(executable, "center-notes");
  const { open, clean } = d;
  const app = () => d.rig.o.app;
  const api = (user: TestUser, method: string, path: string, json?: unknown) => callJson(method, path, { token: user.jwt, app: app(), json });
  const newKb = async (user: TestUser, name: string) => (await api(user, "POST", "/v1/kbs", { name })).body.data as { id: string };
  const push = (user: TestUser, kbId: string, ops: unknown[]) => pushed2(user.jwt, kbId, ops, { app: app() });

  async function signIn(page: Page, email: string, hash: string) {
    await d.signIn(page, email);
    await showScreen(page, hash);
  }

  /** A screenshot at phone and desktop width in the light scheme, and at desktop in the dark one; axe-core finds nothing serious in either scheme. */
  async function shoot(page: Page, label: string) {
    await d.shootBoth(page, label);
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await d.shoot(page, `${label}-dark`);
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });
  }

  async function vault(user: TestUser) {
    const kb = await newKb(user, "Garden");
    await push(user, kb.id, [upsert2("Welcome.md", WELCOME), upsert2("Plan.md", PLAN), upsert2("ideas/Ideas.md", IDEAS)]);
    return kb;
  }

  test(
    "a note shows its properties, links within the KB, an unresolved link marked, tasks, callouts, a table, code and footnotes; its script stays text",
    async () => {
      const user = await d.rig.o.makeUser();
      const kb = await vault(user);
      const page = await open(DESKTOP);
      await signIn(page, user.email, `#/kbs/${kb.id}/Welcome.md`);
      const note = page.getByRole("article", { name: "Welcome" });
      await note.getByRole("heading", { name: "Welcome", level: 1 }).waitFor();

      // Front matter: properties above the text, a list as chips, a link property as a link.
      const props = note.getByRole("region", { name: "Properties" });
      await expect(props.getByRole("term").allTextContents()).resolves.toEqual(["title", "tags", "status", "related"]);
      await expect(props.getByRole("list", { name: "tags" }).getByRole("listitem").allTextContents()).resolves.toEqual(["projects", "garden"]);
      await expect(props.getByRole("definition").nth(2).textContent()).resolves.toBe("draft");
      await expect(props.getByRole("link", { name: "Plan" }).getAttribute("href")).resolves.toBe(`#/kbs/${kb.id}/Plan.md`);
      await expect(note.textContent()).resolves.not.toContain("tags: [projects");

      // Wikilinks: to a note, to its heading by an alias; one the KB lacks is no link and says so.
      const text = note.locator(".doc-body > p").first();
      await expect(text.getByRole("link", { name: "Plan", exact: true }).getAttribute("href")).resolves.toBe(`#/kbs/${kb.id}/Plan.md`);
      await expect(text.getByRole("link", { name: "goals" }).getAttribute("href")).resolves.toBe(`#/kbs/${kb.id}/Plan.md#goals`);
      await expect(note.getByRole("link", { name: /Nowhere/ }).count()).resolves.toBe(0);
      await expect(note.getByTitle("Not in this knowledge base").textContent()).resolves.toBe("Nowhere (not in this knowledge base)");
      await expect(note.getByRole("link", { name: "the ideas" }).getAttribute("href")).resolves.toBe(`#/kbs/${kb.id}/ideas/Ideas.md`);

      // A highlight is marked; a comment, inline or a block of its own, is not shown, and its link is no link.
      await expect(note.locator("mark").textContent()).resolves.toBe("before noon");
      await expect(note.getByText("Water before noon daily.").count()).resolves.toBe(1);
      await expect(note.textContent()).resolves.not.toContain("neighbour");
      await expect(note.textContent()).resolves.not.toContain("%%");
      await expect(note.textContent()).resolves.not.toContain("A private note to self");
      await expect(text.getByRole("link", { name: "Plan", exact: true }).count()).resolves.toBe(1);

      // Tasks: read-only checkboxes named by their text.
      const done = note.getByRole("checkbox", { name: "sow tomatoes" });
      await expect(done.isChecked()).resolves.toBe(true);
      await expect(done.isDisabled()).resolves.toBe(true);
      await expect(note.getByRole("checkbox", { name: "water the beans" }).isChecked()).resolves.toBe(false);
      await expect(note.textContent()).resolves.not.toContain("[x]");

      // Callouts: titled, and a folded one opens on its title.
      const frost = note.getByRole("note", { name: "Frost tonight" });
      await expect(frost.textContent()).resolves.toContain("Cover the seedlings.");
      await expect(frost.locator("strong").textContent()).resolves.toBe("seedlings");
      const hidden = note.getByText("Only when opened.");
      await expect(hidden.isVisible()).resolves.toBe(false);
      await note.getByText("Folded away").click();
      await hidden.waitFor();

      // A table with its alignment, and code.
      const table = note.getByRole("table");
      await expect(table.getByRole("columnheader").allTextContents()).resolves.toEqual(["Crop", "Rows"]);
      await expect(table.getByRole("cell", { name: "4" }).getAttribute("class")).resolves.toBe("align-right");
      await expect(note.locator("pre code").textContent()).resolves.toBe("const rows = 4;\n");

      // The script is text, not an element, and did not run.
      await expect(note.textContent()).resolves.toContain("<script>window.pwned = true</script>");
      expect(await page.evaluate(() => document.querySelectorAll("script").length)).toBe(1);
      expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).toBeUndefined();

      // "Linked from": the note that links here (and no other).
      const linked = page.getByRole("region", { name: "Linked from" });
      await expect(linked.getByRole("link").allTextContents()).resolves.toEqual(["Ideas"]);
      await shoot(page, "note");

      // A footnote: its reference leads to its text, and its way back to the reference.
      await note.getByRole("link", { name: "Footnote 1" }).click();
      const footnotes = note.getByRole("region", { name: "Footnotes" });
      await expect(footnotes.getByRole("listitem").textContent()).resolves.toContain("The source of the claim.");
      await expect(page.evaluate(() => document.activeElement?.textContent ?? "")).resolves.toContain("The source of the claim.");
      expect(new URL(page.url()).hash).toBe(`#/kbs/${kb.id}/Welcome.md#fn-1`);
      await footnotes.getByRole("link", { name: "Back to reference 1" }).click();
      await expect(page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).resolves.toBe("Footnote 1");
      // The note was not drawn again for it.
      await expect(note.getByText("Only when opened.").isVisible()).resolves.toBe(true);
      await clean(page);
    },
    SLOW,
  );

  test(
    "a wikilink with a heading opens that note at the heading; its embed and backlinks show; the address reopens it there",
    async () => {
      const user = await d.rig.o.makeUser();
      const kb = await vault(user);
      const page = await open(PHONE);
      await signIn(page, user.email, `#/kbs/${kb.id}/Welcome.md`);
      await page.getByRole("article", { name: "Welcome" }).getByRole("link", { name: "goals" }).click();
      const plan = page.getByRole("article", { name: "Plan" });
      await plan.getByRole("heading", { name: "Goals" }).waitFor();
      expect(new URL(page.url()).hash).toBe(`#/kbs/${kb.id}/Plan.md#goals`);
      await page.waitForFunction(() => document.activeElement?.textContent === "Goals");
      const linked = page.getByRole("region", { name: "Linked from" });
      await expect(linked.getByRole("link").allTextContents()).resolves.toEqual(["Ideas", "Welcome"]);
      await shoot(page, "note-plan");
      // The address (a shared link, a reload) opens the note at the heading again.
      await page.reload();
      await page.waitForFunction(() => document.activeElement?.textContent === "Goals");

      // A note embedded in another shows the heading's section, under a link to it.
      await linked.getByRole("link", { name: "Ideas" }).click();
      const ideas = page.getByRole("article", { name: "Ideas" });
      const embed = ideas.getByRole("group", { name: "Embedded: Plan › Goals" });
      await embed.getByText("Grow food.").waitFor();
      await expect(embed.textContent()).resolves.not.toContain("More.");
      await expect(embed.getByRole("link", { name: "Plan › Goals" }).getAttribute("href")).resolves.toBe(`#/kbs/${kb.id}/Plan.md#goals`);
      await shoot(page, "note-embed");
      await ideas.getByRole("link", { name: "Welcome" }).click();
      await page.getByRole("article", { name: "Welcome" }).getByRole("region", { name: "Properties" }).waitFor();
      await clean(page);
    },
    SLOW,
  );

  test(
    "a Typst document shows its SVG render as an image, with its source one click away",
    async () => {
      const user = await d.rig.o.makeUser();
      const kb = await newKb(user, "Papers");
      const source = "= Findings\n\nThe river rose *twice*.\n";
      await push(user, kb.id, [upsert2("findings.typ", source)]);
      const page = await open(DESKTOP);
      await signIn(page, user.email, `#/kbs/${kb.id}/findings.typ`);
      const render = page.getByRole("img", { name: "Findings, rendered" });
      await render.waitFor();
      await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await render.elementHandle());
      await expect(render.getAttribute("src")).resolves.toStartWith("blob:");
      expect(await page.evaluate(() => document.querySelectorAll("article svg").length)).toBe(0);
      await page.getByRole("button", { name: "Show source" }).click();
      await expect(page.getByLabel("Source of Findings").textContent()).resolves.toBe(source);
      await page.getByRole("button", { name: "Show rendered" }).click();
      await render.waitFor();
      await clean(page);
    },
    SLOW,
  );

  test(
    "a Markdown document outside any KB is rendered in the library's dialog, its wikilinks marked as outside a KB, its source one click away",
    async () => {
      const user = await d.rig.o.makeUser();
      const content = "# Loose page\n\n- [x] written\n\n> [!note]\n> Not in a KB.\n\nSee [[Elsewhere]].[^a]\n\n[^a]: A footnote.\n";
      expect((await api(user, "POST", "/v1/docs", { filename: "loose.md", content })).status).toBe(201);
      const page = await open(PHONE);
      await d.signIn(page, user.email);
      await page.getByRole("list", { name: "Library items" }).getByRole("button", { name: "Loose page" }).click();
      const dialog = page.getByRole("dialog", { name: "Loose page" });
      const doc = dialog.getByRole("article", { name: "Loose page" });
      await doc.getByRole("heading", { name: "Loose page" }).waitFor();
      await expect(doc.getByRole("checkbox", { name: "written" }).isChecked()).resolves.toBe(true);
      await expect(doc.getByRole("note", { name: "Note" }).textContent()).resolves.toContain("Not in a KB.");
      await expect(doc.getByTitle("Links between notes work in a knowledge base").textContent()).resolves.toBe(
        "Elsewhere (links between notes work in a knowledge base)",
      );
      await d.shoot(page, "loose-dialog-phone");
      expect(await axeViolations(page)).toEqual([]);
      await doc.getByRole("link", { name: "Footnote 1" }).click();
      await expect(page.evaluate(() => document.activeElement?.textContent ?? "")).resolves.toContain("A footnote.");
      // The address stayed the library's.
      expect(new URL(page.url()).hash).toBe("#/library");
      await dialog.getByRole("button", { name: "Show source" }).click();
      await expect(dialog.getByLabel("Source of Loose page").textContent()).resolves.toBe(content);
      await clean(page);
    },
    SLOW,
  );

  test(
    "pictures of the KB load by path through the API: ![[a.png]], ![[a.png|120]] and ![alt](img/a.png); a missing one is said to be missing; the picture's own page shows it, downloads it and lists the note",
    async () => {
      const user = await d.rig.o.makeUser();
      const kb = await newKb(user, "Album");
      const bytes = await png(60, 40);
      expect((await putFile(user.jwt, kb.id, bytes, { app: app() })).status).toBe(201);
      await push(user, kb.id, [
        upsertFile("img/photo.png", bytes),
        upsert2("Trip.md", "# Trip\n\n![[photo.png]]\n\n![[photo.png|120]]\n\n![the view](img/photo.png)\n\n![[gone.png]]\n"),
      ]);
      const page = await open(DESKTOP);
      await signIn(page, user.email, `#/kbs/${kb.id}/Trip.md`);
      const note = page.getByRole("article", { name: "Trip" });
      await note.getByRole("heading", { name: "Trip" }).waitFor();
      const pictures = note.getByRole("img");
      await expect(pictures.count()).resolves.toBe(3);
      for (const img of await pictures.all()) {
        await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth === 60, await img.elementHandle());
        await expect(img.getAttribute("src")).resolves.toStartWith("blob:");
      }
      await expect(note.getByRole("img", { name: "the view" }).count()).resolves.toBe(1);
      await expect(pictures.nth(1).getAttribute("width")).resolves.toBe("120");
      await expect(note.getByTitle("Not in this knowledge base").textContent()).resolves.toBe("Image not in this knowledge base: gone.png");
      await shoot(page, "note-pictures");

      // The picture's own page: shown, downloadable, and the note that shows it.
      await showScreen(page, `#/kbs/${kb.id}/img/photo.png`);
      const picture = page.getByRole("img", { name: "photo.png" });
      await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth === 60, await picture.elementHandle());
      await page.getByText("image/png").waitFor();
      await expect(page.getByRole("region", { name: "Linked from" }).getByRole("link").allTextContents()).resolves.toEqual(["Trip"]);
      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download" }).click();
      const saved = await download;
      expect(saved.suggestedFilename()).toBe("photo.png");
      expect(readFileSync(await saved.path()).equals(Buffer.from(bytes))).toBe(true);
      await d.shootBoth(page, "kb-file");
      await clean(page);
    },
    SLOW,
  );
});
