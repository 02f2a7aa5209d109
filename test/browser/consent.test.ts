// The consent page of the authorization code flow in a real browser: the app sends the
// person to /oauth/authorize, they sign in, see the app and approve or deny, and the
// browser lands on the app's redirect URI (a server of the test's own on loopback) with a
// code the app redeems with its PKCE verifier, or with access_denied. The redirect after
// the form is one browsers hold to the page's CSP form-action: this is where it is seen.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { PASSWORD } from "../helpers/factories.ts";
import { authorizeQuery, pkce, registerClient } from "../oauth/authorize-steps.ts";
import { browserRig, findChromium, SLOW } from "./chromium.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

describe.skipIf(!executable)("the consent page in Chromium", () => {
  let rig: Awaited<ReturnType<typeof browserRig>>;
  let o: (typeof rig)["o"];
  /** The app's own server: its redirect URI answers with a page of its own. */
  let app: ReturnType<typeof Bun.serve>;
  let redirectUri: string;
  let clientId: string;

  beforeAll(async () => {
    rig = await browserRig(executable!);
    o = rig.o;
    app = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => new Response("<h1 id=app>back in the app</h1>", { headers: { "content-type": "text/html" } }),
    });
    redirectUri = `http://127.0.0.1:${app.port}/callback`;
    clientId = await registerClient(o, { client_name: "Notes App", redirect_uris: [redirectUri], scope: "kb.read media.read" });
  }, SLOW);

  afterAll(async () => {
    void app?.stop(true);
    await rig?.close();
  }, SLOW);

  /** Opens the app's authorization request and signs in: the consent form is shown. */
  async function toConsent(page: Page) {
    const p = pkce();
    const query = authorizeQuery(p.challenge, { client_id: clientId, redirect_uri: redirectUri, scope: "kb.read", state: "st-123" });
    await page.goto(`${o.deps.config.PUBLIC_URL}/oauth/authorize?${new URLSearchParams(query)}`);
    await page.fill("#email", (await o.makeUser()).email);
    await page.fill("#password", PASSWORD);
    await page.click("#sign-in button[type=submit]");
    await page.locator("#decision").waitFor();
    return p.verifier;
  }

  /** Where the browser landed at the app, once it has. */
  async function landed(page: Page): Promise<URL> {
    await page.waitForURL((u) => u.href.startsWith(redirectUri));
    await page.locator("#app").waitFor();
    return new URL(page.url());
  }

  test(
    "sign in, see the app and what it asks for, approve: the browser returns to the app with a code it redeems with its verifier",
    async () => {
      const page = await rig.open();
      const verifier = await toConsent(page);
      await expect(page.locator("#client-name").textContent()).resolves.toBe("Notes App");
      await page.locator("#unverified").waitFor();
      expect(await page.locator("ul.scopes li").allTextContents()).toEqual(["Read your knowledge bases and documents"]);
      expect(await rig.noHorizontalScroll(page)).toBe(true);
      await page.click("#approve");
      const back = await landed(page);
      expect(back.searchParams.get("state")).toBe("st-123");
      expect(back.searchParams.get("iss")).toBe(o.deps.config.PUBLIC_URL);
      const tokens = await o.post("/oauth/token", {
        grant_type: "authorization_code",
        client_id: clientId,
        code: back.searchParams.get("code")!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      });
      expect(tokens.status).toBe(200);
      expect(tokens.body.scope).toBe("kb.read");
      expect((await o.api("GET", "/v1/kbs", tokens.body.access_token)).status).toBe(200);
      await page.context().close();
    },
    SLOW,
  );

  test(
    "deny: the browser returns to the app with access_denied and the state",
    async () => {
      const page = await rig.open();
      await toConsent(page);
      await page.click("#deny");
      const back = await landed(page);
      expect(back.searchParams.get("error")).toBe("access_denied");
      expect(back.searchParams.get("state")).toBe("st-123");
      expect(back.searchParams.get("code")).toBeNull();
      await page.context().close();
    },
    SLOW,
  );

  test("no page asked the browser for anything its policy refused", () => {
    expect(rig.complaints.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });
});
