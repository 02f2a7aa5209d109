import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { getUserByEmail, updateUser } from "../../src/modules/identity/public.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("GET /v1/user/me", () => {
  test("returns the profile with every documented field", async () => {
    const u = await makeUser({ plan: "pro" });
    const res = await callJson("GET", "/v1/user/me", { token: u.jwt });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: u.id,
      email: u.email,
      emailVerified: false,
      nickname: null,
      plan: "pro",
      planActive: true,
      planExpiresAt: null,
      isAdmin: false,
      docVersioningEnabled: false,
      docVersioningMax: 20,
      quotaWarnings: true,
      notifications: expect.objectContaining({
        quota_80: { email: true, inApp: true, emailMandatory: false },
        video_ready: { email: false, inApp: true, emailMandatory: false },
      }),
      twoFactor: { totp: false, recoveryCodesLeft: 0 },
      hasPassword: true,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  test("tenant isolation", async () => {
    await expectTenantIsolation({ method: "GET", path: () => "/v1/user/me", scope: "account.read" });
  });
});

describe("PATCH /v1/user/me", () => {
  test("updates nickname and version-history settings", async () => {
    const u = await makeUser();
    const res = await callJson("PATCH", "/v1/user/me", { token: u.jwt, json: { nickname: "Ada", docVersioningEnabled: true, docVersioningMax: 500 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ nickname: "Ada", docVersioningEnabled: true, docVersioningMax: 500 });
    expect((await callJson("GET", "/v1/user/me", { token: u.jwt })).body.data.docVersioningMax).toBe(500);
    expect((await callJson("PATCH", "/v1/user/me", { token: u.jwt, json: { docVersioningMax: 1 } })).body.data.docVersioningMax).toBe(1);
  });

  test("docVersioningMax outside 1 to 500 and control characters are 422; plan and admin flag cannot be set here", async () => {
    const u = await makeUser();
    for (const json of [{ docVersioningMax: 0 }, { docVersioningMax: 501 }, { docVersioningMax: 1.5 }, { nickname: "a\u0000b" }]) {
      const res = await callJson("PATCH", "/v1/user/me", { token: u.jwt, json });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    // Fields the route does not take are dropped before validation, never applied.
    for (const json of [{ plan: "pro_plus" }, { isAdmin: true }]) await callJson("PATCH", "/v1/user/me", { token: u.jwt, json });
    const me = await callJson("GET", "/v1/user/me", { token: u.jwt });
    expect(me.body.data).toMatchObject({ plan: "trial", isAdmin: false, docVersioningMax: 20 });
  });

  test("an API key cannot change the account (403)", async () => {
    const u = await makeUser();
    const { key } = await makeKey(u);
    const res = await callJson("PATCH", "/v1/user/me", { token: key, json: { nickname: "x" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
  });
});

describe("updateUser and getUserByEmail (the one users UPDATE and email lookup)", () => {
  test("updateUser sets only the given columns and updatedAt, and returns undefined for no such user", async () => {
    const { deps } = await testContext();
    const u = await makeUser();
    const at = new Date(deps.clock.nowMs() + 60_000);
    const row = await updateUser(deps.db, u.id, { nickname: "Bo", plan: undefined }, at);
    expect(row).toMatchObject({ id: u.id, nickname: "Bo", plan: "trial", updatedAt: at });
    expect(await updateUser(deps.db, "n".repeat(21), { nickname: "x" }, at)).toBeUndefined();
    expect((await getUserByEmail(deps.db, `  ${u.email.toUpperCase()} `))?.id).toBe(u.id);
  });
});
