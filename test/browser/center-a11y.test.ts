// The accessibility scan of every dashboard screen: axe-core (./axe.ts) finds no serious or
// critical violation at phone width, at desktop width, and in the dark scheme. A screen is a
// line of SCREENS: who signs in, the fragment, and what shows the screen is drawn (and, for
// a dialog, how it is opened). Screenshots of each go to a temporary folder.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { makeKey, type TestUser } from "../helpers/factories.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { sha256 } from "../kbs/fixtures.ts";
import { pushed2, sync2, upsert2 } from "../kbs/v2-fixtures.ts";
import { axeViolations } from "./axe.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness, PHONE } from "./dashboard.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

/** What beforeAll made that a fragment may name. */
const made = { kbId: "", docId: "", collectionId: "" };

interface Screen {
  name: string;
  /** The fragment, or a function of what beforeAll made (a KB's id, say). */
  fragment: string | (() => string);
  /** Who is signed in: nobody, a user with two images, or an admin. */
  as: "nobody" | "user" | "admin";
  /** Resolves once the screen is drawn (and opens what it shows, a dialog say). */
  ready(page: Page): Promise<unknown>;
}

const SCREENS: Screen[] = [
  { name: "sign in", fragment: "#/signin", as: "nobody", ready: (p) => p.getByRole("button", { name: "Sign in", exact: true }).waitFor() },
  { name: "sign up", fragment: "#/signup", as: "nobody", ready: (p) => p.getByRole("button", { name: "Create account" }).waitFor() },
  {
    name: "library",
    fragment: "#/library",
    as: "user",
    ready: (p) => p.getByRole("list", { name: "Library items" }).getByRole("img", { name: "sea.png" }).waitFor(),
  },
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
    name: "menu open",
    fragment: "#/library",
    as: "user",
    ready: async (p) => {
      await p.getByRole("list", { name: "Library items" }).getByRole("img", { name: "sea.png" }).waitFor();
      await p.getByRole("button", { name: "Menu", exact: true }).click();
      await p.getByRole("list", { name: "Your account" }).getByRole("button", { name: "Sign out" }).waitFor();
    },
  },
  { name: "not found", fragment: "#/no-such-screen", as: "user", ready: (p) => p.getByRole("heading", { name: "Page not found" }).waitFor() },
  {
    name: "admin accounts",
    fragment: "#/admin",
    as: "admin",
    ready: (p) => p.getByRole("list", { name: "Accounts" }).getByRole("listitem").first().waitFor(),
  },
  {
    name: "admin plan dialog",
    fragment: "#/admin",
    as: "admin",
    ready: async (p) => {
      await p
        .getByRole("button", { name: /^Change plan of / })
        .first()
        .click();
      await p
        .getByRole("dialog", { name: /^Plan of / })
        .getByRole("button", { name: "Save plan" })
        .waitFor();
    },
  },
  { name: "admin plans", fragment: "#/admin/plans", as: "admin", ready: (p) => p.getByRole("table", { name: "Plans and their limits" }).waitFor() },
  { name: "admin apps", fragment: "#/admin/apps", as: "admin", ready: (p) => p.getByRole("button", { name: "Approve Scanned app" }).waitFor() },
  {
    name: "admin jobs",
    fragment: "#/admin/jobs",
    as: "admin",
    ready: (p) => p.getByRole("list", { name: "Jobs" }).getByRole("listitem").first().waitFor(),
  },
  { name: "admins only", fragment: "#/admin", as: "user", ready: (p) => p.getByRole("heading", { name: "Admins only" }).waitFor() },
  {
    name: "knowledge bases",
    fragment: "#/kbs",
    as: "user",
    ready: (p) => p.getByRole("list", { name: "Knowledge bases" }).getByRole("link", { name: "Field notes" }).waitFor(),
  },
  {
    name: "knowledge base",
    fragment: () => `#/kbs/${made.kbId}`,
    as: "user",
    ready: (p) => p.getByRole("list", { name: "Contents", exact: true }).getByRole("link", { name: "trip.md" }).waitFor(),
  },
  {
    name: "document",
    fragment: () => `#/kbs/${made.kbId}/trip.md`,
    as: "user",
    ready: (p) => p.getByRole("article", { name: "Trip report" }).getByRole("table").waitFor(),
  },
  {
    name: "history",
    fragment: () => `#/history/${made.docId}`,
    as: "user",
    ready: (p) => p.getByRole("list", { name: "Revisions" }).getByRole("listitem").first().waitFor(),
  },
  {
    name: "conflicts",
    fragment: () => `#/conflicts/${made.kbId}`,
    as: "user",
    ready: (p) => p.getByRole("article", { name: "plan.md" }).getByRole("table").waitFor(),
  },
  {
    name: "collections",
    fragment: "#/collections",
    as: "user",
    ready: (p) => p.getByRole("list", { name: "Collections" }).getByRole("link", { name: "Seaside" }).waitFor(),
  },
  {
    name: "collection",
    fragment: () => `#/collections/${made.collectionId}`,
    as: "user",
    ready: (p) => p.getByRole("button", { name: "Move hill.png up" }).waitFor(),
  },
  { name: "usage", fragment: "#/usage", as: "user", ready: (p) => p.getByRole("heading", { name: /^Plan: / }).waitFor() },
  { name: "API keys", fragment: "#/keys", as: "user", ready: (p) => p.getByRole("heading", { name: "scan key" }).waitFor() },
  { name: "share links", fragment: "#/shares", as: "user", ready: (p) => settled(p, "Share links") },
  { name: "authorized apps", fragment: "#/apps", as: "user", ready: (p) => settled(p, "Authorized apps") },
  { name: "webhooks", fragment: "#/webhooks", as: "user", ready: (p) => settled(p, "Webhooks") },
  { name: "account", fragment: "#/account", as: "user", ready: (p) => settled(p, "Account") },
  { name: "notifications", fragment: "#/notifications", as: "user", ready: (p) => settled(p, "Notifications") },
  { name: "trash", fragment: "#/trash", as: "user", ready: (p) => settled(p, "Trash") },
];

/** A screen whose heading is drawn and whose requests have all been answered. */
async function settled(page: Page, heading: string) {
  await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
  await page.waitForLoadState("networkidle");
}

describe.skipIf(!executable)("the dashboard's accessibility (axe-core)", () => {
  const people: Partial<Record<Screen["as"], TestUser>> = {};

  const d = dashboardHarness(executable, "center-a11y", async (rig) => {
    const user = await rig.o.makeUser();
    const bytes = await png(40, 30);
    const sea = await uploaded(user.jwt, bytes, { filename: "sea.png", tags: '["sea"]' });
    const hill = await uploaded(user.jwt, bytes, { filename: "hill.png", is_public: "false" });
    const collection = await rig.o.call("POST", "/v1/collections", {
      app: rig.o.app,
      token: user.jwt,
      json: { title: "Seaside", items: [sea, hill].map((i) => ({ kind: "image", id: i.id })) },
    });
    made.collectionId = ((await collection.json()) as { data: { id: string } }).data.id;
    people.user = user;
    // A knowledge base with a document of two revisions (its history), and an API key.
    expect((await rig.o.call("PATCH", "/v1/user/me", { app: rig.o.app, token: user.jwt, json: { docVersioningEnabled: true } })).status).toBe(200);
    const kb = await rig.o.call("POST", "/v1/kbs", { app: rig.o.app, token: user.jwt, json: { name: "Field notes" } });
    made.kbId = ((await kb.json()) as { data: { id: string } }).data.id;
    const v1 = "# Trip report\n\nWe walked to the [lake](https://example.org/lake).\n\n| day | km |\n|---|--:|\n| 1 | 12 |\n";
    const first = await pushed2(user.jwt, made.kbId, [upsert2("trip.md", v1), upsert2("guides/intro.md", "# Intro\n")], { app: rig.o.app });
    made.docId = first.results[0]!.docId!;
    await pushed2(user.jwt, made.kbId, [upsert2("trip.md", `${v1}\nAnd back.\n`, { baseHash: sha256(v1) })], { app: rig.o.app });
    // A conflict: plan.md changed on the server, then a push from a stale copy kept as a branch.
    const plan = "# Plan\n\nstart at dawn\n";
    await pushed2(user.jwt, made.kbId, [upsert2("plan.md", plan)], { app: rig.o.app });
    await pushed2(user.jwt, made.kbId, [upsert2("plan.md", "# Plan\n\nstart at noon\n", { baseHash: sha256(plan) })], { app: rig.o.app });
    const stale = await sync2(user.jwt, made.kbId, [upsert2("plan.md", "# Plan\n\nstart at six\n", { baseHash: sha256(plan) })], {
      app: rig.o.app,
      query: "conflictResolution=preserve_both",
    });
    expect(stale.body.data.results[0].status).toBe("conflict_branch_created");
    await makeKey(user, ["media.read"], "scan key");
    people.admin = await rig.o.makeUser({ isAdmin: true });
    // An app waiting in the admin's approval queue, so its controls are scanned too.
    const registered = await rig.o.call("POST", "/oauth/register", {
      app: rig.o.app,
      json: { client_name: "Scanned app", redirect_uris: ["https://app.example/cb"] },
      headers: { "x-forwarded-for": rig.o.ip() },
    });
    expect(registered.status).toBe(201);
  });

  async function visit(screen: Screen): Promise<Page> {
    const page = await d.open(PHONE);
    const who = people[screen.as as "user" | "admin"];
    if (who) await d.signIn(page, who.email);
    await page.goto(`${d.origin}/${typeof screen.fragment === "string" ? screen.fragment : screen.fragment()}`);
    await screen.ready(page);
    return page;
  }

  /** Scans the page as it is; a violation fails with its rule, what it says and where. */
  async function scan(page: Page, label: string) {
    await d.shoot(page, label);
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
      `${screen.name}: nothing serious or critical at phone and desktop widths, light and dark`,
      async () => {
        const page = await visit(screen);
        const slug = screen.name.replaceAll(" ", "-");
        await scan(page, `${slug}-phone`);
        await page.setViewportSize(DESKTOP);
        await scan(page, `${slug}-desktop`);
        await page.emulateMedia({ colorScheme: "dark" });
        await scan(page, `${slug}-desktop-dark`);
        // And the screen logged no error, and fetched nothing off its origin.
        await d.clean(page);
      },
      SLOW,
    );
  }
});
