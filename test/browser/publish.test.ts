// Published KBs in Chromium: the dashboard's Publish under a KB folder gives the site's URL
// to copy; the site opened anonymously at phone width with scripts off: its home, its
// navigation, a note with a picture embedded through the site and a wikilink followed,
// the search box; then Unpublish closes it. Screenshots of each.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { png } from "../images/fixtures.ts";
import { storedFile, upsertFile } from "../kbs/file-fixtures.ts";
import { newKb } from "../kbs/fixtures.ts";
import { pushed2 } from "../kbs/v2-fixtures.ts";
import { published } from "../publish/fixtures.ts";
import { markdownDoc } from "../shares/fixtures.ts";
import { axeViolations } from "./axe.ts";
import { findChromium } from "./chromium.ts";
import { DESKTOP, dashboardHarness, PHONE } from "./dashboard.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("published KBs in Chromium", () => {
  const d = dashboardHarness(executable, "publish");
  const { open, shoot, clean, signIn, show } = d;

  test("Publish a folder from the dashboard; the site at phone width: navigation, a note with its picture, a wikilink, search; Unpublish closes it", async () => {
    const user = await makeUser({ plan: "pro" });
    const kb = await newKb(user.jwt);
    const rose = await png(320, 200);
    await storedFile(user.jwt, kb.id, rose, "rose.png");
    await pushed2(user.jwt, kb.id, [upsertFile("garden/img/rose.png", rose)]);
    await markdownDoc(user.jwt, "# My garden\n\nStart with [[Roses]].\n\n> [!tip] Water early\n> before the heat", {
      kbId: kb.id,
      relativePath: "garden/index.md",
    });
    await markdownDoc(user.jwt, "# Roses\n\n- [x] pruned\n- [ ] fed\n\n![[rose.png]]\n\nBack [[index|home]].", {
      kbId: kb.id,
      relativePath: "garden/flowers/roses.md",
    });
    await markdownDoc(user.jwt, "# Tulips\n\nplanted in autumn", { kbId: kb.id, relativePath: "garden/flowers/tulips.md" });

    const page = await open(DESKTOP);
    await signIn(page, user.email);
    await show(page, `#/kbs/${kb.id}/garden`);
    await page.getByText("Publish this folder").click();
    const form = page.getByRole("form", { name: "Published site" });
    await form.getByLabel("Site name in the address (optional)").fill(`garden-${Date.now().toString(36)}`);
    await form.getByRole("button", { name: "Publish" }).click();
    const link = form.getByLabel("Published site", { exact: true });
    await link.waitFor();
    const url = await link.inputValue();
    expect(url).toContain("/p/garden-");
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, "dashboard-publish");

    const visitor = await d.rig.open(PHONE);
    await visitor.goto(url);
    await visitor.getByRole("heading", { name: "My garden", level: 1 }).waitFor();
    expect(await visitor.getByRole("navigation", { name: "Pages" }).getByRole("link").count()).toBe(3);
    expect(await d.rig.noHorizontalScroll(visitor)).toBe(true);
    await shoot(visitor, "site-home-phone");
    await visitor.getByRole("link", { name: "Roses", exact: true }).first().click();
    await visitor.getByRole("heading", { name: "Roses", level: 1 }).waitFor();
    await visitor.getByRole("img", { name: "rose.png" }).waitFor();
    await visitor.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0), undefined, { polling: 100 });
    expect(await d.rig.noHorizontalScroll(visitor)).toBe(true);
    await shoot(visitor, "site-note-phone");
    await visitor.getByRole("searchbox", { name: "Search this site" }).fill("autumn");
    await visitor.getByRole("button", { name: "Search" }).click();
    await visitor.getByRole("heading", { name: "Search", level: 1 }).waitFor();
    await visitor.getByRole("main").getByRole("link", { name: "Tulips" }).waitFor();
    await shoot(visitor, "site-search-phone");

    page.once("dialog", (dialog) => void dialog.accept());
    await form.getByRole("button", { name: `Unpublish ${url}` }).click();
    await form.getByText("Unpublished.").waitFor();
    const gone = await visitor.goto(url);
    expect(gone?.status()).toBe(404);
    await visitor.context().close();
    // The unpublished site's 404, as the visitor's browser reports it.
    await clean(page, [/status of 404/]);

    // A site with scripts on (its own CSP runs none): axe finds nothing.
    const again = await published(user.jwt, { kbId: kb.id, path: "garden" });
    const scripted = await open(PHONE);
    await scripted.goto(again.url);
    await scripted.getByRole("heading", { name: "My garden", level: 1 }).waitFor();
    expect(await axeViolations(scripted)).toEqual([]);
    await clean(scripted);
  });
});
