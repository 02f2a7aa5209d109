// The dashboard's collections in Chromium, driven by the names of their controls: a
// collection created in the page, an image added to it from the library's dialog, its items
// moved up and down, a cover chosen, an item removed, its title changed, and the collection
// deleted after a confirmation. Each step asserts what the person sees and what the API then
// holds; the page logs no error and fetches nothing off its origin. Screenshots (phone and
// desktop) go to a temporary folder and their paths are printed.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { callJson } from "../helpers/context.ts";
import type { TestUser } from "../helpers/factories.ts";
import { png, uploadForm } from "../images/fixtures.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness } from "./dashboard.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("collections in the dashboard", () => {
  const d = dashboardHarness(executable, "center-collections");
  const { open, shootBoth, clean, signIn, go, show } = d;
  const api = (user: TestUser, method: string, path: string, json?: unknown) => callJson(method, path, { token: user.jwt, app: d.rig.o.app, json });
  async function image(user: TestUser, filename: string, side: number) {
    const res = await callJson("POST", "/v1/images", { token: user.jwt, app: d.rig.o.app, body: uploadForm(await png(side, side), { filename }) });
    expect(res.status).toBe(201);
    return { kind: "image", id: res.body.data.id as string };
  }
  const order = async (user: TestUser, id: string) =>
    ((await api(user, "GET", `/v1/collections/${id}/items`)).body.data.items as { kind: string; id: string }[]).map((e) => ({ kind: e.kind, id: e.id }));

  test(
    "a collection is created, filled from the library, reordered with Move up and Move down, given a cover, trimmed, renamed and deleted",
    async () => {
      const user = await d.rig.o.makeUser();
      const dawn = await image(user, "dawn.png", 24);
      const noon = await image(user, "noon.png", 32);
      const dusk = await image(user, "dusk.png", 40);
      const page = await open(DESKTOP);
      await signIn(page, user.email);

      await go(page, "Collections");
      await page.getByText("No collections yet.").waitFor();
      await page.getByLabel("Title", { exact: true }).fill("Holiday");
      await page.getByLabel("Description").fill("Summer by the sea");
      await page.getByRole("button", { name: "Create collection" }).click();
      await page.getByRole("list", { name: "Collections" }).getByRole("link", { name: "Holiday" }).waitFor();
      await page.getByRole("status").getByText("Created “Holiday”.").waitFor();
      const made = (await api(user, "GET", "/v1/collections")).body.data.items;
      expect(made).toEqual([expect.objectContaining({ title: "Holiday", description: "Summer by the sea", itemCount: 0, cover: null })]);
      const id = made[0].id as string;

      // From the library: the image's dialog adds it to the collection.
      await go(page, "Library");
      await page.getByRole("list", { name: "Library items" }).getByRole("button", { name: "dawn.png", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "dawn.png" });
      await dialog.getByRole("option", { name: "Holiday" }).waitFor({ state: "attached" });
      await dialog.getByLabel("Add to collection").selectOption({ label: "Holiday" });
      await dialog.getByRole("button", { name: "Add", exact: true }).click();
      await dialog.getByText("Added to Holiday.").waitFor();
      await shootBoth(page, "item-dialog");
      expect(await order(user, id)).toEqual([dawn]);
      await dialog.getByRole("button", { name: "Close" }).click();
      expect((await api(user, "POST", `/v1/collections/${id}/items`, { items: [noon, dusk] })).status).toBe(200);

      await go(page, "Collections");
      const row = page.getByRole("list", { name: "Collections" }).getByRole("listitem").filter({ hasText: "Holiday" });
      await row.getByText("3 items").waitFor();
      await page.locator(".collection-thumb img[src^='blob:']").first().waitFor();
      await shootBoth(page, "collections-list");
      await row.getByRole("link", { name: "Holiday" }).click();
      await page.getByRole("heading", { name: "Holiday", level: 1 }).waitFor();
      const items = page.getByRole("list", { name: "Items in order" });
      await items.getByText("dusk.png").waitFor();
      expect(await items.getByRole("listitem").allInnerTexts()).toEqual([
        expect.stringContaining("dawn.png"),
        expect.stringContaining("noon.png"),
        expect.stringContaining("dusk.png"),
      ]);
      // The first cannot go up, the last cannot go down.
      expect(await page.getByRole("button", { name: "Move dawn.png up" }).isDisabled()).toBe(true);
      expect(await page.getByRole("button", { name: "Move dusk.png down" }).isDisabled()).toBe(true);

      await page.getByRole("button", { name: "Move dusk.png up" }).click();
      await page.getByRole("status").getByText("Moved dusk.png to place 2.").waitFor();
      expect(await order(user, id)).toEqual([dawn, dusk, noon]);
      // The moved item's button keeps the focus: pressed again, it moves on.
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Move dusk.png up");
      await page.keyboard.press("Enter");
      await page.getByRole("status").getByText("Moved dusk.png to place 1.").waitFor();
      expect(await order(user, id)).toEqual([dusk, dawn, noon]);
      await page.getByRole("button", { name: "Move dawn.png down" }).click();
      await page.getByRole("status").getByText("Moved dawn.png to place 3.").waitFor();
      expect(await order(user, id)).toEqual([dusk, noon, dawn]);

      await page.getByRole("button", { name: "Make cover: noon.png" }).click();
      await page.getByRole("status").getByText("noon.png is the cover.").waitFor();
      expect((await api(user, "GET", `/v1/collections/${id}`)).body.data.cover).toMatchObject({ kind: "image", id: noon.id, chosen: true });
      expect(await page.getByRole("button", { name: "Make cover: noon.png" }).getAttribute("aria-pressed")).toBe("true");

      await page.getByRole("button", { name: "Remove dawn.png" }).click();
      await page.getByRole("status").getByText("Removed dawn.png from the collection; it stays in the library.").waitFor();
      expect(await order(user, id)).toEqual([dusk, noon]);
      expect((await api(user, "GET", `/v1/images/${dawn.id}`)).status).toBe(200);

      await page.getByLabel("Title", { exact: true }).fill("Holiday 2026");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("heading", { name: "Holiday 2026", level: 1 }).waitFor();
      expect((await api(user, "GET", `/v1/collections/${id}`)).body.data).toMatchObject({
        title: "Holiday 2026",
        description: "Summer by the sea",
        itemCount: 2,
      });
      await page.locator(".collection-items img[src^='blob:']").nth(1).waitFor();
      await shootBoth(page, "collection");

      // Dismissed, the collection stays; accepted, it goes and its images stay.
      page.once("dialog", (dlg) => dlg.dismiss());
      await page.getByRole("button", { name: "Delete collection" }).click();
      expect((await api(user, "GET", `/v1/collections/${id}`)).status).toBe(200);
      page.once("dialog", (dlg) => dlg.accept());
      await page.getByRole("button", { name: "Delete collection" }).click();
      await page.getByRole("heading", { name: "Collections", level: 1 }).waitFor();
      await page.getByText("No collections yet.").waitFor();
      expect((await api(user, "GET", `/v1/collections/${id}`)).status).toBe(404);
      expect((await api(user, "GET", `/v1/images/${noon.id}`)).status).toBe(200);
      await show(page, "#/library");
      await clean(page);
    },
    SLOW,
  );
});
