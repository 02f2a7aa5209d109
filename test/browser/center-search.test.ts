// Finding documents by content in the dashboard, in Chromium, by the names of its controls:
// the library's search looks in the words of every document (in knowledge bases too) and
// shows each hit's snippet with the matched words marked, as text; a knowledge base's own
// search box keeps to its documents. Screenshots at 1280 and 390 px; the page logs no error
// and fetches nothing off its origin.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { callJson } from "../helpers/context.ts";
import type { TestUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { pushed2, upsert2 } from "../kbs/v2-fixtures.ts";
import { axeViolations } from "./axe.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness, PHONE, showScreen } from "./dashboard.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("searching documents in the dashboard", () => {
  const d = dashboardHarness(executable, "center-search");
  const { open, shootBoth, clean } = d;

  const app = () => d.rig.o.app;
  const api = (user: TestUser, method: string, path: string, json?: unknown) => callJson(method, path, { token: user.jwt, app: app(), json });
  const newKb = async (user: TestUser, name: string) => {
    const res = await api(user, "POST", "/v1/kbs", { name });
    expect(res.status).toBe(201);
    return res.body.data as { id: string };
  };
  const push = (user: TestUser, kbId: string, files: Record<string, string>) =>
    pushed2(
      user.jwt,
      kbId,
      Object.entries(files).map(([p, c]) => upsert2(p, c)),
      { app: app() },
    );

  /** axe-core finds nothing serious or critical on the page as it is. */
  const accessible = async (page: Page) => expect((await axeViolations(page)).map((v) => `${v.impact} ${v.id}: ${v.targets.join(", ")}`)).toEqual([]);

  /** The marked words of each hit of the results list, as the page shows them. */
  const markedWords = (page: Page) =>
    page
      .getByRole("list", { name: "Search results" })
      .getByRole("listitem")
      .evaluateAll((items) => items.map((li) => [...li.querySelectorAll("mark")].map((m) => m.textContent)));

  test(
    "the library finds documents by the words of their text, in knowledge bases too, each with its snippet marked; a hit opens the document",
    async () => {
      const user = await d.rig.o.makeUser();
      const loose = await api(user, "POST", "/v1/docs", {
        filename: "garden.md",
        content: "# Garden plan\n\nPlant the tomatoes by the wall. <b>Not bold</b> <script>alert(1)</script>\n",
      });
      expect(loose.status).toBe(201);
      const kb = await newKb(user, "Kitchen notes");
      await push(user, kb.id, {
        "recipes/soup.md": "# Soup\n\nIl a dit « tomatoes » : roast the tomatoes first.\n",
        "recipes/bread.md": "# Bread\n\nFlour and water.\n",
      });

      const page = await open(DESKTOP);
      await d.signIn(page, user.email);
      await page.getByRole("searchbox", { name: "Search documents" }).fill("tomatoes");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      const results = page.getByRole("list", { name: "Search results" });
      await results.getByRole("link", { name: "Soup" }).waitFor();
      await results.getByRole("button", { name: "Garden plan" }).waitFor();
      await expect(results.getByRole("listitem").count()).resolves.toBe(2);
      await page.getByRole("status").getByText("2 documents match “tomatoes”.").waitFor();
      // The grid of items gives way to the results.
      await expect(page.getByRole("list", { name: "Documents" }).isVisible()).resolves.toBe(false);
      // Where each is: the KB's name and the path.
      await results.getByText("Kitchen notes · recipes/soup.md").waitFor();
      await results.getByText("Not in a knowledge base").waitFor();
      // Each match is a <mark>; the document's own « » are text, not marks.
      const marks = await markedWords(page);
      expect(marks.flat().every((w) => w === "tomatoes")).toBe(true);
      expect(marks.map((m) => m.length)).toEqual([2, 1]);
      const soup = results.getByRole("listitem").filter({ hasText: "Soup" });
      await expect(soup.textContent()).resolves.toContain("« tomatoes »");
      // Text that looks like markup stays text.
      expect(await page.locator(".search-results script, .search-results b").count()).toBe(0);
      await accessible(page);
      await shootBoth(page, "library-search");

      // A document outside any KB opens in the dialog; one in a KB is a link to it there.
      await results.getByRole("button", { name: "Garden plan" }).click();
      const dialog = page.getByRole("dialog", { name: "Garden plan" });
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(results.getByRole("link", { name: "Soup" }).getAttribute("href")).resolves.toBe(`#/kbs/${kb.id}/recipes/soup.md`);

      await page.getByRole("searchbox", { name: "Search documents" }).fill("zucchini");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.getByText("No document contains “zucchini”.").waitFor();
      // An empty search brings the library back.
      await page.getByRole("searchbox", { name: "Search documents" }).fill("");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.getByRole("list", { name: "Documents" }).getByRole("button", { name: "Garden plan" }).waitFor();
      await clean(page);
    },
    SLOW,
  );

  test(
    "many matches come a page at a time with Show more",
    async () => {
      const user = await d.rig.o.makeUser();
      const kb = await newKb(user, "Many");
      const files: Record<string, string> = {};
      for (let i = 0; i < 23; i++) files[`n${String(i).padStart(2, "0")}.md`] = `# Note ${i}\n\nA quince tree.\n`;
      await push(user, kb.id, files);
      const page = await open(PHONE);
      await d.signIn(page, user.email);
      await page.getByRole("searchbox", { name: "Search documents" }).fill("quince");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      const results = page.getByRole("list", { name: "Search results" });
      await page.getByText("20+ documents match “quince”.").waitFor();
      await expect(results.getByRole("listitem").count()).resolves.toBe(20);
      await page.getByRole("button", { name: "Show more" }).click();
      await page.getByText("23 documents match “quince”.").waitFor();
      await expect(results.getByRole("listitem").count()).resolves.toBe(23);
      await expect(page.getByRole("button", { name: "Show more" }).isVisible()).resolves.toBe(false);
      await clean(page);
    },
    SLOW,
  );

  test(
    "a knowledge base's search box finds its own documents only, and is cleared",
    async () => {
      const user = await d.rig.o.makeUser();
      const kb = await newKb(user, "Field notes");
      const other = await newKb(user, "Elsewhere");
      await push(user, kb.id, { "birds/heron.md": "# Heron\n\nA grey heron by the pond.\n", "plants.md": "# Plants\n\nReeds by the pond.\n" });
      await push(user, other.id, { "pond.md": "# Another pond\n\nNot this one.\n" });

      const page = await open(DESKTOP);
      await d.signIn(page, user.email);
      await showScreen(page, `#/kbs/${kb.id}`);
      await page.getByRole("heading", { name: "Field notes", level: 1 }).waitFor();
      const box = page.getByRole("searchbox", { name: "Search this knowledge base" });
      await box.fill("pond");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      const results = page.getByRole("list", { name: "Search results" });
      await results.getByRole("link", { name: "Heron" }).waitFor();
      await results.getByRole("link", { name: "Plants" }).waitFor();
      await expect(results.getByRole("listitem").count()).resolves.toBe(2);
      await results.getByText("birds/heron.md").waitFor();
      expect((await markedWords(page)).flat()).toEqual(["pond", "pond"]);
      // The KB's own page is still there below.
      await page.getByRole("list", { name: "Contents", exact: true }).getByRole("link", { name: "plants.md" }).waitFor();
      await accessible(page);
      await page.emulateMedia({ colorScheme: "dark" });
      await accessible(page);
      await page.emulateMedia({ colorScheme: "light" });
      await shootBoth(page, "kb-search");

      await box.fill("grey heron");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.getByText("1 document matches “grey heron”.").waitFor();
      await results.getByRole("link", { name: "Heron" }).click();
      await page.waitForFunction((h) => location.hash === h, `#/kbs/${kb.id}/birds/heron.md`);
      await page.getByText("A grey heron by the pond.").waitFor();

      await page.getByRole("searchbox", { name: "Search this knowledge base" }).fill("swan");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.getByText("No document of this knowledge base contains “swan”.").waitFor();
      await page.getByRole("button", { name: "Clear search" }).click();
      await expect(page.getByRole("list", { name: "Search results" }).isVisible()).resolves.toBe(false);
      await expect(page.getByRole("searchbox", { name: "Search this knowledge base" }).inputValue()).resolves.toBe("");
      await clean(page);
    },
    SLOW,
  );
});
