// The accessibility scan of every dashboard screen: axe-core (./axe.ts) finds no serious or
// critical violation at phone width, at desktop width, and in the dark scheme. A screen is a
// line of SCREENS: who signs in, the fragment, and what shows the screen is drawn (and, for
// a dialog, how it is opened). Screenshots of each go to a temporary folder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { PASSWORD, type TestUser } from "../helpers/factories.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { axeViolations } from "./axe.ts";
import { browserRig, findChromium, SLOW } from "./chromium.ts";

const executable = findChromium();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

interface Screen {
  name: string;
  fragment: string;
  /** Who is signed in: nobody, a user with two images, or an admin. */
  as: "nobody" | "user" | "admin";
  /** Resolves once the screen is drawn (and opens what it shows, a dialog say). */
  ready(page: Page): Promise<unknown>;
}

const SCREENS: Screen[] = [
  { name: "sign in", fragment: "#/signin", as: "nobody", ready: (p) => p.getByRole("button", { name: "Sign in" }).waitFor() },
  { name: "sign up", fragment: "#/signup", as: "nobody", ready: (p) => p.getByRole("button", { name: "Create account" }).waitFor() },
  { name: "library", fragment: "#/library", as: "user", ready: (p) => p.getByRole("list", { name: "Images" }).getByRole("img", { name: "sea.png" }).waitFor() },
  { name: "upload", fragment: "#/upload", as: "user", ready: (p) => p.getByLabel("Choose files").waitFor({ state: "attached" }) },
  {
    name: "image dialog",
    fragment: "#/library",
    as: "user",
    ready: async (p) => {
      await p.getByRole("button", { name: "sea.png" }).click();
      await p.getByRole("dialog", { name: "sea.png" }).getByRole("button", { name: "Save changes" }).waitFor();
    },
  },
  {
    name: "admin",
    fragment: "#/admin",
    as: "admin",
    ready: async (p) => {
      await p.getByRole("list", { name: "Jobs" }).getByRole("listitem").first().waitFor();
      await p.getByRole("button", { name: "Approve Scanned app" }).waitFor();
    },
  },
  { name: "admins only", fragment: "#/admin", as: "user", ready: (p) => p.getByRole("heading", { name: "Admins only" }).waitFor() },
];

describe.skipIf(!executable)("the dashboard's accessibility (axe-core)", () => {
  let rig: Awaited<ReturnType<typeof browserRig>>;
  let origin: string;
  const shots = mkdtempSync(join(tmpdir(), "shelf-center-a11y-"));
  const people: Partial<Record<Screen["as"], TestUser>> = {};

  beforeAll(async () => {
    rig = await browserRig(executable!);
    origin = new URL(rig.o.deps.config.CENTER_URL).origin;
    const user = await rig.o.makeUser();
    const bytes = await png(40, 30);
    await uploaded(user.jwt, bytes, { filename: "sea.png", tags: '["sea"]' });
    await uploaded(user.jwt, bytes, { filename: "hill.png", is_public: "false" });
    people.user = user;
    people.admin = await rig.o.makeUser({ isAdmin: true });
    // An app waiting in the admin's approval queue, so its controls are scanned too.
    const registered = await rig.o.call("POST", "/oauth/register", {
      app: rig.o.app,
      json: { client_name: "Scanned app", redirect_uris: ["https://app.example/cb"] },
      headers: { "x-forwarded-for": rig.o.ip() },
    });
    expect(registered.status).toBe(201);
  }, SLOW);

  afterAll(async () => {
    await rig?.close();
    console.log(`accessibility screenshots: ${shots}`);
  }, SLOW);

  async function visit(screen: Screen): Promise<Page> {
    const page = await rig.open(PHONE, { javaScript: true });
    await page.goto(`${origin}/`);
    const who = people[screen.as as "user" | "admin"];
    if (who) {
      await page.getByLabel("Email").fill(who.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Library" }).waitFor();
    }
    await page.goto(`${origin}/${screen.fragment}`);
    await screen.ready(page);
    return page;
  }

  /** Scans the page as it is; a violation fails with its rule, what it says and where. */
  async function scan(page: Page, label: string) {
    await page.screenshot({ path: join(shots, `${label}.png`), fullPage: true });
    const found = await axeViolations(page);
    expect(found.map((v) => `${v.impact} ${v.id} (${v.help}): ${v.targets.join(", ")}`)).toEqual([]);
  }

  test(
    "the scan sees what it must: a button without a name on the sign-in page is a critical violation",
    async () => {
      const page = await visit(SCREENS[0]!);
      await page.evaluate(() => document.querySelector("main")!.append(document.createElement("button")));
      const found = await axeViolations(page);
      expect(found).toContainEqual(expect.objectContaining({ id: "button-name", impact: "critical", targets: ["main > button"] }));
      await page.context().close();
    },
    SLOW,
  );

  for (const screen of SCREENS) {
    test(
      `${screen.name} (${screen.fragment}): nothing serious or critical at phone and desktop widths, light and dark`,
      async () => {
        rig.complaints.length = 0;
        const page = await visit(screen);
        const slug = screen.name.replaceAll(" ", "-");
        await scan(page, `${slug}-phone`);
        await page.setViewportSize(DESKTOP);
        await scan(page, `${slug}-desktop`);
        await page.emulateMedia({ colorScheme: "dark" });
        await scan(page, `${slug}-desktop-dark`);
        // And the screen logged no error (the COOP note is plain HTTP's, not the page's).
        expect(rig.complaints.filter((m) => !m.includes("Cross-Origin-Opener-Policy header has been ignored"))).toEqual([]);
        await page.context().close();
      },
      SLOW,
    );
  }
});
