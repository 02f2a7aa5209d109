// The dashboard's library in Chromium, for every kind: images, videos (processing, failed
// with its reason, ready and played with hls.js from a chunk fetched only then, a private one
// through its signed URL), audio (cover, artist, a player that plays) and documents (read in
// the dialog, found by the words of their text); filters by kind and tag, "Show more" over merged
// listings, changes in the dialog and a batch delete. Each journey asserts what the person
// sees and what the API then holds; the page logs no error and fetches nothing off origin.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { callJson } from "../helpers/context.ts";
import { makeUser, PASSWORD, type TestUser } from "../helpers/factories.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { pushed2, upsert2 } from "../kbs/v2-fixtures.ts";
import { clip, drain, insertVideo, testWorker, uploadVideo } from "../videos/fixtures.ts";
import { axeViolations } from "./axe.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness, PHONE } from "./dashboard.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("the dashboard's library in Chromium", () => {
  const d = dashboardHarness(executable, "center-library");
  const { open, shoot, clean, signIn, requested } = d;

  /**
   * A pro user (videos need the plan): `jwt` for the shared app the fixtures upload through,
   * `rigJwt` signed in on the rig's app (its own clock) for what the test asks it.
   */
  async function proUser(): Promise<TestUser & { rigJwt: string }> {
    const user = await makeUser({ plan: "pro" });
    const login = await callJson("POST", "/v1/auth/login", { app: d.rig.o.app, json: { email: user.email, password: PASSWORD } });
    expect(login.status).toBe(200);
    return { ...user, rigJwt: login.body.data.accessToken as string };
  }
  type User = Awaited<ReturnType<typeof proUser>>;

  const api = (user: User, method: string, path: string, body?: unknown) => callJson(method, path, { token: user.rigJwt, app: d.rig.o.app, json: body });

  /** A ready video made the way an upload is: the local provider (real ffmpeg) through the worker. */
  async function readyVideo(user: User, fields: Record<string, string>) {
    const up = await uploadVideo(user.jwt, await clip({ seconds: 2 }), fields);
    expect(up.status).toBe(201);
    await drain(await testWorker());
    const v = (await api(user, "GET", `/v1/videos/${up.body.data.id}`)).body.data;
    expect(v.status).toBe("ready");
    return v as { id: string; title: string; playback_url: string };
  }

  const doc = async (user: User, filename: string, content: string, extra: Record<string, unknown> = {}) => {
    const res = await api(user, "POST", "/v1/docs", { filename, content, ...extra });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; title: string };
  };

  /** Waits until the media element has played past its start. */
  const playing = (page: Page, selector: string) =>
    page.waitForFunction((sel) => {
      const el = document.querySelector(sel) as HTMLMediaElement | null;
      return !!el && el.currentTime > 0;
    }, selector);

  test(
    "every kind is listed; the kind filter narrows it; a ready video plays with hls.js, fetched only when Play is pressed",
    async () => {
      const user = await proUser();
      await uploaded(user.jwt, await png(40, 30), { filename: "photo.png", tags: '["trip"]' });
      const video = await readyVideo(user, { title: "Beach clip", tags: '["trip"]' });
      await insertVideo(user.id, { title: "Still encoding" });
      await insertVideo(user.id, { title: "Broken upload", status: "failed", failureReason: "could not be read as a video", failedAt: new Date() });
      expect((await uploadAudio(user.jwt, await fixture("mp3-cover"), "song.mp3")).status).toBe(201);
      await doc(user, "notes.md", "# Meeting notes\n\nWe met.");

      const page = await open(DESKTOP);
      await signIn(page, user.email);
      const all = page.getByRole("list", { name: "Library items" });
      for (const name of ["photo.png", "Beach clip", "Still encoding", "Broken upload", "Song", "Meeting notes"]) {
        await all.getByRole("button", { name, exact: true }).waitFor();
      }
      await expect(all.getByRole("listitem").count()).resolves.toBe(6);
      await all.getByRole("listitem").filter({ hasText: "Broken upload" }).getByText("Failed").first().waitFor();
      await all
        .getByRole("listitem")
        .filter({ hasText: "Still encoding" })
        .getByText(/Processing/)
        .first()
        .waitFor();
      expect(await d.rig.noHorizontalScroll(page)).toBe(true);
      await shoot(page, "library-all-desktop");

      await page.getByRole("radio", { name: "Videos" }).check();
      const videos = page.getByRole("list", { name: "Videos" });
      await videos.getByRole("button", { name: "Beach clip", exact: true }).waitFor();
      await expect(videos.getByRole("listitem").count()).resolves.toBe(3);

      // The failed one says why.
      await videos.getByRole("button", { name: "Broken upload", exact: true }).click();
      const failed = page.getByRole("dialog", { name: "Broken upload" });
      await failed.getByText("Failed: could not be read as a video").waitFor();
      await failed.getByRole("button", { name: "Close" }).click();

      await videos.getByRole("button", { name: "Beach clip", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Beach clip" });
      await dialog.getByText(/Ready · 0:02/).waitFor();
      await expect(dialog.getByLabel("URL", { exact: true }).inputValue()).resolves.toBe(video.playback_url);
      // hls.js is a chunk of its own: fetched when Play is pressed, not before.
      const chunks = () => requested.filter((u) => /\/_center\/chunk\.[\w-]+\.js$/.test(u));
      const before = chunks();
      const isHls = async (url: string) => (await (await d.rig.o.app.handle(new Request(url))).text()).includes("hlsjs");
      for (const u of before) expect(await isHls(u)).toBe(false);
      await dialog.getByRole("button", { name: "Play Beach clip" }).click();
      await playing(page, "dialog video");
      const fetchedNow = chunks().filter((u) => !before.includes(u));
      expect(fetchedNow.length).toBeGreaterThan(0);
      expect((await Promise.all(fetchedNow.map(isHls))).some(Boolean)).toBe(true);
      await expect(page.locator("dialog video").getAttribute("data-manifest")).resolves.toBe("parsed");
      await shoot(page, "video-playing-desktop");
      await dialog.getByRole("button", { name: "Close" }).click();

      await page.setViewportSize(PHONE);
      await page.getByRole("radio", { name: "All" }).check();
      await all.getByRole("button", { name: "Song", exact: true }).waitFor();
      expect(await d.rig.noHorizontalScroll(page)).toBe(true);
      await shoot(page, "library-all-phone");
      await clean(page);
    },
    SLOW,
  );

  test(
    "a private video plays through its signed URL; a video's title, visibility and tags are changed in its dialog",
    async () => {
      const user = await proUser();
      const video = await readyVideo(user, { title: "Private clip", isPublic: "false" });
      const page = await open(PHONE);
      await signIn(page, user.email);
      await page.getByRole("button", { name: "Private clip", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Private clip" });
      await dialog.getByRole("button", { name: "Play Private clip" }).click();
      await playing(page, "dialog video");
      // Every playlist and segment went through the signature, a path segment.
      const played = requested.filter((u) => u.includes(`/v/${video.id}/`) && !u.endsWith(".jpg"));
      expect(played.length).toBeGreaterThan(2);
      for (const u of played) expect(u).toMatch(new RegExp(`/v/${video.id}/s\\.\\d+\\.[\\w-]+/`));
      await shoot(page, "video-private-phone");

      await dialog.getByLabel("Title", { exact: true }).fill("Renamed clip");
      await dialog.getByLabel("Tags").fill("holiday, sea");
      await dialog.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("button", { name: "Renamed clip", exact: true }).waitFor();
      expect((await api(user, "GET", `/v1/videos/${video.id}`)).body.data).toMatchObject({ title: "Renamed clip", isPublic: false, tags: ["holiday", "sea"] });
      // The tag filter finds it (the videos' own listing filters by tag).
      await page.getByRole("searchbox", { name: "Filter by tag" }).fill("sea");
      await page.getByRole("button", { name: "Filter", exact: true }).click();
      const list = page.getByRole("list", { name: "Library items" });
      await list.getByRole("button", { name: "Renamed clip" }).waitFor();
      await expect(list.getByRole("listitem").count()).resolves.toBe(1);
      // Made public: its URL is the playlist anyone may play.
      await list.getByRole("button", { name: "Renamed clip" }).click();
      const again = page.getByRole("dialog", { name: "Renamed clip" });
      await again.getByLabel(/^Public/).check();
      await again.getByRole("button", { name: "Save changes" }).click();
      await list.getByText(/Video · Ready · 0:02 · public/).waitFor();
      expect((await api(user, "GET", `/v1/videos/${video.id}`)).body.data.isPublic).toBe(true);
      await clean(page);
    },
    SLOW,
  );

  test(
    "a ready video's captions are added from an SRT file in its dialog, listed by their language's name, refused in words when the file is not captions, and removed",
    async () => {
      const user = await proUser();
      const video = await readyVideo(user, { title: "Captioned clip" });
      const page = await open(DESKTOP);
      await signIn(page, user.email);
      await page.getByRole("button", { name: "Captioned clip", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Captioned clip" });
      const panel = dialog.getByRole("region", { name: "Captions" });
      await panel.getByText("No captions yet.").waitFor();
      const srt = "1\n00:00:00,200 --> 00:00:01,500\nBonjour\n";
      await panel.getByLabel("Language").fill("fr");
      await panel.getByLabel("Caption file (WebVTT or SRT)").setInputFiles({ name: "clip.fr.srt", mimeType: "application/x-subrip", buffer: Buffer.from(srt) });
      await panel.getByRole("button", { name: "Add captions" }).click();
      await panel.getByText("French captions added; the player shows them the next time it starts.").waitFor();
      const tracks = panel.getByRole("list", { name: "Caption tracks" });
      await expect(tracks.getByRole("listitem").allTextContents()).resolves.toEqual(["FrenchfrRemove"]);
      expect((await api(user, "GET", `/v1/videos/${video.id}/captions`)).body.data.items).toMatchObject([{ language: "fr", label: "French" }]);

      await panel.getByLabel("Language").fill("de");
      await panel
        .getByLabel("Caption file (WebVTT or SRT)")
        .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("just some notes\n") });
      await panel.getByRole("button", { name: "Add captions" }).click();
      await panel
        .getByRole("alert")
        .getByText(/neither valid WebVTT nor SRT/)
        .waitFor();
      await shoot(page, "video-captions-desktop");
      await expect(axeViolations(page)).resolves.toEqual([]);

      await tracks.getByRole("button", { name: "Remove French captions" }).click();
      await panel.getByText("No captions yet.").waitFor();
      expect((await api(user, "GET", `/v1/videos/${video.id}/captions`)).body.data.items).toEqual([]);
      await clean(page, [/status of 422/]);
    },
    SLOW,
  );

  test(
    "audio shows its cover, title and artist and plays; a private file too",
    async () => {
      const user = await proUser();
      const up = await uploadAudio(user.jwt, await fixture("mp3-cover"), "song.mp3", { isPublic: "false" });
      expect(up.status).toBe(201);
      const page = await open(PHONE);
      await signIn(page, user.email);
      await page.getByRole("radio", { name: "Audio" }).check();
      const list = page.getByRole("list", { name: "Audio" });
      await list.getByRole("listitem").filter({ hasText: "Song" }).getByText("♪ 0:02").waitFor();
      await list.getByRole("button", { name: "Song", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Song" });
      await dialog.getByText("Someone").first().waitFor();
      const cover = dialog.getByRole("img", { name: "Cover of Song" });
      await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await cover.elementHandle());
      const audio = page.locator("dialog audio");
      await page.waitForFunction(() => (document.querySelector("dialog audio") as HTMLAudioElement | null)?.src.startsWith("blob:"));
      // Muted, so the browser's autoplay rule does not stand in the way of a test's play().
      await audio.evaluate((el: HTMLAudioElement) => {
        el.muted = true;
        return el.play();
      });
      await playing(page, "dialog audio");
      await shoot(page, "audio-dialog-phone");
      await clean(page);
    },
    SLOW,
  );

  test(
    "a page of the last view that arrives after the view changed is not listed under the new one",
    async () => {
      const user = await proUser();
      expect((await uploadAudio(user.jwt, await fixture("mp3"), "late.mp3")).status).toBe(201);
      const page = await open(DESKTOP);
      // The "All" view's media listing (the first one asked for) is held until the Audio view has listed its own.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let first: string | undefined;
      await page.route("**/v1/media?*", async (route) => {
        if (first === undefined) {
          first = route.request().url();
          await held;
        }
        await route.continue();
      });
      await signIn(page, user.email);
      await page.getByRole("radio", { name: "Audio" }).check();
      const list = page.getByRole("list", { name: "Audio" });
      await list.getByRole("listitem").first().waitFor();
      const delivered = page.waitForEvent("requestfinished", (r) => r.url() === first);
      release();
      await delivered;
      // What the page does with that answer runs before its next frames.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      expect(await list.getByRole("listitem").count()).toBe(1);
      await clean(page);
    },
    SLOW,
  );

  test(
    "documents are found by their words and read in the dialog; the search is of documents only",
    async () => {
      const user = await proUser();
      await doc(user, "plan.md", "# Garden plan\n\nTomatoes <script>alert(1)</script>");
      await doc(user, "other.md", "# Shopping list\n\nBread");
      await uploaded(user.jwt, await png(20, 20), { filename: "garden.png" });
      const page = await open(DESKTOP);
      await signIn(page, user.email);
      await page.getByRole("searchbox", { name: "Search documents" }).fill("garden");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      const docs = page.getByRole("list", { name: "Search results" });
      await docs.getByRole("button", { name: "Garden plan" }).waitFor();
      await expect(docs.getByRole("listitem").count()).resolves.toBe(1);
      await expect(page.getByRole("radio", { name: "Documents" }).isChecked()).resolves.toBe(true);
      await docs.getByRole("button", { name: "Garden plan" }).click();
      const dialog = page.getByRole("dialog", { name: "Garden plan" });
      // Rendered, its script as text; the source a click away.
      const rendered = dialog.getByRole("article", { name: "Garden plan" });
      await rendered.getByRole("heading", { name: "Garden plan" }).waitFor();
      await rendered.getByText("Tomatoes <script>alert(1)</script>").waitFor();
      await shoot(page, "document-dialog-desktop");
      await dialog.getByRole("button", { name: "Show source" }).click();
      await expect(dialog.getByLabel("Source of Garden plan").textContent()).resolves.toBe("# Garden plan\n\nTomatoes <script>alert(1)</script>");
      await dialog.getByRole("button", { name: "Close" }).click();
      await page.getByRole("searchbox", { name: "Search documents" }).fill("nothing like it");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.getByText("No document contains “nothing like it”.").waitFor();
      await clean(page);
    },
    SLOW,
  );

  test(
    "several items of different kinds are selected and deleted together, after a confirmation; the API no longer has them",
    async () => {
      const user = await proUser();
      const keep = await uploaded(user.jwt, await png(20, 20), { filename: "keep.png" });
      const image = await uploaded(user.jwt, await png(20, 20), { filename: "gone.png" });
      const video = await insertVideo(user.id, { title: "Old clip" });
      const audio = (await uploadAudio(user.jwt, await fixture("mp3"), "tone.mp3", { title: "Tone" })).body.data;
      const text = await doc(user, "draft.md", "# Draft\n\nx");
      const page = await open(PHONE);
      await signIn(page, user.email);
      const list = page.getByRole("list", { name: "Library items" });
      await list.getByRole("button", { name: "Draft", exact: true }).waitFor();
      for (const name of ["gone.png", "Old clip", "Tone", "Draft"]) await page.getByRole("checkbox", { name: `Select ${name}` }).check();
      const bar = page.getByRole("group", { name: "Selection" });
      await bar.getByText("4 selected").waitFor();
      await shoot(page, "batch-selected-phone");
      // Dismissed first: nothing is deleted.
      page.once("dialog", (d) => d.dismiss());
      await bar.getByRole("button", { name: "Delete selected" }).click();
      expect((await api(user, "GET", `/v1/audio/${audio.id}`)).status).toBe(200);
      page.once("dialog", (d) => {
        expect(d.message()).toContain("these 4 items");
        void d.accept();
      });
      await bar.getByRole("button", { name: "Delete selected" }).click();
      await page.getByText("Deleted 4 items.").waitFor();
      await expect(list.getByRole("listitem").count()).resolves.toBe(1);
      await list.getByRole("button", { name: "keep.png" }).waitFor();
      expect((await api(user, "GET", `/v1/images/${image.id}`)).status).toBe(404);
      expect((await api(user, "GET", `/v1/videos/${video.id}`)).status).toBe(404);
      expect((await api(user, "GET", `/v1/audio/${audio.id}`)).status).toBe(404);
      expect((await api(user, "GET", `/v1/docs/${text.id}`)).status).toBe(404);
      expect((await api(user, "GET", `/v1/images/${keep.id}`)).status).toBe(200);
      await clean(page);
    },
    SLOW,
  );

  test(
    "usable by keyboard: pick a kind with the arrow keys, select an item with Space, open it with Enter, close it with Escape",
    async () => {
      const user = await proUser();
      await uploaded(user.jwt, await png(20, 20), { filename: "key.png" });
      await doc(user, "keys.md", "# Keyboard notes\n\nx");
      const page = await open(DESKTOP);
      await signIn(page, user.email);
      await page.getByRole("button", { name: "Keyboard notes", exact: true }).waitFor();
      /** Presses Tab until `target` has focus; fails if it never does. */
      const tabTo = async (target: ReturnType<Page["getByRole"]>) => {
        for (let i = 0; i < 20; i++) {
          await page.keyboard.press("Tab");
          if (await target.evaluate((el) => el === document.activeElement)) return;
        }
        throw new Error(`Tab never reached ${target}`);
      };
      await tabTo(page.getByRole("radio", { name: "All" }));
      await page.keyboard.press("ArrowRight");
      await expect(page.getByRole("radio", { name: "Images" }).isChecked()).resolves.toBe(true);
      const images = page.getByRole("list", { name: "Images" });
      await images.getByRole("button", { name: "key.png" }).waitFor();
      await expect(images.getByRole("listitem").count()).resolves.toBe(1);
      await tabTo(page.getByRole("checkbox", { name: "Select key.png" }));
      await page.keyboard.press("Space");
      await page.getByRole("group", { name: "Selection" }).getByText("1 selected").waitFor();
      await page.keyboard.press("Tab");
      await expect(page.getByRole("button", { name: "key.png" }).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "key.png" });
      await dialog.waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await clean(page);
    },
    SLOW,
  );

  test(
    "the merged listing pages by cursor: a full page first, the rest behind Show more",
    async () => {
      const user = await proUser();
      for (let i = 0; i < 20; i++) await insertVideo(user.id, { title: `v${String(i).padStart(2, "0")}` });
      for (let i = 0; i < 6; i++) await doc(user, `d${i}.md`, `# d${i}\n\n${i}`);
      const page = await open(PHONE);
      await signIn(page, user.email);
      const list = page.getByRole("list", { name: "Library items" });
      await page.getByRole("button", { name: "Show more" }).waitFor();
      expect(await list.getByRole("listitem").count()).toBe(24);
      await page.getByRole("button", { name: "Show more" }).click();
      await page.waitForFunction(() => document.querySelectorAll("ul.grid > li").length === 26);
      await expect(page.getByRole("button", { name: "Show more" }).isHidden()).resolves.toBe(true);
      const titles = await list.getByRole("listitem").locator("button.name").allTextContents();
      expect(new Set(titles).size).toBe(26);
      await clean(page);
    },
    SLOW,
  );

  test(
    "the upload list follows a video from processing to ready",
    async () => {
      const user = await proUser();
      const page = await open(DESKTOP);
      await signIn(page, user.email);
      await d.go(page, "Upload");
      await page.getByLabel("Choose files").setInputFiles([{ name: "walk.mp4", mimeType: "video/mp4", buffer: Buffer.from(await clip({ seconds: 2 })) }]);
      const row = page.getByRole("list", { name: "Uploads" }).getByRole("listitem").filter({ hasText: "walk.mp4" });
      // Uploaded: the video is transcoded next, and the row says so until it is done.
      await row.getByText("Uploaded, processing").waitFor();
      const listed = (await api(user, "GET", "/v1/videos")).body.data.items as { id: string; status: string }[];
      expect(listed.map((v) => v.status)).toEqual(["processing"]);
      await shoot(page, "upload-processing-desktop");
      // The worker transcodes it (the local provider, real ffmpeg); the row follows to ready.
      await drain(await testWorker({ deps: d.rig.o.deps, deliver: (r) => d.rig.o.app.handle(r) }));
      await row.getByText("Ready · 0:02").waitFor();
      await expect(row.textContent()).resolves.not.toContain("processing");
      expect((await api(user, "GET", `/v1/videos/${listed[0]!.id}`)).body.data.status).toBe("ready");
      await shoot(page, "upload-ready-desktop");
      await clean(page);
    },
    SLOW,
  );

  test(
    "All leaves out the documents that live in a knowledge base; the box beside the kinds shows them too",
    async () => {
      const user = await proUser();
      await uploaded(user.jwt, await png(40, 30), { filename: "harbour.png" });
      await doc(user, "letter.md", "# A letter\n\nDear friend.");
      const kb = (await api(user, "POST", "/v1/kbs", { name: "Notes" })).body.data as { id: string };
      // A synced folder of thirty notes: more than a page of the grid.
      await pushed2(
        user.rigJwt,
        kb.id,
        Array.from({ length: 30 }, (_, i) => upsert2(`note-${String(i).padStart(2, "0")}.md`, `# Note ${i}\n`)),
        { app: d.rig.o.app },
      );

      const page = await open(PHONE);
      await signIn(page, user.email);
      const all = page.getByRole("list", { name: "Library items" });
      await all.getByRole("button", { name: "harbour.png", exact: true }).waitFor();
      await all.getByRole("button", { name: "A letter", exact: true }).waitFor();
      await page.getByText("2 items", { exact: true }).waitFor();
      await expect(all.getByRole("button", { name: /^Note \d+$/ }).count()).resolves.toBe(0);
      // The documents' listing was asked to leave them out.
      expect(requested.some((u) => u.includes("/v1/docs?") && u.includes("inKb=false"))).toBe(true);
      await shoot(page, "library-without-kb-phone");

      const withKb = page.getByRole("checkbox", { name: "Include documents in knowledge bases" });
      await expect(withKb.isChecked()).resolves.toBe(false);
      await withKb.check();
      // The thirty were written in one push, at one instant: which of them a page shows first is the ids' order.
      await all
        .getByRole("button", { name: /^Note \d+$/ })
        .first()
        .waitFor();
      await page.getByText("24+ items", { exact: true }).waitFor();
      await shoot(page, "library-with-kb-phone");

      // Documents alone: the same box decides.
      await page.getByRole("radio", { name: "Documents" }).check();
      const docs = page.getByRole("list", { name: "Documents" });
      await docs
        .getByRole("button", { name: /^Note \d+$/ })
        .first()
        .waitFor();
      await withKb.uncheck();
      await docs.getByRole("button", { name: "A letter", exact: true }).waitFor();
      await expect(docs.getByRole("listitem").count()).resolves.toBe(1);
      // Kinds with no documents have no such box.
      await page.getByRole("radio", { name: "Images" }).check();
      await expect(withKb.isVisible()).resolves.toBe(false);
      await clean(page);
    },
    SLOW,
  );
});
