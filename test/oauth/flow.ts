// The OAuth tests' app and steps: an app of its own on the shared parts, with a clock that
// stands still until a test moves it and behind a trusted proxy, so each test takes its
// own client address (the device and wrong-code limits count per address).
import { afterAll } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import type { Deps } from "../../src/wiring/deps.ts";
import { createServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { getUser, login } from "../../src/modules/identity/public.ts";
import { makeUser as makeSharedUser, type TestUser } from "../helpers/factories.ts";

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/**
 * `change`: parts to replace (a failing kv, say). The services close after the file's
 * tests; a caller inside a hook passes `{ closedBy: "caller" }` and closes them itself
 * (an afterAll registered inside beforeAll runs at once, closing them before any test).
 */
export async function oauthApp(change: (deps: Deps) => Partial<Deps> = () => ({}), opts: { closedBy?: "afterAll" | "caller" } = {}) {
  const shared = await testContext();
  const clock = stoppedClock();
  const base = { ...shared.deps, clock, config: { ...shared.deps.config, TRUST_PROXY: true } };
  const deps = { ...base, ...change(base) };
  const services = createServices(deps);
  if (opts.closedBy !== "caller") afterAll(() => services.close());
  const app = createApp(services);
  const ip = () => `10.${Array.from(crypto.getRandomValues(new Uint8Array(3))).join(".")}`;

  /** A user whose session token was signed on this app's clock (which tests move far ahead). */
  async function makeUser(): Promise<TestUser> {
    const u = await makeSharedUser();
    const grant = await login(deps, services.identity.signer, (await getUser(deps.db, u.id))!);
    return { ...u, jwt: grant.accessToken, refreshToken: grant.refreshToken };
  }

  /** A form POST as RFC 6749 clients send it, from `from`. */
  const post = (path: string, params: Record<string, string>, from = ip()) =>
    callJson("POST", path, { app, body: new URLSearchParams(params), headers: { "x-forwarded-for": from } });

  const start = (clientId = "shelf-sync", extra: Record<string, string> = {}, from?: string) =>
    post("/v1/oauth/device_authorization", { client_id: clientId, ...extra }, from);

  const poll = (deviceCode: string, clientId = "shelf-sync") =>
    post("/oauth/token", { grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: clientId });

  const verify = (user: TestUser, userCode: string, decision: "approve" | "deny" = "approve", from = ip(), token = user.jwt) =>
    callJson("POST", "/v1/oauth/device/verify", { app, token, json: { userCode, decision }, headers: { "x-forwarded-for": from } });

  /** A device flow approved by `user`, redeemed: the client's token set. */
  async function tokensFor(user: TestUser, clientId = "shelf-sync", scope?: string) {
    const started = await start(clientId, scope ? { scope } : {});
    if (started.status !== 200) throw new Error(`device_authorization: ${started.status} ${JSON.stringify(started.body)}`);
    const approved = await verify(user, started.body.user_code);
    if (approved.status !== 200) throw new Error(`verify: ${approved.status} ${JSON.stringify(approved.body)}`);
    const tokens = await poll(started.body.device_code, clientId);
    if (tokens.status !== 200) throw new Error(`token: ${tokens.status} ${JSON.stringify(tokens.body)}`);
    return tokens.body as { access_token: string; refresh_token: string; expires_in: number; scope: string; token_type: string };
  }

  const refresh = (refreshToken: string, clientId = "shelf-sync", extra: Record<string, string> = {}) =>
    post("/oauth/token", { grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId, ...extra });

  const api = (method: string, path: string, token: string) => callJson(method, path, { app, token });

  return { app, deps, services, clock, makeUser, ip, post, start, poll, verify, tokensFor, refresh, api, call };
}
