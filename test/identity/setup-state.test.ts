// GET /v1/auth/setup: before anyone can sign in, a sign-up page learns whether the instance
// has an account yet and what its first account becomes; the first sign-up changes the
// answer. No credential is needed, and none changes it.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { callJson } from "../helpers/context.ts";
import { closeEmptyInstances, emptyInstance } from "../helpers/empty-instance.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** Each case opens a database of its own: seconds on a busy machine. */
const EMPTY_INSTANCE_MS = 60_000;

afterAll(closeEmptyInstances);

describe("GET /v1/auth/setup", () => {
  test(
    "on an empty instance: no accounts, and the first becomes an administrator on FIRST_USER_PLAN; after the first sign-up, hasAccounts",
    async () => {
      const { app } = await emptyInstance({ FIRST_USER_PLAN: "pro", DEFAULT_PLAN: "trial" });
      const before = await callJson("GET", "/v1/auth/setup", { app });
      expect(before.status).toBe(200);
      expect(before.headers.get("cache-control")).toBe("no-store");
      expect(before.body.data).toEqual({ hasAccounts: false, firstAccount: { isAdmin: true, plan: "pro", laterPlan: "trial" }, oidc: null });

      const signup = await callJson("POST", "/v1/auth/signup", { app, json: { email: "owner@example.com", password: "a long passphrase" } });
      expect(signup.body.data).toMatchObject({ firstAccount: true, user: { isAdmin: true, plan: "pro" } });
      const after = await callJson("GET", "/v1/auth/setup", { app });
      expect(after.body.data).toEqual({ hasAccounts: true, firstAccount: null, oidc: null });
    },
    EMPTY_INSTANCE_MS,
  );

  test(
    "with FIRST_USER_ADMIN=false the first account is like any other, and the answer says so",
    async () => {
      const { app } = await emptyInstance({ FIRST_USER_ADMIN: "false", DEFAULT_PLAN: "pro" });
      const res = await callJson("GET", "/v1/auth/setup", { app });
      expect(res.body.data).toEqual({ hasAccounts: false, firstAccount: { isAdmin: false, plan: "pro", laterPlan: "pro" }, oidc: null });
    },
    EMPTY_INSTANCE_MS,
  );

  test("needs no credential, and a credential changes nothing", async () => {
    const user = await makeUser();
    const anonymous = await callJson("GET", "/v1/auth/setup");
    const signedIn = await callJson("GET", "/v1/auth/setup", { token: user.jwt });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data).toEqual({ hasAccounts: true, firstAccount: null, oidc: null });
    expect(signedIn.body.data).toEqual(anonymous.body.data);
  });
});
