// Wherever a registered client's name is shown while no administrator has approved it, the
// "unverified" warning is beside it: both steps of the consent page, the device page's
// review and outcome, the dashboard's list of authorized apps (the API's unverified), and
// the notice of the grant. A first-party or approved client shows none.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { PASSWORD } from "../helpers/factories.ts";
import { authorizeQuery, formFields, pkce, registerClient } from "./authorize-steps.ts";
import { oauthApp } from "./flow.ts";
import { pageClient } from "./page-client.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
const REDIRECT = "https://notes.example/cb";
const WARNING = 'id="unverified"';

/** An administrator's session, to approve a client. */
async function approve(clientId: string) {
  const boss = await o.makeUser();
  await o.deps.db.execute(`update users set is_admin = true where id = '${boss.id}'`);
  const res = await o.call("PATCH", `/v1/admin/oauth-clients/${clientId}`, { app: o.app, token: boss.jwt, json: { status: "approved" } });
  expect(res.status).toBe(200);
}

/** The consent page for `clientId`: its sign-in step, then (signed in) its consent step. */
async function consentSteps(clientId: string, redirectUri: string) {
  const user = await o.makeUser();
  const v = pageClient(o.app, { ip: o.ip() });
  const url = `/oauth/authorize?${new URLSearchParams(authorizeQuery(pkce().challenge, { client_id: clientId, redirect_uri: redirectUri }))}`;
  const signInStep = await v.get(url);
  expect(signInStep.html).toContain('id="sign-in"');
  const signedIn = await v.post("/oauth/authorize", { ...formFields(signInStep.html, "sign-in"), email: user.email, password: PASSWORD });
  expect(signedIn.status).toBe(303);
  const next = new URL(signedIn.headers.get("location")!, "http://shelf.test/oauth/authorize");
  const consentStep = await v.get(next.pathname + next.search);
  expect(consentStep.html).toContain('id="decision"');
  return { user, signInStep: signInStep.html, consentStep: consentStep.html, v, decision: formFields(consentStep.html, "decision") };
}

/** The device page for a code of `clientId`: the review step, and the outcome of `decision`. */
async function deviceSteps(clientId: string, decision: "approve" | "deny") {
  const started = await o.start(clientId);
  expect(started.status).toBe(200);
  const user = await o.makeUser();
  const page = pageClient(o.app, { ip: o.ip() });
  expect((await page.signIn("/device", user.email, PASSWORD)).status).toBe(303);
  const review = await page.post("/device", { user_code: started.body.user_code });
  expect(review.html).toContain('id="decision"');
  const outcome = await page.post("/device", { user_code: started.body.user_code, decision });
  expect(outcome.html).toContain('id="outcome"');
  return { user, review: review.html, outcome: outcome.html, deviceCode: started.body.device_code as string };
}

describe("the consent page", () => {
  test("an unapproved client: the warning on the sign-in step and on the consent step; approved: on neither", async () => {
    const id = await registerClient(o, { client_name: "Notes App", redirect_uris: [REDIRECT] });
    const pending = await consentSteps(id, REDIRECT);
    expect(pending.signInStep).toContain('id="client-name">Notes App<');
    expect(pending.signInStep).toContain(WARNING);
    expect(pending.consentStep).toContain(WARNING);
    await approve(id);
    const approved = await consentSteps(id, REDIRECT);
    expect(approved.signInStep).toContain('id="client-name">Notes App<');
    expect(approved.signInStep).not.toContain(WARNING);
    expect(approved.consentStep).not.toContain(WARNING);
  });

  test("a first-party client: no warning on either step", async () => {
    const steps = await consentSteps("shelf-sync", "http://127.0.0.1:43817/oauth/callback");
    expect(steps.signInStep).toContain('id="client-name">Shelf Sync<');
    expect(steps.signInStep).not.toContain(WARNING);
    expect(steps.consentStep).not.toContain(WARNING);
  });
});

describe("the device page", () => {
  const registerDeviceClient = async (name: string) => {
    const res = await o.call("POST", "/oauth/register", {
      app: o.app,
      json: { client_name: name, grant_types: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"], scope: "media.read" },
      headers: { "x-forwarded-for": o.ip() },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { client_id: string }).client_id;
  };

  test("an unapproved client: the warning on the review step and on the outcome of approving and of denying", async () => {
    const id = await registerDeviceClient("Reader");
    const approved = await deviceSteps(id, "approve");
    expect(approved.review).toContain(WARNING);
    expect(approved.outcome).toContain("You approved <strong");
    expect(approved.outcome).toContain(WARNING);
    const denied = await deviceSteps(id, "deny");
    expect(denied.outcome).toContain("was not given access");
    expect(denied.outcome).toContain(WARNING);
  });

  test("a first-party or approved client: no warning on any step", async () => {
    const first = await deviceSteps("shelf-sync", "approve");
    expect(first.review).not.toContain(WARNING);
    expect(first.outcome).not.toContain(WARNING);
    const id = await registerDeviceClient("Reviewed Reader");
    await approve(id);
    const approved = await deviceSteps(id, "deny");
    expect(approved.review).not.toContain(WARNING);
    expect(approved.outcome).not.toContain(WARNING);
  });

  test("the authorized apps list and the sign-in notice say an unapproved app is unverified; once approved they do not", async () => {
    const id = await registerDeviceClient("Reader Two");
    const { user, deviceCode } = await deviceSteps(id, "approve");
    expect((await o.poll(deviceCode, id)).status).toBe(200);
    const grants = await o.api("GET", "/v1/user/me/oauth-grants", user.jwt);
    expect(grants.body.data.items).toMatchObject([{ clientId: id, clientName: "Reader Two", unverified: true }]);
    const notices = await o.api("GET", "/v1/notifications", user.jwt);
    const notice = notices.body.data.items.find((n: { kind: string }) => n.kind === "device_signed_in");
    expect(notice.title).toBe("A device signed in to your account with Reader Two (unverified app)");
    expect(notice.body).toContain("No administrator has reviewed this app");

    await approve(id);
    expect((await o.api("GET", "/v1/user/me/oauth-grants", user.jwt)).body.data.items).toMatchObject([{ clientId: id, unverified: false }]);
    const first = await deviceSteps("shelf-sync", "approve");
    expect((await o.poll(first.deviceCode)).status).toBe(200);
    expect((await o.api("GET", "/v1/user/me/oauth-grants", first.user.jwt)).body.data.items).toMatchObject([{ clientId: "shelf-sync", unverified: false }]);
  });
});
