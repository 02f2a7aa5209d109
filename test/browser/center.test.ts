// The dashboard at CENTER_URL (the root here) in Chromium, driven as a person does: by the
// names of its controls (labels, roles, text). Each journey asserts what the person sees and
// what the API then holds; the page must log no error and fetch nothing off its origin.
// Screenshots (phone and desktop) are written to a temporary folder and their paths printed.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { callJson } from "../helpers/context.ts";
import { PASSWORD } from "../helpers/factories.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness, PHONE } from "./dashboard.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("the dashboard in Chromium", () => {
  const d = dashboardHarness(executable, "center");
  const { open, shoot, clean, signIn } = d;

  test("the root serves the dashboard's page under a strict CSP; API paths and the device page are untouched", async () => {
    const { app } = d.rig.o;
    const root = await app.handle(new Request(`${d.origin}/`));
    expect(root.status).toBe(200);
    expect(root.headers.get("content-type")).toStartWith("text/html");
    const csp = root.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain("unsafe-inline");
    const html = await root.text();
    const script = /<script type="module" src="([^"]+)"/.exec(html)![1]!;
    const asset = await app.handle(new Request(`${d.origin}${script}`));
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    // The first page's script stays small (its budget: 150 KB compressed, docs/decisions/dashboard.md).
    expect(Bun.gzipSync(new Uint8Array(await asset.arrayBuffer())).byteLength).toBeLessThan(150 * 1024);
    const api = await callJson("GET", "/v1/nothing-here", { app });
    expect(api.status).toBe(404);
    expect(api.body).toMatchObject({ success: false, code: "NOT_FOUND" });
    const device = await app.handle(new Request(`${d.origin}/device`));
    expect(device.status).toBe(200);
    expect(await device.text()).toContain("<form");
  });

  test(
    "a new person signs up, sees an empty library, signs out and signs back in",
    async () => {
      // An instance with an account opens on Sign in (one with none opens on the first
      // account's sign-up: center-first-visit.test.ts).
      await d.rig.o.makeUser();
      const page = await open();
      await page.goto(`${d.origin}/`);
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await shoot(page, "sign-in-phone");
      await page.getByRole("link", { name: "Create an account" }).click();
      await page.getByRole("heading", { name: "Create your account" }).waitFor();
      const email = `center-${crypto.randomUUID()}@example.com`;
      await page.getByLabel("Nickname").fill("Robin");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: "Create account" }).click();
      // A refusal is told in words, and the person stays on the form.
      await expect(page.getByRole("alert").textContent()).resolves.toContain("Password must be at least 8 characters");
      await page.getByLabel("Password").fill(PASSWORD);
      await shoot(page, "sign-up-phone");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("heading", { name: "Library" }).waitFor();
      await page.getByText("Nothing here yet.").waitFor();
      await expect(page.getByRole("link", { name: "Add your first files" }).getAttribute("href")).resolves.toBe("#/upload");
      // Greeted by the nickname, in the header's menu on a phone.
      await page.getByRole("banner").getByRole("button", { name: "Menu", exact: true }).click();
      await page.getByRole("banner").getByRole("list", { name: "Your account" }).getByText("Robin").waitFor();
      await page.keyboard.press("Escape");
      expect(await d.rig.noHorizontalScroll(page)).toBe(true);
      await shoot(page, "library-empty-phone");

      // A reload keeps the session (the refresh cookie), not the screen's state.
      await page.reload();
      await page.getByRole("heading", { name: "Library" }).waitFor();

      await d.signOut(page);
      await page.reload();
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await signIn(page, email);
      await clean(page, [/status of 422/]);
    },
    SLOW,
  );

  test(
    "uploads picked files through tus with per-file progress; they appear in the library; an unsupported file is refused in words",
    async () => {
      const user = await d.rig.o.makeUser();
      const page = await open(DESKTOP);
      await signIn(page, user.email);
      await page.getByRole("link", { name: "Upload", exact: true }).click();
      await page.getByRole("heading", { name: "Upload" }).waitFor();
      await page.getByLabel("Choose files").setInputFiles([
        { name: "red.png", mimeType: "image/png", buffer: Buffer.from(await png(64, 48)) },
        { name: "wide.png", mimeType: "image/png", buffer: Buffer.from(await png(120, 40)) },
        { name: "notes.zip", mimeType: "application/zip", buffer: Buffer.from("PK") },
      ]);
      const uploads = page.getByRole("list", { name: "Uploads" });
      await uploads.getByRole("listitem").filter({ hasText: "red.png" }).getByText("Uploaded").waitFor();
      await uploads.getByRole("listitem").filter({ hasText: "wide.png" }).getByText("Uploaded").waitFor();
      await expect(page.getByRole("progressbar", { name: "Progress of red.png" }).getAttribute("value")).resolves.toBe("100");
      await expect(uploads.getByRole("listitem").filter({ hasText: "notes.zip" }).textContent()).resolves.toContain("Not an image, video or audio file.");
      await shoot(page, "upload-desktop");

      const list = await callJson("GET", "/v1/images", { token: user.jwt, app: d.rig.o.app });
      expect(list.body.data.items.map((i: { filename: string }) => i.filename).sort()).toEqual(["red.png", "wide.png"]);

      await page.getByRole("link", { name: "Library", exact: true }).click();
      const grid = page.getByRole("list", { name: "Library items" });
      for (const name of ["red.png", "wide.png"]) {
        const img = grid.getByRole("img", { name });
        await img.waitFor();
        // The thumbnail came from the media edge and decoded.
        await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle());
      }
      await page.getByText("2 items").waitFor();
      await shoot(page, "library-desktop");
      await clean(page);
    },
    SLOW,
  );

  test(
    "files dropped on the page upload too; a refusal of the plan is told in the API's words",
    async () => {
      const user = await d.rig.o.makeUser();
      const page = await open(PHONE);
      await signIn(page, user.email);
      await d.go(page, "Upload");
      const image = Buffer.from(await png(30, 30)).toString("base64");
      // What a drop hands the page: a DataTransfer holding the files.
      const dropped = await page.evaluateHandle((b64) => {
        const dt = new DataTransfer();
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        dt.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
        dt.items.add(new File([new Uint8Array(64)], "clip.mp4", { type: "video/mp4" }));
        return dt;
      }, image);
      const zone = page.getByRole("group", { name: "Drop files to upload" });
      await zone.dispatchEvent("dragover", { dataTransfer: dropped });
      await zone.dispatchEvent("drop", { dataTransfer: dropped });
      const uploads = page.getByRole("list", { name: "Uploads" });
      await uploads.getByRole("listitem").filter({ hasText: "dropped.png" }).getByText("Uploaded").waitFor();
      // A trial plan has no video: the upload is refused before a byte is sent, in words.
      const refused = uploads.getByRole("listitem").filter({ hasText: "clip.mp4" });
      await refused.getByText(/plan/i).waitFor();
      await shoot(page, "upload-refused-phone");
      const list = await callJson("GET", "/v1/images", { token: user.jwt, app: d.rig.o.app });
      expect(list.body.data.items.map((i: { filename: string }) => i.filename)).toEqual(["dropped.png"]);
      await clean(page, [/status of 403/]);
    },
    SLOW,
  );

  test(
    "usable by keyboard alone: sign in, reach the upload screen, reach the file picker",
    async () => {
      const user = await d.rig.o.makeUser();
      const page = await open(DESKTOP);
      await page.goto(`${d.origin}/`);
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      /** Presses Tab until `name` (an accessible name) has focus; fails if it never does. */
      const tabTo = async (target: ReturnType<Page["getByRole"]>) => {
        for (let i = 0; i < 12; i++) {
          await page.keyboard.press("Tab");
          if (await target.evaluate((el) => el === document.activeElement)) return;
        }
        throw new Error(`Tab never reached ${target}`);
      };
      await tabTo(page.getByRole("textbox", { name: "Email" }));
      await page.keyboard.type(user.email);
      await page.keyboard.press("Tab");
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Library" }).waitFor();
      await tabTo(page.getByRole("link", { name: "Upload", exact: true }));
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Upload" }).waitFor();
      await tabTo(page.getByLabel("Choose files"));
      await clean(page);
    },
    SLOW,
  );

  test(
    "opening an image shows its facts and URL; its name, visibility and tags are changed and it is deleted",
    async () => {
      const user = await d.rig.o.makeUser();
      const bytes = await png(50, 40);
      const keep = await uploaded(user.jwt, bytes, { filename: "keep.png" });
      const image = await uploaded(user.jwt, bytes, { filename: "holiday.png" });
      const page = await open(PHONE);
      await signIn(page, user.email);
      await page.getByText("2 items").waitFor();
      await page.getByRole("button", { name: "holiday.png" }).click();
      const dialog = page.getByRole("dialog", { name: "holiday.png" });
      await dialog.waitFor();
      await expect(dialog.getByLabel("URL", { exact: true }).inputValue()).resolves.toBe(image.url);
      await expect(dialog.textContent()).resolves.toContain("50 × 40");
      await dialog.getByRole("button", { name: "Copy URL" }).click();
      await dialog
        .getByRole("status")
        .getByText(/URL copied|Select the URL/)
        .waitFor();
      await shoot(page, "image-dialog-phone");
      await dialog.getByLabel("Name", { exact: true }).fill("beach.png");
      await dialog.getByLabel("Tags").fill("summer, sea");
      await dialog.getByLabel(/^Public/).uncheck();
      await dialog.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("button", { name: "beach.png" }).waitFor();
      await expect(dialog.count()).resolves.toBe(0);
      const got = await callJson("GET", `/v1/images/${image.id}`, { token: user.jwt, app: d.rig.o.app });
      expect(got.body.data).toMatchObject({ filename: "beach.png", is_public: false, tags: ["summer", "sea"] });

      await page.getByRole("button", { name: "beach.png" }).click();
      page.once("dialog", (d) => d.accept());
      await page.getByRole("dialog", { name: "beach.png" }).getByRole("button", { name: "Delete image" }).click();
      await page.getByText("1 item", { exact: true }).waitFor();
      await expect(page.getByRole("button", { name: "beach.png" }).count()).resolves.toBe(0);
      expect((await callJson("GET", `/v1/images/${image.id}`, { token: user.jwt, app: d.rig.o.app })).status).toBe(404);
      expect((await callJson("GET", `/v1/images/${keep.id}`, { token: user.jwt, app: d.rig.o.app })).status).toBe(200);
      await clean(page);
    },
    SLOW,
  );

  test(
    "the tag filter lists only the images with that tag, and an empty filter lists them all again",
    async () => {
      const user = await d.rig.o.makeUser();
      const bytes = await png(20, 20);
      await uploaded(user.jwt, bytes, { filename: "sea.png", tags: '["sea"]' });
      await uploaded(user.jwt, bytes, { filename: "hill.png", tags: '["hill"]' });
      const page = await open(PHONE);
      await signIn(page, user.email);
      const grid = page.getByRole("list", { name: "Library items" });
      await grid.getByRole("img", { name: "hill.png" }).waitFor();
      await page.getByRole("searchbox", { name: "Filter by tag" }).fill("sea");
      await page.getByRole("button", { name: "Filter", exact: true }).click();
      await grid.getByRole("img", { name: "sea.png" }).waitFor();
      await expect(grid.getByRole("listitem").count()).resolves.toBe(1);
      await page.getByRole("searchbox", { name: "Filter by tag" }).fill("nothing");
      await page.getByRole("button", { name: "Filter", exact: true }).click();
      await page.getByText("No items tagged “nothing”.").waitFor();
      await page.getByRole("searchbox", { name: "Filter by tag" }).fill("");
      await page.getByRole("button", { name: "Filter", exact: true }).click();
      await grid.getByRole("img", { name: "hill.png" }).waitFor();
      await expect(grid.getByRole("listitem").count()).resolves.toBe(2);
      await shoot(page, "library-filter-phone");
      await clean(page);
    },
    SLOW,
  );

  test(
    "the library pages by cursor: a full page first, the rest behind Show more",
    async () => {
      const user = await d.rig.o.makeUser();
      const bytes = await png(20, 20);
      // The newest is private: the page fetches it with the token (the edge refuses it otherwise).
      for (let i = 0; i < 26; i++) await uploaded(user.jwt, bytes, { filename: `p${String(i).padStart(2, "0")}.png`, is_public: i === 25 ? "false" : "true" });
      const page = await open(PHONE);
      await signIn(page, user.email);
      const grid = page.getByRole("list", { name: "Library items" });
      const secret = grid.getByRole("img", { name: "p25.png" });
      await secret.waitFor();
      await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await secret.elementHandle());
      expect(await secret.getAttribute("src")).toStartWith("blob:");
      expect(await grid.getByRole("listitem").count()).toBe(24);
      await expect(grid.getByRole("img", { name: "p00.png" }).count()).resolves.toBe(0);
      await page.getByRole("button", { name: "Show more" }).click();
      await grid.getByRole("img", { name: "p00.png" }).waitFor();
      expect(await grid.getByRole("listitem").count()).toBe(26);
      await expect(page.getByRole("button", { name: "Show more" }).isHidden()).resolves.toBe(true);
      await shoot(page, "library-paged-phone");
      await clean(page);
    },
    SLOW,
  );
});
