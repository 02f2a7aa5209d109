// The dashboard's shell in Chromium: the header (one row on a laptop, with the unread count
// showing; on a phone the brand, the count and a Menu button that opens the rest), the
// account's own screens under its name, and the page for an address no screen has. Driven
// by the names of the controls; each page logs no error and fetches nothing off its origin.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { call, callJson } from "../helpers/context.ts";
import type { TestUser } from "../helpers/factories.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness, PHONE } from "./dashboard.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("the dashboard's header and addresses in Chromium", () => {
  const d = dashboardHarness(executable, "center-shell");
  const { open, shoot, clean, signIn } = d;

  /** An admin (every link of the nav) told of six keys made and revoked: a two-digit count in the header. */
  async function busyAdmin(): Promise<TestUser> {
    const boss = await d.rig.o.makeUser({ isAdmin: true });
    const { app } = d.rig.o;
    for (let i = 0; i < 6; i++) {
      const made = await callJson("POST", "/v1/api-keys", { app, token: boss.jwt, json: { name: `key ${i}` } });
      expect(made.status).toBe(201);
      expect((await call("DELETE", `/v1/api-keys/${made.body.data.id}`, { app, token: boss.jwt })).status).toBe(204);
    }
    return boss;
  }

  /** The vertical middle of what `l` shows. */
  const middle = async (l: Locator) => {
    const box = (await l.boundingBox())!;
    return box.y + box.height / 2;
  };

  /** Each control of the header that is shown, by its role and name. */
  async function shownControls(page: Page) {
    const banner = page.getByRole("banner");
    const shown: Locator[] = [];
    for (const role of ["link", "button"] as const) for (const l of await banner.getByRole(role).all()) if (await l.isVisible()) shown.push(l);
    return shown;
  }

  test(
    "at 1280 px the header is one row with the unread count showing; the account's screens and Sign out open from its name",
    async () => {
      const boss = await busyAdmin();
      const page = await open(DESKTOP);
      await signIn(page, boss.email);
      const banner = page.getByRole("banner");
      const bell = banner.getByRole("link", { name: "Notifications, 12 unread" });
      await bell.waitFor();
      await expect(bell.textContent()).resolves.toBe("Notifications 12");
      // Every main screen is in the nav, in sight; the menu button is not (nothing is collapsed).
      const nav = page.getByRole("navigation", { name: "Main" });
      for (const name of ["Library", "Upload", "Collections", "Knowledge bases", "Usage", "Trash", "Admin"])
        await nav.getByRole("link", { name, exact: true }).waitFor();
      await expect(banner.getByRole("button", { name: "Menu", exact: true }).isVisible()).resolves.toBe(false);
      const account = banner.getByRole("button", { name: `Account menu, ${boss.email}` });
      await expect(account.getAttribute("aria-expanded")).resolves.toBe("false");
      // One row: every control shown sits on the brand's line, and the header is one control tall.
      const row = await middle(banner.getByRole("link", { name: "shelf" }));
      const controls = await shownControls(page);
      expect(controls.length).toBe(10);
      for (const c of controls) expect(Math.abs((await middle(c)) - row)).toBeLessThan(6);
      expect((await banner.boundingBox())!.height).toBeLessThan(70);
      expect(await d.rig.noHorizontalScroll(page)).toBe(true);
      await shoot(page, "header-desktop");

      // The account's own screens and Sign out are under its name.
      await account.click();
      await expect(account.getAttribute("aria-expanded")).resolves.toBe("true");
      const mine = banner.getByRole("list", { name: "Your account" });
      await expect(mine.getByRole("link").allTextContents()).resolves.toEqual(["Account", "API keys", "Share links", "Authorized apps", "Webhooks"]);
      await shoot(page, "account-menu-desktop");
      // Escape closes it and gives the focus back to its button.
      await page.keyboard.press("Escape");
      await expect(account.getAttribute("aria-expanded")).resolves.toBe("false");
      await expect(account.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      await expect(mine.getByRole("link", { name: "API keys" }).isVisible()).resolves.toBe(false);
      await account.click();
      await mine.getByRole("link", { name: "API keys" }).click();
      await page.getByRole("heading", { name: "API keys", level: 1 }).waitFor();
      await expect(banner.getByRole("button", { name: /^Account menu/ }).getAttribute("aria-expanded")).resolves.toBe("false");
      await d.signOut(page);
      await clean(page);
    },
    SLOW,
  );

  test(
    "at 390 px the header is one short row: the brand, the unread count and Menu, which opens every screen and Sign out",
    async () => {
      const boss = await busyAdmin();
      const page = await open(PHONE);
      await signIn(page, boss.email);
      const banner = page.getByRole("banner");
      await banner.getByRole("link", { name: "Notifications, 12 unread" }).waitFor();
      const menu = banner.getByRole("button", { name: "Menu", exact: true });
      await expect(menu.getAttribute("aria-expanded")).resolves.toBe("false");
      // Closed: the nav is out of sight, and the header takes one row of the phone's 844 px.
      await expect(page.getByRole("navigation", { name: "Main" }).isVisible()).resolves.toBe(false);
      expect((await shownControls(page)).length).toBe(3);
      expect((await banner.boundingBox())!.height).toBeLessThan(70);
      await shoot(page, "header-phone");

      await menu.click();
      await expect(menu.getAttribute("aria-expanded")).resolves.toBe("true");
      const nav = page.getByRole("navigation", { name: "Main" });
      for (const name of ["Library", "Upload", "Collections", "Knowledge bases", "Usage", "Trash", "Admin"])
        await nav.getByRole("link", { name, exact: true }).waitFor();
      const mine = banner.getByRole("list", { name: "Your account" });
      for (const name of ["Account", "API keys", "Share links", "Authorized apps", "Webhooks"]) await mine.getByRole("link", { name, exact: true }).waitFor();
      await mine.getByRole("button", { name: "Sign out" }).waitFor();
      await mine.getByText(boss.email).waitFor();
      expect(await d.rig.noHorizontalScroll(page)).toBe(true);
      await shoot(page, "menu-open-phone");
      // Escape closes it, the focus back on its button.
      await page.keyboard.press("Escape");
      await expect(menu.getAttribute("aria-expanded")).resolves.toBe("false");
      await expect(menu.evaluate((el) => el === document.activeElement)).resolves.toBe(true);

      // A screen chosen from it opens, and the menu is closed on the new screen.
      await menu.click();
      await nav.getByRole("link", { name: "Upload", exact: true }).click();
      await page.getByRole("heading", { name: "Upload", level: 1 }).waitFor();
      await expect(banner.getByRole("button", { name: "Menu", exact: true }).getAttribute("aria-expanded")).resolves.toBe("false");
      await expect(nav.isVisible()).resolves.toBe(false);
      await clean(page);
    },
    SLOW,
  );

  test(
    "an address no screen has says so, signed in and signed out; a signed-in screen asks a signed-out visitor to sign in",
    async () => {
      const user = await d.rig.o.makeUser();
      const page = await open(PHONE);
      await page.goto(`${d.origin}/#/no-such-screen`);
      await page.getByRole("heading", { name: "Page not found", level: 1 }).waitFor();
      await expect(page.title()).resolves.toBe("Not found · shelf");
      await page.getByText("#/no-such-screen").waitFor();
      await page.getByRole("link", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Sign in", level: 1 }).waitFor();
      await d.show(page, "#/usage");
      await page.getByRole("heading", { name: "Sign in", level: 1 }).waitFor();

      await signIn(page, user.email);
      for (const fragment of ["#/no-such-screen", "#/admin/nothing", "#/library/extra"]) {
        await d.show(page, fragment);
        await page.getByRole("heading", { name: "Page not found", level: 1 }).waitFor();
        await expect(page.evaluate(() => location.hash)).resolves.toBe(fragment);
      }
      await shoot(page, "not-found-phone");
      await page.getByRole("link", { name: "Go to your library" }).click();
      await page.getByRole("heading", { name: "Library", level: 1 }).waitFor();
      // The start (no fragment) and the sign-in screens lead a signed-in person to the library.
      await d.settled(page);
      await page.goto(`${d.origin}/`);
      await page.getByRole("heading", { name: "Library", level: 1 }).waitFor();
      await d.show(page, "#/signin");
      await page.getByRole("heading", { name: "Library", level: 1 }).waitFor();
      await clean(page);
    },
    SLOW,
  );
});
