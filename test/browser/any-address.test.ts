// The first hour's addresses and sign-in in a real browser. With PUBLIC_URL unset, the
// dashboard works at whichever address it is opened (127.0.0.1 and a name, both reaching
// one server), calling the API there; one sign-in on it serves the consent and device pages.
// With PUBLIC_URL set, the dashboard opened at another address goes to the configured one.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { addressesFromRequest } from "../helpers/context.ts";
import { PASSWORD } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { authorizeQuery, pkce, registerClient } from "../oauth/authorize-steps.ts";
import { browserRig, findChromium, SLOW } from "./chromium.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const executable = findChromium();

type Rig = Awaited<ReturnType<typeof browserRig>>;

/** Signs in on the dashboard at `base` as a person does: the Library is shown. */
async function signIn(page: Page, base: string, email: string) {
  await page.goto(`${base}/#/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("heading", { name: "Library" }).waitFor();
}

describe.skipIf(!executable)("PUBLIC_URL unset, in Chromium", () => {
  let rig: Rig;

  beforeAll(async () => {
    rig = await browserRig(executable!, (deps) => ({ config: addressesFromRequest(deps.config) }));
  }, SLOW);
  afterAll(() => rig?.close(), SLOW);

  test(
    "the dashboard signs in at 127.0.0.1 and at a name, each calling the API at its own address",
    async () => {
      const user = await rig.o.makeUser();
      for (const base of [rig.origin, "http://shelf.test"]) {
        const page = await rig.open({ width: 1280, height: 800 }, { javaScript: true });
        const elsewhere: string[] = [];
        page.on("request", (r) => {
          const u = new URL(r.url());
          if ((u.protocol === "http:" || u.protocol === "https:") && u.origin !== base) elsewhere.push(r.url());
        });
        await signIn(page, base, user.email);
        expect(page.url()).toStartWith(base);
        expect(elsewhere).toEqual([]);
        await page.context().close();
      }
    },
    SLOW,
  );

  test(
    "one sign-in: signed in on the dashboard, the consent page asks only for the decision and the device page only for the code",
    async () => {
      const o = rig.o;
      const redirectUri = "http://127.0.0.1:9/callback";
      const clientId = await registerClient(o, { client_name: "Notes App", redirect_uris: [redirectUri], scope: "kb.read" });
      const page = await rig.open({ width: 1280, height: 800 }, { javaScript: true });
      await signIn(page, rig.origin, (await o.makeUser()).email);
      const query = authorizeQuery(pkce().challenge, { client_id: clientId, redirect_uri: redirectUri, scope: "kb.read", state: "s" });
      await page.goto(`${rig.origin}/oauth/authorize?${new URLSearchParams(query)}`);
      await page.locator("#decision").waitFor();
      expect(await page.locator("#sign-in").count()).toBe(0);
      await page.goto(`${rig.origin}/device`);
      await page.locator("#code-form").waitFor();
      expect(await page.locator("#sign-in").count()).toBe(0);
      // Signing out on the dashboard signs the pages out too.
      await page.goto(`${rig.origin}/#/library`);
      await page.getByRole("heading", { name: "Library" }).waitFor();
      await page.evaluate(() => fetch("/v1/auth/logout", { method: "POST", credentials: "include" }));
      await page.goto(`${rig.origin}/device`);
      await page.locator("#sign-in").waitFor();
      await page.context().close();
    },
    SLOW,
  );
});

describe.skipIf(!executable)("PUBLIC_URL set, in Chromium", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await browserRig(executable!);
  }, SLOW);
  afterAll(() => rig?.close(), SLOW);

  test(
    "the dashboard opened at 127.0.0.1 goes to PUBLIC_URL, on the same screen",
    async () => {
      const page = await rig.open({ width: 1280, height: 800 }, { javaScript: true });
      await page.goto(`${rig.origin}/#/signin`);
      await page.waitForURL((u) => u.origin === rig.o.deps.config.CENTER_URL);
      expect(new URL(page.url()).hash).toBe("#/signin");
      await page.getByLabel("Email").waitFor();
      await page.context().close();
    },
    SLOW,
  );
});
