// The device page in a real browser (RFC 8628 section 3.3): a person signs in, types the
// code their device shows, and approves or denies, while the device polls. Each step waits
// on the page itself (its elements), never on time.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { PASSWORD } from "../helpers/factories.ts";
import { browserRig, findChromium, SLOW } from "./chromium.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("the device page in Chromium", () => {
  let rig: Awaited<ReturnType<typeof browserRig>>;
  let o: (typeof rig)["o"];
  const open = (viewport?: { width: number; height: number }) => rig.open(viewport);
  const noHorizontalScroll = (page: Page) => rig.noHorizontalScroll(page);

  beforeAll(async () => {
    rig = await browserRig(executable!);
    o = rig.o;
  }, SLOW);

  afterAll(() => rig?.close(), SLOW);

  async function signIn(page: Page, url: string) {
    const user = await o.makeUser();
    await page.goto(url);
    await page.fill("#email", user.email);
    await page.fill("#password", PASSWORD);
    await page.click("#sign-in button[type=submit]");
    await page.locator("#code-form").waitFor();
    return user;
  }

  const start = async (clientId = "shelf-sync") => {
    const res = await o.start(clientId);
    expect(res.status).toBe(200);
    return res.body as { user_code: string; device_code: string; verification_uri: string; verification_uri_complete: string };
  };

  /**
   * The text of `selector` on the page a form post answered with. Whatever page that is (an
   * error, the sign-in form) ends the wait, and one without `selector` fails with its text,
   * so a failure says what the browser was shown.
   */
  async function shown(page: Page, selector: string): Promise<string> {
    await page.locator(`${selector}, .error, #sign-in`).first().waitFor();
    if ((await page.locator(selector).count()) === 0)
      throw new Error(`no ${selector} at ${page.url()}: ${((await page.locator("body").textContent()) ?? "").replace(/\s+/g, " ").slice(0, 500)}`);
    return (await page.locator(selector).textContent()) ?? "";
  }

  /** Types the code as a person does (lower case, a space for the dash) and continues to the review. */
  async function enter(page: Page, userCode: string) {
    await page.fill("#user_code", userCode.toLowerCase().replace("-", " "));
    await page.click("#code-form button[type=submit]");
  }

  test(
    "sign in, type the code in lower case with spaces, approve: the polling device gets its tokens",
    async () => {
      const device = await start();
      expect((await o.poll(device.device_code)).body.error).toBe("authorization_pending");
      const page = await open();
      const user = await signIn(page, device.verification_uri);
      await enter(page, device.user_code);
      expect(await shown(page, "#client-name")).toBe("Shelf Sync");
      expect(await page.locator("ul.scopes li").allTextContents()).toContain("Read your knowledge bases and documents");
      await page.click("#approve");
      expect(await shown(page, "#outcome")).toContain("Return to your device");
      o.clock.advance(5_000);
      const tokens = await o.poll(device.device_code);
      expect(tokens.status).toBe(200);
      expect(tokens.body.access_token).toMatch(/^oat_/);
      const grants = await o.api("GET", "/v1/user/me/oauth-grants", user.jwt);
      expect(grants.body.data.items).toHaveLength(1);
      await page.context().close();
    },
    SLOW,
  );

  test(
    "deny: the page says so and the device gets access_denied",
    async () => {
      const device = await start();
      const page = await open();
      await signIn(page, device.verification_uri);
      await enter(page, device.user_code);
      await page.click("#deny");
      expect(await shown(page, "#outcome")).toContain("was not given access");
      expect((await o.poll(device.device_code)).body.error).toBe("access_denied");
      await page.context().close();
    },
    SLOW,
  );

  test(
    "a wrong code shows an error on the page and the form again",
    async () => {
      const page = await open();
      await signIn(page, `${o.deps.config.PUBLIC_URL}/device`);
      await enter(page, "ZZZZ-ZZZZ");
      // Should the error box never come, the failure shows the page that came instead.
      const error = await page
        .locator(".error")
        .textContent({ timeout: 20_000 })
        .catch(async () => `no error box on ${page.url()}: ${(await page.content()).slice(0, 3000)}`);
      expect(error).toContain("No such code");
      await expect(page.locator("#user_code").inputValue()).resolves.toBe("zzzz zzzz");
      await page.context().close();
    },
    SLOW,
  );

  test(
    "verification_uri_complete fills the code in after the sign-in",
    async () => {
      const device = await start();
      const page = await open();
      await signIn(page, device.verification_uri_complete);
      await expect(page.locator("#user_code").inputValue()).resolves.toBe(device.user_code);
      await page.click("#code-form button[type=submit]");
      await page.click("#approve");
      await page.locator("#outcome").waitFor();
      o.clock.advance(5_000);
      expect((await o.poll(device.device_code)).status).toBe(200);
      await page.context().close();
    },
    SLOW,
  );

  test(
    "on a 390x844 phone every step fits the width (no horizontal scrolling), a long unbroken app name too, and the stylesheet is applied",
    async () => {
      const reg = await o.call("POST", "/oauth/register", {
        app: o.app,
        json: { client_name: `Sync${"W".repeat(96)}`, grant_types: ["urn:ietf:params:oauth:grant-type:device_code"], scope: "media.read" },
        headers: { "x-forwarded-for": o.ip() },
      });
      expect(reg.status).toBe(201);
      const device = await start(((await reg.json()) as { client_id: string }).client_id);
      const page = await open({ width: 390, height: 844 });
      await page.goto(device.verification_uri);
      expect(await noHorizontalScroll(page)).toBe(true);
      // The CSP lets the page's own stylesheet in (by its hash): the layout is styled.
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(244, 244, 246)");
      await page.fill("#email", (await o.makeUser()).email);
      await page.fill("#password", PASSWORD);
      await page.click("#sign-in button[type=submit]");
      await page.locator("#code-form").waitFor();
      expect(await noHorizontalScroll(page)).toBe(true);
      await enter(page, device.user_code);
      await page.locator("#unverified").waitFor();
      expect(await noHorizontalScroll(page)).toBe(true);
      const approve = await page.locator("#approve").boundingBox();
      expect(approve!.x + approve!.width).toBeLessThanOrEqual(390);
      await page.context().close();
    },
    SLOW,
  );

  test("no page asked the browser for anything its policy refused", () => {
    expect(rig.complaints.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });
});
