// Signing in through an OpenID provider from the dashboard, in Chromium, against a real
// provider (oidc-provider) on a loopback port: the sign-in screen's button, the provider's
// own login and consent forms, back to the library signed in; the Account screen lists the
// linked identity, and its unlink is refused while it is the account's only way in.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { authorizeQuery, pkce } from "../oauth/authorize-steps.ts";
import { oidcConfig, oidcProvider, personAt } from "../oidc/flow.ts";
import { findChromium } from "./chromium.ts";
import { DESKTOP, dashboardHarness } from "./dashboard.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();
const provider = await oidcProvider();

describe.skipIf(!executable)("signing in through an OpenID provider in the dashboard", () => {
  const d = dashboardHarness(executable, "oidc", undefined, oidcConfig(provider));

  test("the button reads Sign in with <name>, the provider's forms lead back to the library, and the account lists the provider", async () => {
    // An instance with an account already: its start is the sign-in screen, not the owner's sign-up.
    await d.rig.o.makeUser();
    const person = personAt(provider);
    const page = await d.open(DESKTOP);
    await page.goto(`${d.origin}/`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    const button = page.getByRole("link", { name: "Sign in with Testprovider" });
    await button.waitFor();
    await d.shootBoth(page, "sign-in-with-provider");
    await button.click();
    // The provider's own pages: its login form, then its consent.
    await page.locator('input[name="login"]').fill(person.sub);
    await page.locator('input[name="password"]').fill("any");
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
    await page.getByRole("heading", { name: "Library" }).waitFor();
    expect(new URL(page.url()).hash).toBe("#/library");

    await d.go(page, "Account");
    const card = page.getByRole("region", { name: "Sign-in providers" });
    await card.getByRole("heading", { name: person.email }).waitFor();
    await d.shootBoth(page, "account-providers");
    page.once("dialog", (dialog) => void dialog.accept());
    await card.getByRole("button", { name: `Unlink ${person.email} at ${new URL(provider.issuer).host}` }).click();
    await card
      .getByRole("alert")
      .getByText(/only way to sign in/)
      .waitFor();
    await d.shoot(page, "unlink-refused");
    // No password yet: the Password card offers the link that sets one, instead of asking for the current one.
    const password = page.getByRole("region", { name: "Password" });
    await password.getByRole("button", { name: "Mail me a link to choose one" }).click();
    await password.getByRole("status").getByText(`A link is on its way to ${person.email}`).waitFor();

    // The provider is elsewhere by design; its page's font from the internet is not ours to load.
    d.offOrigin.splice(0, d.offOrigin.length, ...d.offOrigin.filter((u) => !u.startsWith(provider.issuer) && !u.startsWith("https://fonts.")));
    await d.clean(page, [/Failed to load resource/, /fonts\.googleapis/, /409/]);
  });

  test("the consent page offers the provider, and its sign-in comes back to the same request, signed in", async () => {
    const person = personAt(provider);
    const page = await d.open(DESKTOP);
    const query = authorizeQuery(pkce().challenge, { redirect_uri: "http://127.0.0.1:43817/oauth/callback", state: "st-oidc" });
    await page.goto(`${d.rig.o.deps.config.PUBLIC_URL}/oauth/authorize?${new URLSearchParams(query)}`);
    const button = page.getByRole("link", { name: "Sign in with Testprovider" });
    await button.waitFor();
    await d.shootBoth(page, "consent-sign-in-with-provider");
    await button.click();
    await page.locator('input[name="login"]').fill(person.sub);
    await page.locator('input[name="password"]').fill("any");
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
    await page.getByRole("button", { name: "Approve" }).waitFor();
    expect(new URL(page.url()).searchParams.get("state")).toBe("st-oidc");
    await page.getByText(person.email).waitFor();
    await d.shoot(page, "consent-after-provider");
    d.offOrigin.splice(0, d.offOrigin.length, ...d.offOrigin.filter((u) => !u.startsWith(provider.issuer) && !u.startsWith("https://fonts.")));
    await d.clean(page, [/Failed to load resource/, /fonts\.googleapis/]);
  });
});
