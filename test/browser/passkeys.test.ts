// Passkeys in the dashboard, in Chromium with a virtual authenticator (CDP's WebAuthn
// domain: CTAP2, internal, resident keys, user verification): the Account screen's card adds
// one (its recovery codes shown once), lists, renames and removes it; the sign-in page signs
// in with the passkey alone, and after the password the second step takes the passkey.
// The test server is plain HTTP at http://shelf.test: the browser is told to treat that
// origin as secure, as an https address is, since WebAuthn needs a secure context.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { callJson } from "../helpers/context.ts";
import { PASSWORD } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { authorizeQuery, pkce } from "../oauth/authorize-steps.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness } from "./dashboard.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

/** A platform authenticator that holds discoverable credentials and verifies its user. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}

describe.skipIf(!executable)("passkeys in the dashboard", () => {
  const d = dashboardHarness(executable, "passkeys", undefined, undefined, { args: ["--unsafely-treat-insecure-origin-as-secure=http://shelf.test"] });

  test(
    "add a passkey on Account, sign out, sign in with it alone, then as the second step after the password; rename and remove it",
    async () => {
      const o = d.rig.o;
      const user = await o.makeUser();
      const page = await d.open(DESKTOP);
      const authenticator = await virtualAuthenticator(page);
      await d.signIn(page, user.email);
      await d.go(page, "Account");

      const card = page.getByRole("region", { name: "Passkeys" });
      await card.getByText("No passkeys yet.").waitFor();
      await card.getByLabel("Name of the new passkey").fill("Work laptop");
      await card.getByRole("button", { name: "Add a passkey" }).click();
      const codes = card.getByRole("list", { name: "Recovery codes" });
      await codes.waitFor();
      expect(await codes.getByRole("listitem").count()).toBe(10);
      await card.getByRole("heading", { name: "Work laptop" }).waitFor();
      await card.scrollIntoViewIfNeeded();
      await d.shoot(page, "account-passkeys-card");
      await card.getByRole("button", { name: "I saved them" }).click();
      expect(await authenticator.credentials()).toHaveLength(1);
      const listed = await callJson("GET", "/v1/user/me/passkeys", { app: o.app, token: user.jwt });
      expect(listed.body.data.items.map((p: { name: string }) => p.name)).toEqual(["Work laptop"]);

      // A passkey alone signs in.
      await d.signOut(page);
      await page.getByRole("button", { name: "Sign in with a passkey" }).waitFor();
      await d.shootBoth(page, "sign-in");
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.getByRole("heading", { name: "Library" }).waitFor();

      // After the password, the second step takes the passkey.
      await d.signOut(page);
      await page.getByLabel("Email").fill(user.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("button", { name: "Use a passkey" }).waitFor();
      await d.shoot(page, "second-step");
      expect(await page.getByLabel("Authentication code").count()).toBe(0);
      await page.getByRole("button", { name: "Use a passkey" }).click();
      await page.getByRole("heading", { name: "Library" }).waitFor();

      // The device page signs in with the passkey alone; the consent page asks for it after the password.
      await d.signOut(page);
      await page.goto(`${d.origin}/device`);
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.locator("#code-form").waitFor();
      await d.shoot(page, "device-page-signed-in");
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.locator("#sign-in").waitFor();
      const query = authorizeQuery(pkce().challenge, { redirect_uri: "http://127.0.0.1:43817/oauth/callback" });
      await page.goto(`${d.origin}/oauth/authorize?${new URLSearchParams(query)}`);
      await page.getByLabel("Email").fill(user.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("button", { name: "Use a passkey" }).waitFor();
      await d.shoot(page, "consent-page-second-step");
      await page.getByRole("button", { name: "Use a passkey" }).click();
      await page.locator("#decision").waitFor();
      // This browser's dashboard signed out before: it signs in again with the passkey.
      await page.goto(`${d.origin}/`);
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.getByRole("heading", { name: "Library" }).waitFor();

      // Rename, then remove with the password: the password alone signs in again.
      await d.go(page, "Account");
      await card.getByRole("button", { name: "Rename passkey Work laptop" }).click();
      await card.getByLabel("New name").fill("Old laptop");
      await card.getByRole("button", { name: "Save name" }).click();
      await card.getByRole("heading", { name: "Old laptop" }).waitFor();
      await card.getByRole("button", { name: "Remove passkey Old laptop" }).click();
      await card.getByLabel("Your password, to remove it").fill(PASSWORD);
      await card.getByRole("button", { name: "Remove passkey", exact: true }).click();
      await card.getByText("No passkeys yet.").waitFor();
      const after = await callJson("POST", "/v1/auth/login", {
        app: o.app,
        json: { email: user.email, password: PASSWORD },
        headers: { "x-forwarded-for": o.ip() },
      });
      expect(after.status).toBe(200);
      await d.clean(page, [/status of 401/]);
    },
    SLOW,
  );
});
