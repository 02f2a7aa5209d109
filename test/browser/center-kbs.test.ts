// The dashboard's knowledge bases in Chromium, driven by the names of their controls: a KB
// created in the page, documents pushed through sync v2 appearing in its tree, one rendered
// safely, its history with a diff and a restore, and conflict branches accepted and
// discarded. Each journey asserts what the person sees and what the API then holds; the
// page must log no error and fetch nothing off its origin. Screenshots (phone and desktop)
// go to a temporary folder and their paths are printed.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { call, callJson } from "../helpers/context.ts";
import type { TestUser } from "../helpers/factories.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { sha256 } from "../kbs/fixtures.ts";
import { pushed2, upsert2 } from "../kbs/v2-fixtures.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness, PHONE, showScreen } from "./dashboard.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("knowledge bases in the dashboard", () => {
  const d = dashboardHarness(executable, "center-kbs");
  const { open, shootBoth: shoot, clean } = d;
  /** Signs in, then goes to `hash` if given. */
  async function signIn(page: Page, email: string, hash = "") {
    await d.signIn(page, email);
    if (hash) await showScreen(page, hash);
  }

  const app = () => d.rig.o.app;
  const api = (user: TestUser, method: string, path: string, json?: unknown) => callJson(method, path, { token: user.jwt, app: app(), json });
  const rawText = async (user: TestUser, docId: string) => (await call("GET", `/v1/docs/${docId}/raw`, { token: user.jwt, app: app() })).text();
  const newKb = async (user: TestUser, name: string) => (await api(user, "POST", "/v1/kbs", { name })).body.data as { id: string };
  const push = (user: TestUser, kbId: string, ops: unknown[], query?: string) =>
    pushed2(user.jwt, kbId, ops, { app: app(), ...(query ? { query } : {}) } as Parameters<typeof pushed2>[3]);

  test(
    "a KB is created in the page; documents pushed through sync v2 appear in its tree, folder by folder",
    async () => {
      const user = await d.rig.o.makeUser();
      const page = await open(DESKTOP);
      await signIn(page, user.email);
      await page.getByRole("link", { name: "Knowledge bases", exact: true }).click();
      await page.getByRole("heading", { name: "Knowledge bases", level: 1 }).waitFor();
      await page.getByText("No knowledge bases yet.").waitFor();
      await page.getByLabel("Name", { exact: true }).fill("Field notes");
      await page.getByLabel("Description").fill("What I saw outside");
      await page.getByRole("button", { name: "Create knowledge base" }).click();
      const list = page.getByRole("list", { name: "Knowledge bases" });
      await list.getByRole("link", { name: "Field notes" }).waitFor();
      await page.getByRole("status").getByText("Created “Field notes”.").waitFor();
      const kbs = await api(user, "GET", "/v1/kbs");
      expect(kbs.body.data.items).toEqual([
        expect.objectContaining({ name: "Field notes", slug: "field-notes", description: "What I saw outside", docCount: 0 }),
      ]);
      const kbId = kbs.body.data.items[0].id as string;
      // A slug that is taken is refused in the API's words.
      await page.getByLabel("Name", { exact: true }).fill("Again");
      await page.getByLabel("Slug").fill("field-notes");
      await page.getByRole("button", { name: "Create knowledge base" }).click();
      await page.getByRole("alert").getByText(/slug/i).waitFor();

      await push(user, kbId, [upsert2("birds.md", "# Birds\n"), upsert2("guides/intro.md", "# Intro\n"), upsert2("guides/deep/more.md", "# More\n")]);
      await page.reload();
      await list.getByRole("link", { name: "Field notes" }).waitFor();
      await expect(list.getByRole("listitem").textContent()).resolves.toContain("3 documents");
      await shoot(page, "kbs-list");
      await list.getByRole("link", { name: "Field notes" }).click();
      await page.getByRole("heading", { name: "Field notes", level: 1 }).waitFor();
      await page.getByText("No conflicts pending.").waitFor();
      const tree = page.getByRole("list", { name: "Contents", exact: true });
      await tree.getByRole("link", { name: "birds.md" }).waitFor();
      await expect(tree.getByRole("listitem").count()).resolves.toBe(2);
      await shoot(page, "kb-root");
      await expect(tree.getByRole("listitem").first().textContent()).resolves.toContain("Folder · 2 documents");
      await tree.getByRole("link", { name: "guides" }).click();
      const inGuides = page.getByRole("list", { name: "Contents of guides" });
      await inGuides.getByRole("link", { name: "intro.md" }).waitFor();
      await expect(inGuides.getByRole("link", { name: "deep" }).count()).resolves.toBe(1);
      expect(new URL(page.url()).hash).toBe(`#/kbs/${kbId}/guides`);
      // The breadcrumb leads back to the KB's root.
      await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Field notes" }).click();
      await tree.getByRole("link", { name: "birds.md" }).waitFor();
      await clean(page, [/status of 409/]);
    },
    SLOW,
  );

  test(
    "a document renders Markdown safely: heading, list and links; its <script> does not run and a remote image is not loaded",
    async () => {
      const user = await d.rig.o.makeUser();
      const kb = await newKb(user, "Reading");
      const hosted = await uploaded(user.jwt, await png(40, 30), { filename: "hosted.png" });
      const text = [
        "# Trip report",
        "",
        "- first stop",
        "- second stop",
        "",
        "See [the map](https://maps.example.org/trip) or [the intro](guides/intro.md).",
        "",
        "<script>window.pwned = true</script>",
        "",
        "![far away](http://elsewhere.example/pic.png)",
        "",
        `![hosted here](${hosted.url})`,
        "",
        "[bad](javascript:alert(1))",
      ].join("\n");
      const [doc] = (await push(user, kb.id, [upsert2("trip.md", text), upsert2("guides/intro.md", "# Intro\n\nHello.")])).results;
      const page = await open(PHONE);
      await signIn(page, user.email, `#/kbs/${kb.id}/trip.md`);
      const article = page.getByRole("article", { name: "Trip report" });
      await article.getByRole("heading", { name: "Trip report" }).waitFor();
      await expect(article.getByRole("listitem").allTextContents()).resolves.toEqual(["first stop", "second stop"]);
      const map = article.getByRole("link", { name: "the map" });
      await expect(map.getAttribute("href")).resolves.toBe("https://maps.example.org/trip");
      await expect(map.getAttribute("rel")).resolves.toBe("noopener noreferrer");
      await expect(article.getByRole("link", { name: "the intro" }).getAttribute("href")).resolves.toBe(`#/kbs/${kb.id}/guides/intro.md`);
      // The script is text, not an element, and did not run; javascript: is no link.
      await expect(article.textContent()).resolves.toContain("<script>window.pwned = true</script>");
      expect(await page.evaluate(() => document.querySelectorAll("script").length)).toBe(1);
      expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).toBeUndefined();
      await expect(article.getByRole("link", { name: "bad" }).count()).resolves.toBe(0);
      // The remote image is a link instead; the media edge's one loads.
      await expect(article.getByRole("link", { name: "Image not loaded: far away" }).getAttribute("href")).resolves.toBe("http://elsewhere.example/pic.png");
      await expect(article.getByRole("img", { name: "far away" }).count()).resolves.toBe(0);
      const img = article.getByRole("img", { name: "hosted here" });
      await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle());
      await page.getByText("Private").waitFor();
      await shoot(page, "doc-rendered");

      // The source, as stored.
      await page.getByRole("button", { name: "Show source" }).click();
      await expect(page.getByLabel("Source of Trip report").textContent()).resolves.toBe(text);
      expect(await rawText(user, doc!.docId!)).toBe(text);
      await page.getByRole("button", { name: "Show rendered" }).click();
      await article.getByRole("link", { name: "the intro" }).click();
      await page.getByRole("article", { name: "Intro" }).getByText("Hello.").waitFor();
      await clean(page);
    },
    SLOW,
  );

  test(
    "a Typst document shows the API's SVG render, downloads as PDF, and shows its source",
    async () => {
      const user = await d.rig.o.makeUser();
      const kb = await newKb(user, "Papers");
      const source = "= Findings\n\nThe river rose *twice*.\n";
      await push(user, kb.id, [upsert2("papers/findings.typ", source)]);
      const page = await open(DESKTOP);
      await signIn(page, user.email, `#/kbs/${kb.id}/papers`);
      await page.getByRole("link", { name: "findings.typ" }).click();
      const render = page.getByRole("img", { name: "Findings, rendered" });
      await render.waitFor();
      await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await render.elementHandle());
      await page.getByText("Typst", { exact: true }).waitFor();
      await shoot(page, "doc-typst");
      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download PDF" }).click();
      const pdf = await download;
      expect(pdf.suggestedFilename()).toBe("findings.pdf");
      // The download finished (a context closed while its response is still coming breaks
      // playwright-core's connection for the rest of the file), and it is a PDF.
      expect(
        readFileSync(await pdf.path())
          .subarray(0, 5)
          .toString("latin1"),
      ).toBe("%PDF-");
      await page.getByRole("button", { name: "Show source" }).click();
      await expect(page.getByLabel("Source of Findings").textContent()).resolves.toBe(source);
      await clean(page);
    },
    SLOW,
  );

  test(
    "history lists the revisions, diffs two of them with the changed line marked, and Restore makes the old text current",
    async () => {
      const user = await d.rig.o.makeUser();
      expect((await api(user, "PATCH", "/v1/user/me", { docVersioningEnabled: true })).status).toBe(200);
      const kb = await newKb(user, "Drafts");
      const v1 = "# Plan\n\nstart at dawn\nbring water\n";
      const v2 = "# Plan\n\nstart at noon\nbring water\n";
      const v3 = "# Plan\n\nstart at noon\nbring water\nand a map\n";
      const first = (await push(user, kb.id, [upsert2("plan.md", v1)])).results[0]!;
      await push(user, kb.id, [upsert2("plan.md", v2, { baseHash: sha256(v1) })]);
      await push(user, kb.id, [upsert2("plan.md", v3, { baseHash: sha256(v2) })]);
      const docId = first.docId!;
      const page = await open(DESKTOP);
      await signIn(page, user.email, `#/kbs/${kb.id}/plan.md`);
      await page.getByRole("link", { name: "History" }).click();
      await page.getByRole("heading", { name: "History of Plan" }).waitFor();
      const revisions = page.getByRole("list", { name: "Revisions" });
      await expect(revisions.getByRole("listitem").count()).resolves.toBe(2);
      await expect(revisions.getByRole("listitem").first().textContent()).resolves.toContain("Revision 2");
      // Newest revision against the current text: one line added.
      const latest = page.getByRole("list", { name: "Differences between Revision 2 and Current text" });
      await latest.waitFor();
      await expect(latest.getByRole("listitem").filter({ hasText: "Added:" }).allTextContents()).resolves.toEqual(["+Added: and a map"]);
      // Revision 1 against revision 2: the changed line, removed and added.
      const ids = Object.fromEntries(
        (await api(user, "GET", `/v1/docs/${docId}/revisions`)).body.data.revisions.map((r: { id: string; revNumber: number }) => [r.revNumber, r.id]),
      );
      await page.getByLabel("From", { exact: true }).selectOption(ids[1]);
      await page.getByLabel("To", { exact: true }).selectOption(ids[2]);
      const changes = page.getByRole("list", { name: "Differences between Revision 1 and Revision 2" });
      await changes.waitFor();
      await expect(changes.getByRole("listitem").filter({ hasText: "Removed:" }).allTextContents()).resolves.toEqual(["−Removed: start at dawn"]);
      await expect(changes.getByRole("listitem").filter({ hasText: "Added:" }).allTextContents()).resolves.toEqual(["+Added: start at noon"]);
      await expect(changes.locator("del").allTextContents()).resolves.toEqual(["start at dawn"]);
      await shoot(page, "history");

      page.once("dialog", (d) => d.accept());
      await revisions.getByRole("listitem").filter({ hasText: "Revision 1" }).getByRole("button", { name: "Restore" }).click();
      await page.getByRole("status").getByText("Revision 1 restored.").waitFor();
      expect(await rawText(user, docId)).toBe(v1);
      const after = await api(user, "GET", `/v1/docs/${docId}/revisions`);
      expect(after.body.data.revisions.map((r: { sourceHash: string }) => r.sourceHash)[0]).toBe(sha256(v3));
      await expect(revisions.getByRole("listitem").count()).resolves.toBe(3);
      await clean(page);
    },
    SLOW,
  );

  test(
    "conflict branches made by stale sync v2 pushes are shown beside the master; Accept makes one master, Discard drops the other",
    async () => {
      const user = await d.rig.o.makeUser();
      const kb = await newKb(user, "Shared");
      const base = { a: "alpha\nsame line\n", b: "beta\nsame line\n" };
      await push(user, kb.id, [upsert2("a.md", base.a), upsert2("notes/b.md", base.b)]);
      await push(user, kb.id, [
        upsert2("a.md", "alpha by laptop\nsame line\n", { baseHash: sha256(base.a) }),
        upsert2("notes/b.md", "beta by laptop\nsame line\n", { baseHash: sha256(base.b) }),
      ]);
      const stale = await push(
        user,
        kb.id,
        [
          upsert2("a.md", "alpha by phone\nsame line\n", { baseHash: sha256(base.a) }),
          upsert2("notes/b.md", "beta by phone\nsame line\n", { baseHash: sha256(base.b) }),
        ],
        "conflictResolution=preserve_both",
      );
      expect(stale.results.map((r) => r.status)).toEqual(["conflict_branch_created", "conflict_branch_created"]);

      const page = await open(PHONE);
      await signIn(page, user.email, `#/kbs/${kb.id}`);
      await page.getByText("2 conflicts pending").waitFor();
      await page.getByRole("link", { name: "Review conflicts" }).click();
      await page.getByRole("heading", { name: "Conflicts in Shared" }).waitFor();
      const a = page.getByRole("article", { name: "a.md" });
      const table = a.getByRole("table", { name: "a.md: the current master beside the pending branch" });
      await table.waitFor();
      await expect(table.getByRole("columnheader").allTextContents()).resolves.toEqual(["Current master", "Pending branch"]);
      const changed = table.getByRole("row").filter({ hasText: "alpha by laptop" });
      await expect(changed.getByRole("cell").allTextContents()).resolves.toEqual(["−Removed: alpha by laptop", "+Added: alpha by phone"]);
      await shoot(page, "conflicts");

      page.once("dialog", (d) => d.accept());
      await a.getByRole("button", { name: "Accept" }).click();
      await page.getByRole("status").getByText("Accepted: a.md now holds the branch's text.").waitFor();
      await expect(a.count()).resolves.toBe(0);
      const b = page.getByRole("article", { name: "notes/b.md" });
      page.once("dialog", (d) => d.accept());
      await b.getByRole("button", { name: "Discard" }).click();
      await page.getByText("No conflicts pending: every document has one version.").waitFor();

      const docs = Object.fromEntries(stale.results.map((r) => [r.relativePath, r.docId!]));
      expect(await rawText(user, docs["a.md"]!)).toBe("alpha by phone\nsame line\n");
      expect(await rawText(user, docs["notes/b.md"]!)).toBe("beta by laptop\nsame line\n");
      expect((await api(user, "GET", `/v1/kbs/${kb.id}/conflicts`)).body.data.items).toEqual([]);
      await clean(page);
    },
    SLOW,
  );

  test(
    "usable by keyboard: from the KB list to a document and its source toggle",
    async () => {
      const user = await d.rig.o.makeUser();
      const kb = await newKb(user, "Walkthrough");
      await push(user, kb.id, [upsert2("one.md", "# One\n\ntext")]);
      const page = await open(DESKTOP);
      await signIn(page, user.email, "#/kbs");
      const tabTo = async (target: ReturnType<Page["getByRole"]>) => {
        for (let i = 0; i < 30; i++) {
          await page.keyboard.press("Tab");
          if (await target.evaluate((el) => el === document.activeElement)) return;
        }
        throw new Error(`Tab never reached ${target}`);
      };
      await page.getByRole("heading", { name: "Knowledge bases", level: 1 }).waitFor();
      await tabTo(page.getByRole("link", { name: "Walkthrough", exact: true }));
      await page.keyboard.press("Enter");
      await tabTo(page.getByRole("link", { name: "one.md" }));
      await page.keyboard.press("Enter");
      await tabTo(page.getByRole("button", { name: "Show source" }));
      await page.keyboard.press("Enter");
      await expect(page.getByLabel("Source of One").textContent()).resolves.toBe("# One\n\ntext");
      await clean(page);
    },
    SLOW,
  );
});
