// Two-factor authentication in the dashboard, in Chromium: the Account screen's card enrols
// an authenticator (codes from the otpauth library's generator at the app's clock), shows
// the recovery codes once, the sign-in asks for the code in a second step (a wrong one
// refused in words, a recovery code also accepted), and the card turns it off.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { callJson } from "../helpers/context.ts";
import { PASSWORD } from "../helpers/factories.ts";
import { totpOf } from "../../src/modules/identity/two-factor.ts";
import { findChromium, SLOW } from "./chromium.ts";
import { DESKTOP, dashboardHarness } from "./dashboard.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("two-factor authentication in the dashboard", () => {
  const d = dashboardHarness(executable, "two-factor");

  test(
    "enrol with a code, keep the recovery codes, sign in with a code and with a recovery code, turn it off",
    async () => {
      const o = d.rig.o;
      const codeNow = (secret: string) => totpOf(secret, "x").generate({ timestamp: o.deps.clock.nowMs() });
      const user = await o.makeUser();
      const page = await d.open(DESKTOP);
      await d.signIn(page, user.email);
      await d.go(page, "Account");

      const card = page.getByRole("region", { name: "Two-factor authentication" });
      await card.getByRole("button", { name: "Set up two-factor authentication" }).click();
      const secret = (await card.locator("#totp-secret").textContent())!.trim();
      expect(await card.locator("#totp-url").textContent()).toStartWith("otpauth://totp/");
      await card.getByRole("img", { name: "QR code of the authenticator link" }).waitFor();
      expect(await card.getByRole("img", { name: "QR code of the authenticator link" }).evaluate((i: HTMLImageElement) => i.naturalWidth > 0)).toBe(true);
      await card.getByLabel("Code from the app").fill(codeNow(secret));
      await card.getByRole("button", { name: "Turn on" }).click();
      const list = card.getByRole("list", { name: "Recovery codes" });
      await list.waitFor();
      const codes = (await list.getByRole("listitem").allTextContents()).map((c) => c.trim());
      expect(codes).toHaveLength(10);
      await card.getByRole("link", { name: "Download" }).waitFor();
      await card.getByRole("button", { name: "I saved them" }).click();
      await card.getByText("10 recovery codes left").waitFor();
      expect((await callJson("GET", "/v1/user/me", { app: o.app, token: user.jwt })).body.data.twoFactor).toEqual({ totp: true, recoveryCodesLeft: 10 });

      // The sign-in asks for the code after the password.
      await d.signOut(page);
      o.clock.advance(30_000);
      await page.getByLabel("Email").fill(user.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByLabel("Authentication code").fill("000000");
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByRole("alert").getByText("Wrong code").waitFor();
      await page.getByLabel("Authentication code").fill(codeNow(secret));
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByRole("heading", { name: "Library" }).waitFor();

      // A recovery code instead.
      await d.signOut(page);
      await page.getByLabel("Email").fill(user.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByLabel("Or a recovery code").fill(codes[0]!);
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByRole("heading", { name: "Library" }).waitFor();

      await d.go(page, "Account");
      await card.getByText("9 recovery codes left").waitFor();
      await card.getByLabel("Your password, to turn it off").fill(PASSWORD);
      await card.getByRole("button", { name: "Turn off" }).click();
      await card.getByRole("status").getByText("Two-factor authentication is off.").waitFor();
      await card.getByRole("button", { name: "Set up two-factor authentication" }).waitFor();
      await d.clean(page, [/status of 401/]);
    },
    SLOW,
  );
});
