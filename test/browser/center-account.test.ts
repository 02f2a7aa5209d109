// The dashboard's account screens in Chromium (account, API keys, authorized apps, usage,
// notifications), driven by the names of their controls as a person does. Each journey
// asserts what the person sees and what the API then holds; the pages must log no error
// and fetch nothing off their origin. Screenshots (phone and desktop) go to a temporary
// folder, their paths printed.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { dayKey, monthKey } from "../../src/infra/clock.ts";
import { addBandwidthBatch } from "../../src/modules/usage/public.ts";
import { outbox } from "../../src/modules/notifications/table.ts";
import { and, eq } from "drizzle-orm";
import { call, callJson } from "../helpers/context.ts";
import { makeUser, PASSWORD } from "../helpers/factories.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness, PHONE } from "./dashboard.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { exportWorker, readZip } from "../backup/fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("the dashboard's account screens in Chromium", () => {
  const d = dashboardHarness(executable, "center-account");
  const { open, shootBoth, clean, signIn } = d;
  const api = <T = any>(method: string, path: string, token: string, json?: unknown) => callJson<T>(method, path, { app: d.rig.o.app, token, json });
  /** A credential's use on another node (the suite's shared app): what every node does. */
  const elsewhere = (path: string, token: string) => callJson("GET", path, { token });

  /** Opens a screen from the header (its nav, the account's menu, or on a phone the Menu), as a person does. */
  const go = d.go;

  test(
    "account: the nickname, password, version history and notification choices are each saved, confirmed, and held by the API",
    async () => {
      const user = await d.rig.o.makeUser();
      const page = await open(PHONE);
      await signIn(page, user.email);
      await go(page, "Account");

      await page.getByLabel("Nickname").fill("Juniper");
      await page.getByRole("button", { name: "Save nickname" }).click();
      await page.getByRole("status").getByText("Nickname saved.").waitFor();
      // The header greets the person by it at once (on a phone, in the menu).
      await page.getByRole("banner").getByRole("button", { name: "Menu", exact: true }).click();
      await page.getByRole("banner").getByRole("list", { name: "Your account" }).getByText("Juniper").waitFor();
      await page.keyboard.press("Escape");
      expect((await api("GET", "/v1/user/me", user.jwt)).body.data.nickname).toBe("Juniper");

      // The API's refusal, in its words: the current password is asked again.
      await page.getByLabel("Current password").fill("not the password");
      await page.getByLabel("New password").fill("a new password 2");
      await page.getByRole("button", { name: "Change password" }).click();
      await page.getByRole("alert").getByText("The current password is wrong").waitFor();
      await page.getByLabel("Current password").fill(PASSWORD);
      await page.getByRole("button", { name: "Change password" }).click();
      await page.getByRole("status").getByText("Password changed.").waitFor();
      // The change is told to the account, and the header counts it.
      await page.getByRole("link", { name: "Notifications, 1 unread" }).waitFor();
      await expect(page.getByLabel("New password").inputValue()).resolves.toBe("");
      const login = (password: string) => callJson("POST", "/v1/auth/login", { app: d.rig.o.app, json: { email: user.email, password } });
      expect((await login(PASSWORD)).status).toBe(401);
      const signedIn = await login("a new password 2");
      expect(signedIn.status).toBe(200);
      const token: string = signedIn.body.data.accessToken;

      await page.getByLabel("Keep earlier versions of documents").check();
      await page.getByLabel("Versions kept per document").fill("0");
      await page.getByRole("button", { name: "Save version history" }).click();
      await page
        .getByRole("alert")
        .getByText(/docVersioningMax|must be/i)
        .waitFor();
      await page.getByLabel("Versions kept per document").fill("30");
      await page.getByRole("button", { name: "Save version history" }).click();
      await page.getByRole("status").getByText("Version history saved.").waitFor();

      // A mandatory e-mail is shown on and cannot be switched.
      const mandatory = page.getByRole("checkbox", { name: "E-mail: A quota is used up" });
      await expect(mandatory.isChecked()).resolves.toBe(true);
      await expect(mandatory.isDisabled()).resolves.toBe(true);
      await page.getByRole("checkbox", { name: "E-mail: An API key was created" }).check();
      await page.getByRole("checkbox", { name: "In the app: A video is ready" }).uncheck();
      await page.getByRole("button", { name: "Save notification choices" }).click();
      await page.getByRole("status").getByText("Notification choices saved.").waitFor();
      await shootBoth(page, "account");

      const me = (await api("GET", "/v1/user/me", token)).body.data;
      expect(me).toMatchObject({ nickname: "Juniper", docVersioningEnabled: true, docVersioningMax: 30 });
      expect(me.notifications.api_key_created).toEqual({ email: true, inApp: true, emailMandatory: false });
      expect(me.notifications.video_ready).toEqual({ email: false, inApp: false, emailMandatory: false });
      expect(me.notifications.quota_100.email).toBe(true);

      // A reload shows what was saved.
      await page.reload();
      await page.getByRole("heading", { name: "Account", level: 1 }).waitFor();
      await expect(page.getByLabel("Nickname").inputValue()).resolves.toBe("Juniper");
      await expect(page.getByLabel("Versions kept per document").inputValue()).resolves.toBe("30");
      await expect(page.getByRole("checkbox", { name: "In the app: A video is ready" }).isChecked()).resolves.toBe(false);
      await clean(page, [/status of 401/, /status of 422/]);
    },
    SLOW,
  );

  test(
    "forgotten password: the sign-in screen leads to the reset form, the mailed link sets a new password, and the person signs in with it",
    async () => {
      const user = await d.rig.o.makeUser();
      const page = await open(PHONE);
      await page.goto(`${d.origin}/#/signin`);
      await page.getByRole("link", { name: "Forgot your password?" }).click();
      await page.getByRole("heading", { name: "Reset your password" }).waitFor();
      await page.getByLabel("Email").fill(user.email);
      await page.getByRole("button", { name: "Send the link" }).click();
      await page.getByRole("status").getByText("If an account has this address, a link is on its way.").waitFor();
      await shootBoth(page, "password-forgot");

      // The link the e-mail holds, read from the mail waiting in the outbox once it is written.
      const { deps } = d.rig.o;
      await d.rig.o.services.identity.settled();
      const [mail] = await deps.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.userId, user.id), eq(outbox.kind, "password_reset")));
      const link = (mail!.payload as { link: string }).link;
      expect(link.startsWith(`${deps.config.CENTER_URL}/#/reset-password?token=`)).toBe(true);
      await page.goto(link);
      await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
      await page.getByLabel("New password", { exact: true }).fill("a brand new password 5");
      await page.getByRole("button", { name: "Set the new password" }).click();
      await page.getByRole("status").getByText("Your password is set.").waitFor();
      await shootBoth(page, "password-reset");
      // Every session of the account ended: the one the factory opened too.
      expect((await api("GET", "/v1/user/me", user.jwt)).status).toBe(401);

      await page.getByRole("link", { name: "Sign in" }).first().click();
      await signIn(page, user.email, "a brand new password 5");
      await clean(page, [/status of 401/]);
    },
    SLOW,
  );

  test(
    "signed-in devices: the account lists where it is signed in, signs one device out, then all others, and the API refuses them",
    async () => {
      const user = await d.rig.o.makeUser();
      const signInAs = async (userAgent: string) => {
        const res = await callJson("POST", "/v1/auth/login", {
          app: d.rig.o.app,
          json: { email: user.email, password: PASSWORD },
          headers: { "user-agent": userAgent },
        });
        return res.body.data.accessToken as string;
      };
      const phone = await signInAs(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      );
      const laptop = await signInAs("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0");
      const page = await open(DESKTOP);
      await signIn(page, user.email);
      await go(page, "Account");
      const devices = page.getByRole("list", { name: "Signed-in devices" });
      await devices.getByRole("heading", { name: "Safari 17 on iOS" }).waitFor();
      await devices.getByRole("heading", { name: "Firefox 133 on Linux" }).waitFor();
      await devices.getByText("This device").waitFor();
      await shootBoth(page, "account-devices");

      page.once("dialog", (dialog) => dialog.accept());
      await devices.getByRole("button", { name: /^Sign out Safari 17 on iOS/ }).click();
      await devices.getByRole("heading", { name: "Safari 17 on iOS" }).waitFor({ state: "detached" });
      expect((await api("GET", "/v1/user/me", phone)).status).toBe(401);
      expect((await api("GET", "/v1/user/me", laptop)).status).toBe(200);

      // Every device listed but this one: the laptop, and the sessions the test's factories opened.
      const others = (await devices.getByRole("listitem").count()) - 1;
      page.once("dialog", (dialog) => dialog.accept());
      await page.getByRole("button", { name: "Sign out all other devices" }).click();
      await page.getByRole("status").getByText(`${others} devices signed out.`).waitFor();
      await devices.getByRole("heading", { name: "Firefox 133 on Linux" }).waitFor({ state: "detached" });
      expect((await api("GET", "/v1/user/me", laptop)).status).toBe(401);
      expect(await devices.getByRole("listitem").count()).toBe(1);
      await clean(page);
    },
    SLOW,
  );

  test(
    "exports: one is started from the account screen, followed while a worker writes it, then downloaded by its link; deleted, it is gone",
    async () => {
      const user = await d.rig.o.makeUser();
      await uploaded(user.jwt, await png(), { filename: "holiday.png" });
      const page = await open(PHONE);
      await signIn(page, user.email);
      await go(page, "Account");
      await page.getByText("No export yet.").waitFor();
      await page.getByRole("button", { name: "Export everything" }).click();
      const exports = page.getByRole("list", { name: "Your exports" });
      await exports.getByText("Waiting for a worker").waitFor();
      const [queued] = (await api("GET", "/v1/backup", user.jwt)).body.data.items;
      expect(queued).toMatchObject({ state: "queued", kinds: ["images", "videos", "audio", "documents", "kbs"] });

      // A worker of this app's parts writes it; the screen follows it to its end.
      const worker = await exportWorker({ deps: d.rig.o.deps });
      for (let i = 0; i < 50 && (await api("GET", `/v1/backup/${queued.id}`, user.jwt)).body.data.state !== "ready"; i++) await worker.step();
      const ready = (await api("GET", `/v1/backup/${queued.id}`, user.jwt)).body.data;
      expect(ready.state).toBe("ready");
      const link = exports.getByRole("link", { name: `Download ${ready.filename}` });
      await link.waitFor();
      await exports.getByText(/^Ready: /).waitFor();
      await shootBoth(page, "exports");
      const href = await link.getAttribute("href");
      expect(href).toBe(ready.downloadUrl);
      const u = new URL(href!);
      const zip = await call("GET", `${u.pathname}${u.search}`, { app: d.rig.o.app });
      expect(zip.status).toBe(200);
      expect((await readZip(new Uint8Array(await zip.arrayBuffer()))).map((m) => m.name)).toContain("manifest.json");

      await exports.getByRole("button", { name: "Delete" }).click();
      await page.getByText("No export yet.").waitFor();
      expect((await api("GET", "/v1/backup", user.jwt)).body.data.items).toEqual([]);
      await clean(page);
    },
    SLOW,
  );

  test(
    "API keys: one is made with chosen scopes, shown once with Copy, authenticates; revoked after a confirmation it is refused",
    async () => {
      const user = await d.rig.o.makeUser();
      const page = await open(DESKTOP);
      await signIn(page, user.email);
      await go(page, "API keys");
      await page.getByText("No API keys yet.").waitFor();
      await page.getByLabel("Key name").fill("backup script");
      await page.getByRole("checkbox", { name: "kb.write" }).uncheck();
      await page.getByRole("checkbox", { name: "media.delete" }).check();
      await page.getByRole("button", { name: "Create key" }).click();

      const panel = page.getByRole("region", { name: "Your new key “backup script”" });
      await panel.waitFor();
      const key = await panel.getByLabel("API key").inputValue();
      expect(key).toMatch(/^sk_live_[A-Za-z0-9_-]{32}$/);
      await panel.getByText("it will not be shown again").waitFor();
      await panel.getByRole("button", { name: "Copy key" }).click();
      await panel
        .getByRole("status")
        .getByText(/Key copied|Select the key/)
        .waitFor();
      const keys = page.getByRole("list", { name: "API keys" });
      const item = keys.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "backup script" }) });
      await item.getByText(`sk_live_…${key.slice(-4)}`).waitFor();
      // The key's creation is told: the header's count shows it.
      await page.getByRole("link", { name: "Notifications, 1 unread" }).waitFor();
      await shootBoth(page, "key-created");

      // The key works, with the scopes chosen.
      expect((await elsewhere("/v1/images", key)).status).toBe(200);
      const listed = (await api("GET", "/v1/api-keys", user.jwt)).body.data.items;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ name: "backup script", last4: key.slice(-4) });
      expect(listed[0].scopes.sort()).toEqual(["account.read", "kb.read", "media.delete", "media.read", "media.write", "usage.read"]);

      // Once closed (or the page reloaded) the full key is gone for good.
      await panel.getByRole("button", { name: "Done" }).click();
      await expect(panel.count()).resolves.toBe(0);
      await page.reload();
      await item.waitFor();
      expect(await page.content()).not.toContain(key);

      // Dismissing the confirmation keeps the key; accepting it revokes the key.
      page.once("dialog", (d) => d.dismiss());
      await item.getByRole("button", { name: "Revoke backup script" }).click();
      await expect(item.count()).resolves.toBe(1);
      expect((await elsewhere("/v1/images", key)).status).toBe(200);
      page.once("dialog", (d) => d.accept());
      await item.getByRole("button", { name: "Revoke backup script" }).click();
      await page.getByText("No API keys yet.").waitFor();
      const refused = await elsewhere("/v1/images", key);
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe("API_KEY_REVOKED");
      await shootBoth(page, "keys-empty");
      await clean(page);
    },
    SLOW,
  );

  test(
    "authorized apps: a device's grant is listed with its scopes and, revoked, its token is refused",
    async () => {
      const user = await d.rig.o.makeUser();
      const tokens = await d.rig.o.tokensFor(user, "shelf-sync");
      expect((await elsewhere("/v1/images", tokens.access_token)).status).toBe(200);
      const page = await open(PHONE);
      await signIn(page, user.email);
      await go(page, "Authorized apps");
      const apps = page.getByRole("list", { name: "Authorized apps" });
      const item = apps.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Shelf Sync" }) });
      await item.waitFor();
      const scopes = item.getByRole("list", { name: "Scopes of Shelf Sync" });
      await expect(scopes.getByRole("listitem").allTextContents()).resolves.toEqual(tokens.scope.split(" "));
      await shootBoth(page, "apps");
      // A first-party app is not flagged; an app no administrator has reviewed is.
      await expect(item.getByRole("note").count()).resolves.toBe(0);
      const registered = await callJson("POST", "/oauth/register", {
        app: d.rig.o.app,
        json: { client_name: "Photo Tidy", grant_types: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"] },
      });
      expect(registered.status).toBe(201);
      await d.rig.o.tokensFor(user, registered.body.client_id);
      await page.reload();
      const unverified = apps.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Photo Tidy" }) });
      await expect(unverified.getByRole("note").textContent()).resolves.toContain("Unverified app");
      page.once("dialog", (d) => d.accept());
      await unverified.getByRole("button", { name: "Revoke Photo Tidy" }).click();
      await unverified.waitFor({ state: "detached" });

      page.once("dialog", (d) => d.accept());
      await item.getByRole("button", { name: "Revoke Shelf Sync" }).click();
      await page.getByText("No apps or devices are signed in to your account.").waitFor();
      const refused = await elsewhere("/v1/images", tokens.access_token);
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe("OAUTH_BEARER_INVALID");
      expect((await api("GET", "/v1/user/me/oauth-grants", user.jwt)).body.data.items).toEqual([]);
      await clean(page);
    },
    SLOW,
  );

  test(
    "usage: each quota is a meter with the API's numbers after an upload; the month's bandwidth is charted per day; degraded playback is explained",
    async () => {
      const user = await makeUser({ plan: "pro" });
      const image = await uploaded(user.jwt, await png(64, 48), { filename: "counted.png" });
      // Video and audio served past the plan's monthly limit: playback is degraded.
      const limit = d.rig.o.deps.plans.pro.mediaBandwidthBytes;
      const [month, day] = [monthKey(d.rig.o.clock.now()), dayKey(d.rig.o.clock.now())];
      await addBandwidthBatch(d.rig.o.deps.db, [
        { ownerId: user.id, month, day, dimension: "media_bandwidth", bytes: Math.ceil(limit * 1.1) },
        { ownerId: user.id, month, day, dimension: "image_bandwidth", bytes: Math.round(3.2 * 1024 ** 2) },
      ]);
      const usage = (await api("GET", "/v1/user/me/usage", user.jwt)).body.data;
      expect(usage.image.storage.used).toBeGreaterThanOrEqual(image.size);
      expect(usage.video.status).toBe("degraded");

      const page = await open(DESKTOP);
      await signIn(page, user.email);
      await go(page, "Usage");
      await page.getByRole("heading", { name: "Plan: Pro" }).waitFor();
      const storage = page.getByRole("meter", { name: "Image storage" });
      await expect(storage.getAttribute("value")).resolves.toBe(String(usage.image.storage.used));
      await expect(storage.getAttribute("max")).resolves.toBe(String(usage.image.storage.limit));
      const described = page.locator(`#${await storage.getAttribute("aria-describedby")}`);
      // In the plans' units (a GB of 1024 MB): the pro plan's 100 GB, not 107.4.
      expect(usage.image.storage.limit).toBe(100 * 1024 ** 3);
      await expect(described.textContent()).resolves.toBe(`${usage.image.storage.used} bytes of 100 GB`);
      const video = page.getByRole("meter", { name: "Video and audio bandwidth this month" });
      await expect(video.getAttribute("max")).resolves.toBe(String(limit));
      await page.getByRole("heading", { name: "Video playback: reduced to 360p" }).waitFor();
      await page.getByText(/new viewings start at 360p/).waitFor();
      // The chart of bandwidth per day is drawn (uPlot, loaded with the screen), with a legend
      // of its two series, and says the busiest day's bytes in words: today's (1100 GB is 1.1 TB).
      const chart = page.getByRole("img", { name: /^Busiest day: [^,]+, 1\.1 TB \(images 3\.2 MB, video and audio 1\.1 TB\)/ });
      await chart.locator("canvas").waitFor();
      await chart.getByText("Video and audio", { exact: true }).waitFor();
      // The legend has a value for each series: with no day pointed at, the month's so far.
      const legend = (series: string) => page.locator(".u-legend .u-series", { hasText: series }).locator(".u-value");
      await expect(legend("Images").textContent()).resolves.toBe("3.2 MB");
      await expect(legend("Video and audio").textContent()).resolves.toBe("1.1 TB");
      await expect(legend("Day").textContent()).resolves.toMatch(/^\w+ so far$/);
      await page.getByText(/^Busiest day: [^,]+, 1\.1 TB/).waitFor();
      await shootBoth(page, "usage");
      await clean(page);
    },
    SLOW,
  );

  test(
    "notifications: the header counts the unread; the list pages by Show more; marking one and all read moves the API's count",
    async () => {
      const user = await d.rig.o.makeUser();
      // Each key made and revoked through the API tells the account twice (api_key_created,
      // api_key_revoked): 22, two more than a page.
      for (let i = 0; i < 11; i++) {
        const made = await api("POST", "/v1/api-keys", user.jwt, { name: `key ${i}` });
        expect(made.status).toBe(201);
        expect((await call("DELETE", `/v1/api-keys/${made.body.data.id}`, { app: d.rig.o.app, token: user.jwt })).status).toBe(204);
      }
      const unread = async () => (await api("GET", "/v1/notifications/unread-count", user.jwt)).body.data.unreadCount;
      expect(await unread()).toBe(22);

      const page = await open(PHONE);
      await signIn(page, user.email);
      await page.getByRole("link", { name: "Notifications, 22 unread" }).click();
      await page.getByRole("heading", { name: "Notifications", level: 1 }).waitFor();
      const list = page.getByRole("list", { name: "Notifications" });
      // A page of 20 first (the list is drawn when the API answers: wait for it, then count).
      await list.getByRole("listitem").nth(19).waitFor();
      await page.getByRole("button", { name: "Show more" }).waitFor();
      await expect(list.getByRole("listitem").count()).resolves.toBe(20);
      await page.getByRole("button", { name: "Show more" }).click();
      await list.getByRole("listitem").nth(21).waitFor();
      await expect(list.getByRole("listitem").count()).resolves.toBe(22);
      await expect(page.getByRole("button", { name: "Show more" }).isHidden()).resolves.toBe(true);

      const first = list.getByRole("listitem").first();
      const title = (await first.getByRole("heading").textContent())!.replace(/^Unread: /, "");
      await first.getByRole("button", { name: `Mark read: ${title}` }).click();
      await page.getByRole("link", { name: "Notifications, 21 unread" }).waitFor();
      expect(await unread()).toBe(21);
      await expect(first.getByRole("button").count()).resolves.toBe(0);
      await shootBoth(page, "notifications");

      await page.getByRole("button", { name: "Mark all read" }).click();
      await page.getByRole("link", { name: "Notifications", exact: true }).waitFor();
      expect(await unread()).toBe(0);
      await expect(list.getByRole("button", { name: /^Mark read/ }).count()).resolves.toBe(0);
      await page.getByText("All read", { exact: true }).waitFor();
      await clean(page);
    },
    SLOW,
  );

  test(
    "usable by keyboard alone: reach API keys, make a key, copy it, then reach the notifications",
    async () => {
      const user = await d.rig.o.makeUser();
      const page = await open(DESKTOP);
      await signIn(page, user.email);
      /** Presses Tab (or Shift+Tab) until `target` has focus; fails if it never does. */
      const tabTo = async (target: ReturnType<Page["getByRole"]>, key = "Tab") => {
        for (let i = 0; i < 30; i++) {
          await page.keyboard.press(key);
          if (await target.evaluate((el) => el === document.activeElement)) return;
        }
        throw new Error(`${key} never reached ${target}`);
      };
      // The account's screens are in the menu under its name: Enter opens it, Tab goes in.
      await tabTo(page.getByRole("button", { name: /^Account menu/ }));
      await page.keyboard.press("Enter");
      await tabTo(page.getByRole("link", { name: "API keys", exact: true }));
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "API keys", level: 1 }).waitFor();
      await tabTo(page.getByRole("textbox", { name: "Key name" }));
      await page.keyboard.type("typed by keys");
      // Space toggles a scope's checkbox.
      await tabTo(page.getByRole("checkbox", { name: "media.delete" }));
      await page.keyboard.press("Space");
      await tabTo(page.getByRole("button", { name: "Create key" }));
      await page.keyboard.press("Enter");
      // The new key's field has focus: the next stop is its Copy button.
      const panel = page.getByRole("region", { name: "Your new key “typed by keys”" });
      await panel.waitFor();
      await expect(panel.getByLabel("API key").evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      await panel
        .getByRole("status")
        .getByText(/Key copied|Select the key/)
        .waitFor();
      const keys = (await api("GET", "/v1/api-keys", user.jwt)).body.data.items;
      expect(keys.map((k: { name: string; scopes: string[] }) => [k.name, k.scopes.includes("media.delete")])).toEqual([["typed by keys", true]]);
      await tabTo(page.getByRole("link", { name: "Notifications, 1 unread" }), "Shift+Tab");
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Notifications", level: 1 }).waitFor();
      await tabTo(page.getByRole("button", { name: "Mark all read" }));
      await page.keyboard.press("Enter");
      await page.getByText("All read", { exact: true }).waitFor();
      await clean(page);
    },
    SLOW,
  );
});
