// The library's image tiles in Chromium: each loads a square variant the browser picks from
// a srcset (a private one's fetched with the token), the image's ThumbHash is painted
// behind it until it arrives, the dialog then shows the full image, and a page of tiles
// transfers less than a tenth of the full images' bytes.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page, Route } from "playwright-core";
import { call } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { jpegWithExif, photoLike, uploaded } from "../images/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { axeViolations } from "./axe.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness } from "./dashboard.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();
/** One page of the library's grid (library.ts PAGE_SIZE). */
const PAGE = 24;
/** Tall enough that every tile of a page is near the viewport (lazy loading). */
const TALL = { width: DESKTOP.width, height: 2400 };
const BROWSER_ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

/** True once every image of the grid has loaded (or failed: then the test fails on it). */
const allLoaded = (page: Page) =>
  page.waitForFunction(() => {
    const imgs = [...document.querySelectorAll<HTMLImageElement>(".grid .thumb img")];
    return imgs.length > 0 && imgs.every((i) => i.complete && i.currentSrc !== "");
  });

describe.skipIf(!executable)("the library's image tiles in Chromium", () => {
  const d = dashboardHarness(executable, "center-library-thumbs");
  const { open, shoot, clean, signIn } = d;

  test(
    "a page of photos loads square variants from a srcset, under a tenth of the full images' bytes; named by their file names; axe finds nothing",
    async () => {
      const user = await makeUser({ plan: "pro" });
      const photo = await photoLike(1600, 1200);
      const made = [];
      for (let i = 0; i < PAGE; i++) made.push(await uploaded(user.jwt, photo, { filename: `photo-${i}.jpg` }));

      const page = await open(TALL);
      const variantBytes: Promise<number>[] = [];
      const fullAsked: string[] = [];
      page.on("response", (res) => {
        const u = new URL(res.url());
        if (!u.pathname.includes("/media/")) return;
        if (u.search.includes("w=")) variantBytes.push(res.body().then((b) => b.length));
        else fullAsked.push(res.url());
      });
      await signIn(page, user.email);
      const grid = page.getByRole("list", { name: "Library items" });
      for (const m of made) await grid.getByRole("img", { name: m.filename }).waitFor({ state: "attached" });
      await allLoaded(page);

      // Each tile is a square variant of the tile's size, chosen from the srcset; no full image.
      const shown = await page.$$eval(".grid .thumb img", (imgs) => (imgs as HTMLImageElement[]).map((i) => [i.currentSrc, i.naturalWidth, i.naturalHeight]));
      expect(shown).toHaveLength(PAGE);
      for (const [src, w, h] of shown) {
        expect(String(src)).toMatch(/\/media\/[\w-]{11}\.jpg\?w=(192|256|384|512)&h=\1$/);
        expect(w).toBe(h);
      }
      expect(fullAsked).toEqual([]);

      // What the grid showed before: each image whole, as the browser is served it (WebP).
      let full = 0;
      for (const m of made) {
        const res = await call("GET", new URL(m.url).pathname, { headers: { accept: BROWSER_ACCEPT } });
        full += (await res.arrayBuffer()).byteLength;
      }
      const grid_ = (await Promise.all(variantBytes)).reduce((a, b) => a + b, 0);
      console.log(`library grid: ${PAGE} tiles, ${grid_} bytes; the full images ${full} bytes (${((100 * grid_) / full).toFixed(1)}%)`);
      expect(grid_).toBeGreaterThan(0);
      expect(grid_ * 10).toBeLessThan(full);

      expect(await axeViolations(page)).toEqual([]);
      await shoot(page, "library-thumbs-desktop");
      await clean(page);
    },
    SLOW,
  );

  test(
    "the placeholder is painted before the tile's bytes arrive and cleared once they have; a private image's tile is its variant fetched with the token; the dialog shows the full image",
    async () => {
      const user = await makeUser({ plan: "pro" });
      const pub = await uploaded(user.jwt, await jpegWithExif({ width: 800, height: 600, orientation: 1 }), { filename: "public.jpg" });
      const priv = await uploaded(user.jwt, await jpegWithExif({ width: 800, height: 600, orientation: 1 }), { filename: "private.jpg", is_public: "false" });

      const page = await open(DESKTOP);
      // The variants are held back until the placeholders have been seen.
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      await page.route(
        (u) => u.search.includes("w="),
        async (route: Route) => {
          await gate;
          await route.continue();
        },
      );
      await signIn(page, user.email);
      const grid = page.getByRole("list", { name: "Library items" });
      await grid.getByRole("img", { name: "public.jpg" }).waitFor({ state: "attached" });
      await grid.getByRole("img", { name: "private.jpg" }).waitFor({ state: "attached" });
      const painted = () =>
        page.$$eval(".grid .thumb.image", (thumbs) =>
          thumbs.map((t) => [t.classList.contains("painted"), (t as HTMLElement).style.backgroundImage.slice(0, 27)]),
        );
      expect(await painted()).toEqual([
        [true, 'url("data:image/png;base64,'],
        [true, 'url("data:image/png;base64,'],
      ]);
      await shoot(page, "library-placeholders-desktop");
      release();
      await allLoaded(page);
      await page.waitForFunction(() => document.querySelectorAll(".grid .thumb.painted").length === 0);
      expect(await painted()).toEqual([
        [false, ""],
        [false, ""],
      ]);
      const privateSrc = await grid.getByRole("img", { name: "private.jpg" }).evaluate((i: HTMLImageElement) => i.currentSrc);
      expect(privateSrc).toStartWith("blob:");
      expect(d.requested.some((u) => u.includes(`/${priv.id}.jpg?w=`))).toBe(true);
      expect(d.requested.some((u) => u.endsWith(`/${priv.id}.jpg`))).toBe(false);
      await shoot(page, "library-thumbs-loaded-desktop");

      // The dialog: the tile's picture at once, then the full image.
      await grid.getByRole("button", { name: "public.jpg", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "public.jpg" });
      await page.waitForFunction((url) => (document.querySelector("dialog img.preview") as HTMLImageElement | null)?.src === url, pub.url);
      await dialog.getByRole("button", { name: "Close" }).click();
      await grid.getByRole("button", { name: "private.jpg", exact: true }).click();
      await page.waitForFunction(() => {
        const img = document.querySelector("dialog img.preview") as HTMLImageElement | null;
        return !!img && img.src.startsWith("blob:") && img.naturalWidth === 800;
      });
      await shoot(page, "library-private-dialog-desktop");
      await clean(page);
    },
    SLOW,
  );
});
