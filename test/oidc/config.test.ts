// The OIDC_* settings (docs/operators.md): an issuer goes with a client id, http only on the
// loopback, the scopes begin with openid, and the defaults ask for no provider and make no
// account.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { tempDir } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: tempDir(), ...env });
const problemsOf = (env: Record<string, string>) => {
  try {
    load(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
};

describe("OIDC settings", () => {
  test("unset: no provider, no account making, the default scopes and button name", () => {
    const c = load({});
    expect(c.OIDC_ISSUER).toBeUndefined();
    expect(c.OIDC_SIGNUP).toBe(false);
    expect(c.OIDC_SCOPES).toBe("openid email profile");
    expect(c.OIDC_NAME).toBe("single sign-on");
  });

  test("an issuer without a client id, or a client id without an issuer, is named at start", () => {
    expect(problemsOf({ OIDC_ISSUER: "https://auth.example.com" })).toEqual(["OIDC_ISSUER and OIDC_CLIENT_ID go together"]);
    expect(problemsOf({ OIDC_CLIENT_ID: "shelf" })).toEqual(["OIDC_ISSUER and OIDC_CLIENT_ID go together"]);
  });

  test("http only on the loopback; https anywhere", () => {
    expect(problemsOf({ OIDC_ISSUER: "http://auth.example.com", OIDC_CLIENT_ID: "shelf" })[0]).toStartWith("OIDC_ISSUER: https");
    expect(problemsOf({ OIDC_ISSUER: "http://127.0.0.1:9000", OIDC_CLIENT_ID: "shelf" })).toEqual([]);
    expect(problemsOf({ OIDC_ISSUER: "https://auth.example.com/application/o/shelf/", OIDC_CLIENT_ID: "shelf" })).toEqual([]);
  });

  test("scopes begin with openid", () => {
    expect(problemsOf({ OIDC_SCOPES: "email profile" })[0]).toStartWith("OIDC_SCOPES=");
    expect(load({ OIDC_SCOPES: "openid email groups" }).OIDC_SCOPES).toBe("openid email groups");
  });
});
