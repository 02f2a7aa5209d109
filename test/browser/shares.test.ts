// Share links in Chromium: each page opened anonymously at phone width (a fresh profile, no
// session), a private image shown and a note rendered with scripts off, a private video
// playing in the player and a private audio file loading its metadata, all through the
// link's own URLs; the video's page framed by a site on another origin (oEmbed's <iframe>)
// plays there too; the password form as a person uses it. Screenshots of each.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { callJson } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { PNG, storedFile, upsertFile } from "../kbs/file-fixtures.ts";
import { newKb } from "../kbs/fixtures.ts";
import { pushed2 } from "../kbs/v2-fixtures.ts";
import { markdownDoc, privateImage, shared } from "../shares/fixtures.ts";
import { storedVideo } from "../videos/playback-fixtures.ts";
import { axeViolations } from "./axe.ts";
import { findChromium } from "./chromium.ts";
import { DESKTOP, dashboardHarness, PHONE } from "./dashboard.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("share links in Chromium", () => {
  const d = dashboardHarness(executable, "shares");
  const { open, shoot, clean, signIn, go, show } = d;
  let owner: Awaited<ReturnType<typeof makeUser>>;
  let framing: ReturnType<typeof Bun.serve>;

  beforeAll(async () => {
    owner = await makeUser({ plan: "pro" });
    // Another site: a page that frames what it is given, as an oEmbed consumer does.
    framing = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => {
        const src = new URL(req.url).searchParams.get("src") ?? "";
        return new Response(
          `<!doctype html><title>another site</title><iframe src="${src.replaceAll('"', "&quot;")}" width="360" height="300" title="shared"></iframe>`,
          {
            headers: { "content-type": "text/html" },
          },
        );
      },
    });
  });
  afterAll(() => {
    void framing?.stop(true);
  });

  test("a private image with scripts off, at phone width: shown through the link, no horizontal scroll, axe finds nothing", async () => {
    const image = await privateImage(owner.jwt);
    const s = await shared(owner.jwt, { target: { kind: "image", id: image.id } });
    const page = await d.rig.open(PHONE);
    await page.goto(s.url);
    const img = page.getByRole("img", { name: "secret.png" });
    await img.waitFor();
    await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0), undefined, { polling: 100 });
    expect(await d.rig.noHorizontalScroll(page)).toBe(true);
    await shoot(page, "image-phone");
    await page.context().close();
    // The same page as a browser with scripts on sees it (its own CSP runs none): axe finds nothing.
    const scripted = await open(PHONE);
    await scripted.goto(s.url);
    await scripted.getByRole("img", { name: "secret.png" }).waitFor();
    expect(await axeViolations(scripted)).toEqual([]);
    await clean(scripted);
  });

  test("a note with scripts off: rendered (a heading, a task list, a callout), at phone width", async () => {
    const doc = await callJson("POST", "/v1/docs", {
      token: owner.jwt,
      json: { filename: "trip.md", content: "# Trip\n\n- [x] train\n- [ ] hotel\n\n> [!tip] Pack light\n> one bag\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n" },
    });
    const s = await shared(owner.jwt, { target: { kind: "document", id: doc.body.data.id } });
    const page = await d.rig.open(PHONE);
    await page.goto(s.url);
    await page.getByRole("heading", { name: "Trip", level: 1 }).waitFor();
    expect(await page.getByRole("checkbox").count()).toBe(2);
    expect(await d.rig.noHorizontalScroll(page)).toBe(true);
    await shoot(page, "note-phone");
    await page.context().close();
  });

  test("a private video plays in the player at phone width; framed by another origin it plays too", async () => {
    const v = await storedVideo(owner.id, { isPublic: false });
    const s = await shared(owner.jwt, { target: { kind: "video", id: v.id } });
    const page = await open(PHONE);
    await page.goto(s.url);
    const video = page.locator("video");
    await video.waitFor();
    await page.waitForFunction(() => (document.querySelector("video")?.readyState ?? 0) >= 2);
    expect(await video.getAttribute("data-manifest")).toBe("parsed");
    expect(await d.rig.noHorizontalScroll(page)).toBe(true);
    await shoot(page, "video-phone");
    await clean(page);

    const framed = await d.rig.open(PHONE, { javaScript: true });
    await framed.goto(`http://127.0.0.1:${framing.port}/?src=${encodeURIComponent(s.url)}`);
    const frame = framed.frameLocator("iframe");
    await frame.locator("video").waitFor();
    const inner = framed.frames().find((f) => f.url().startsWith(s.url))!;
    await inner.waitForFunction(() => (document.querySelector("video")?.readyState ?? 0) >= 2);
    await shoot(framed, "video-framed-phone");
    await framed.context().close();
  });

  test("a private audio file: its player loads the file's metadata through the link, with scripts off", async () => {
    const up = await uploadAudio(owner.jwt, await fixture("mp3-cover"), "song.mp3", { isPublic: "false" });
    const s = await shared(owner.jwt, { target: { kind: "audio", id: up.body.data.id } });
    const page = await d.rig.open(PHONE);
    await page.goto(s.url);
    await page.waitForFunction(
      () => {
        const a = document.querySelector("audio");
        return !!a && a.readyState >= 1 && a.duration > 0;
      },
      undefined,
      { polling: 100 },
    );
    await shoot(page, "audio-phone");
    await page.context().close();
  });

  test("the password form: a wrong password says so and shows nothing; the right one shows the picture", async () => {
    const image = await privateImage(owner.jwt);
    const s = await shared(owner.jwt, { target: { kind: "image", id: image.id }, password: "open sesame" });
    const page = await d.rig.open(PHONE);
    await page.goto(s.url);
    await page.getByLabel("Password").fill("guess");
    await page.getByRole("button", { name: "Open" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("img", { name: "secret.png" }).count()).toBe(0);
    await shoot(page, "password-wrong-phone");
    await page.getByLabel("Password").fill("open sesame");
    await page.getByRole("button", { name: "Open" }).click();
    await page.getByRole("img", { name: "secret.png" }).waitFor();
    await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0), undefined, { polling: 100 });
    await shoot(page, "password-open-phone");
    await page.context().close();
  });

  test("the dashboard: Share in an item's dialog makes a link with a password to copy; the Share links screen lists it with its views and revokes it, and its page closes", async () => {
    const user = await makeUser({ plan: "pro" });
    await privateImage(user.jwt);
    const page = await open(DESKTOP);
    await signIn(page, user.email);
    await page.getByRole("button", { name: "secret.png", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "secret.png" });
    const form = dialog.getByRole("form", { name: "Share link" });
    await form.getByLabel("Password (optional)").fill("open sesame");
    await form.getByRole("button", { name: "Create share link" }).click();
    const link = form.getByLabel("Share link", { exact: true });
    await link.waitFor();
    const url = await link.inputValue();
    expect(url).toMatch(/\/s\/[\w-]{32}$/);
    await form.getByRole("button", { name: "Copy share link" }).waitFor();
    await shoot(page, "dashboard-share-dialog");

    // Opened anonymously: the form, then the picture.
    const visitor = await d.rig.open(PHONE);
    await visitor.goto(url);
    await visitor.getByLabel("Password").fill("open sesame");
    await visitor.getByRole("button", { name: "Open" }).click();
    await visitor.getByRole("img", { name: "secret.png" }).waitFor();
    await visitor.context().close();

    await dialog.getByRole("button", { name: "Close" }).click();
    await go(page, "Share links");
    const list = page.getByRole("list", { name: "Share links" });
    const row = list.getByRole("listitem").filter({ hasText: url });
    await row.getByText(/1 view · password/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, "dashboard-shares");
    page.once("dialog", (c) => c.accept());
    await row.getByRole("button", { name: /^Revoke the link to Image / }).click();
    await row.getByText("Revoked", { exact: true }).waitFor();
    const after = await d.rig.open(PHONE);
    const gone = await after.goto(url);
    expect(gone?.status()).toBe(410);
    await after.context().close();
    // Chromium logs the closed link's 410 as a failed load.
    await clean(page, [/status of 410/]);
  });

  test("the dashboard: a KB folder's share link, made under its listing, opens a gallery of its pictures and its notes at phone width", async () => {
    const user = await makeUser({ plan: "pro" });
    const kb = await newKb(user.jwt);
    await storedFile(user.jwt, kb.id, PNG, "beach.png");
    await pushed2(user.jwt, kb.id, [upsertFile("trips/beach.png", PNG)]);
    await markdownDoc(user.jwt, "# Rome\n\n- [x] tickets\n", { kbId: kb.id, relativePath: "trips/rome.md" });
    const page = await open(DESKTOP);
    await signIn(page, user.email);
    await show(page, `#/kbs/${kb.id}/trips`);
    await page.getByText("Share this folder").click();
    const form = page.getByRole("form", { name: "Share link" });
    await form.getByRole("button", { name: "Create share link" }).click();
    const link = form.getByLabel("Share link", { exact: true });
    await link.waitFor();
    const url = await link.inputValue();
    await clean(page);

    const visitor = await d.rig.open(PHONE);
    await visitor.goto(url);
    await visitor.getByRole("img", { name: "beach.png" }).waitFor();
    await visitor.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0), undefined, { polling: 100 });
    expect(await d.rig.noHorizontalScroll(visitor)).toBe(true);
    await shoot(visitor, "kb-folder-phone");
    await visitor.getByRole("link", { name: "rome.md" }).click();
    await visitor.getByRole("heading", { name: "Rome", level: 1 }).waitFor();
    await visitor.context().close();
  });
});
