// Never a 500, for signing in through an OpenID provider on a node set up for it: the
// start's `return` and every parameter of the callback, fed bad values (alone, and beside a
// login really in progress with a code the provider really gave), are answered below 500
// with a page the OpenAPI document describes. (The sweeps of no-500.test.ts reach these
// routes on a node with no provider, where they answer 404.)
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { expectDocumented } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { oauthApp } from "../oauth/flow.ts";
import { browserOf, oidcConfig, oidcProvider, personAt } from "../oidc/flow.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const provider = await oidcProvider();

const o = await oauthApp(oidcConfig(provider));

const BAD: [string, string][] = [
  ["empty", ""],
  ["5000 characters", "x".repeat(5000)],
  ["NUL", "%00"],
  ["lone percent", "%"],
  ["bad escape", "%zz"],
  ["emoji", encodeURIComponent("🦄")],
  ["a URL", encodeURIComponent("https://evil.example/x")],
  ["protocol-relative", encodeURIComponent("//evil.example")],
  ["backslash", encodeURIComponent("/\\evil.example")],
  ["control", "%0d%0aSet-Cookie:%20x=1"],
];

async function expectBelow500(path: string, cookies = "") {
  const res = await o.app.handle(new Request(`http://shelf.test${path}`, { headers: { cookie: cookies, "x-forwarded-for": o.ip() } }));
  await expectDocumented("GET", path.split("?")[0]!, res.clone());
  const text = await res.text();
  if (res.status >= 500) throw new Error(`${path.slice(0, 120)} answered ${res.status}: ${text.slice(0, 200)}`);
  if (res.status >= 400) expect(res.headers.get("content-type")).toStartWith("text/html");
  // Whatever came in, the answer sends the browser nowhere but the provider or shelf.
  const location = res.headers.get("location");
  if (location) expect(location.startsWith(provider.issuer) || location.startsWith("http://shelf.test/")).toBe(true);
}

describe("the OpenID sign-in never answers 5xx to bad input", () => {
  test("the start's return, bad in every way", async () => {
    for (const [, value] of BAD) await expectBelow500(`/v1/auth/oidc/start?return=${value}`);
    await expectBelow500("/v1/auth/oidc/start?return=/oauth/authorize&return=/device");
  });

  test("each callback parameter bad, with no login in progress", async () => {
    for (const name of ["code", "state", "iss", "error", "error_description", "session_state"]) {
      for (const [, value] of BAD) await expectBelow500(`/v1/auth/oidc/callback?${name}=${value}`);
    }
  });

  test("each callback parameter bad, beside a real login's state and code", async () => {
    for (const name of ["code", "iss", "error", "error_description"]) {
      for (const [, value] of BAD) {
        const b = browserOf(o, provider);
        const url = await b.toCallback(personAt(provider).sub);
        const params = new URLSearchParams(url.search);
        params.delete(name);
        const cookies = [...b.shelf.jar].map(([k, v]) => `${k}=${v}`).join("; ");
        await expectBelow500(`/v1/auth/oidc/callback?${params}&${name}=${value}`, cookies);
      }
    }
  });
});
