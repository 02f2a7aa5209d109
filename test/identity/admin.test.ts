import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { SCOPES } from "../../src/core/scopes.ts";
import { getUser } from "../../src/modules/identity/public.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { adminCli } from "../helpers/admin-cli.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("/v1/admin/*", () => {
  test("needs the admin flag: 403 FORBIDDEN otherwise, 401 without credentials", async () => {
    const u = await makeUser();
    for (const [method, path, json] of [
      ["PATCH", `/v1/admin/users/${u.id}`, { plan: "pro" }],
      ["GET", "/v1/admin/jobs", undefined],
      ["GET", "/v1/admin/users", undefined],
      ["GET", "/v1/admin/plans", undefined],
      ["POST", "/v1/admin/jobs/prune-job-runs/run", undefined],
    ] as const) {
      const res = await callJson(method, path, { token: u.jwt, json });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("FORBIDDEN");
      expect((await call(method, path, { json })).status).toBe(401);
    }
  });

  test("an admin sets a user's plan and expiry; an expired plan is inactive", async () => {
    const { deps } = await testContext();
    const admin = await makeUser({ isAdmin: true });
    const u = await makeUser();
    const past = new Date(deps.clock.nowMs() - 1000).toISOString();
    const res = await callJson("PATCH", `/v1/admin/users/${u.id}`, { token: admin.jwt, json: { plan: "pro", planExpiresAt: past } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: u.id, plan: "pro", planActive: false, planExpiresAt: past });
    const me = await callJson("GET", "/v1/user/me", { token: u.jwt });
    expect(me.body.data).toMatchObject({ plan: "pro", planActive: false });
    const renewed = await callJson("PATCH", `/v1/admin/users/${u.id}`, { token: admin.jwt, json: { planExpiresAt: null } });
    expect(renewed.body.data.planActive).toBe(true);
    expect((await callJson("PATCH", `/v1/admin/users/${"n".repeat(21)}`, { token: admin.jwt, json: { plan: "pro" } })).status).toBe(404);
    expect((await callJson("PATCH", "/v1/admin/users/not-an-id", { token: admin.jwt, json: { plan: "pro" } })).status).toBe(422);
    expect((await callJson("PATCH", `/v1/admin/users/${u.id}`, { token: admin.jwt, json: { plan: "gold" } })).status).toBe(422);
  });

  test("an admin lists accounts newest first by cursor, narrowed by e-mail; each as its owner sees it", async () => {
    const admin = await makeUser({ isAdmin: true });
    const made = [await makeUser(), await makeUser({ plan: "pro" }), await makeUser()];
    // Every account of the shared database, page by page: the three are there, newest first, once each.
    const seen: { id: string; createdAt: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: any } = await callJson("GET", `/v1/admin/users?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token: admin.jwt });
      expect(page.status).toBe(200);
      expect(page.body.data.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.items);
      cursor = page.body.data.nextCursor;
    } while (cursor);
    expect(new Set(seen.map((u) => u.id)).size).toBe(seen.length);
    const order = made.map((u) => seen.findIndex((s) => s.id === u.id));
    expect(order.every((i) => i >= 0)).toBe(true);
    for (let i = 1; i < seen.length; i++) expect(seen[i - 1]!.createdAt >= seen[i]!.createdAt).toBe(true);

    const one = await callJson("GET", `/v1/admin/users?email=${encodeURIComponent(made[1]!.email.toUpperCase())}`, { token: admin.jwt });
    expect(one.status).toBe(200);
    expect(one.body.data.items).toEqual([expect.objectContaining({ id: made[1]!.id, email: made[1]!.email, plan: "pro", isAdmin: false })]);
    expect(one.body.data.items[0]).not.toHaveProperty("passwordHash");
    // LIKE's wildcards are plain characters here: "%" matches no address.
    expect((await callJson("GET", "/v1/admin/users?email=%25", { token: admin.jwt })).body.data.items).toEqual([]);
    expect((await callJson("GET", "/v1/admin/users?cursor=nonsense", { token: admin.jwt })).body.code).toBe("INVALID_CURSOR");
    expect((await callJson("GET", "/v1/admin/users?limit=51", { token: admin.jwt })).status).toBe(422);
  });

  test("an admin reads the plans with the limits this server applies", async () => {
    const { deps } = await testContext();
    const admin = await makeUser({ isAdmin: true });
    const res = await callJson("GET", "/v1/admin/plans", { token: admin.jwt });
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((p: { name: string }) => p.name)).toEqual(["trial", "pro", "pro_plus"]);
    for (const p of res.body.data.items) expect(p.limits).toEqual({ ...deps.plans[p.name as "trial"] });
  });

  test("an admin runs a job now over HTTP and sees it listed", async () => {
    const admin = await makeUser({ isAdmin: true });
    const run = await callJson("POST", "/v1/admin/jobs/prune-job-runs/run", { token: admin.jwt });
    expect(run.status).toBe(200);
    expect(run.body.data).toMatchObject({ name: "prune-job-runs", trigger: "manual", outcome: "ok" });
    const list = await callJson("GET", "/v1/admin/jobs", { token: admin.jwt });
    const job = list.body.data.items.find((j: any) => j.name === "prune-job-runs");
    expect(job.lastRun.outcome).toBe("ok");
    expect((await callJson("POST", "/v1/admin/jobs/no-such-job/run", { token: admin.jwt })).status).toBe(404);
  });

  test("an admin's API key also passes the admin check", async () => {
    const admin = await makeUser({ isAdmin: true });
    const { key } = await makeKey(admin);
    expect((await call("GET", "/v1/admin/jobs", { token: key })).status).toBe(200);
  });

  test("admin changes need the admin's signed-in session: an admin's API key, whatever its scopes, is 403", async () => {
    const admin = await makeUser({ isAdmin: true });
    const u = await makeUser();
    for (const scopes of [["account.read"], [...SCOPES]]) {
      const { key } = await makeKey(admin, scopes);
      for (const [method, path, json] of [
        ["PATCH", `/v1/admin/users/${u.id}`, { isAdmin: true, plan: "pro_plus" }],
        ["POST", "/v1/admin/jobs/prune-job-runs/run", undefined],
      ] as const) {
        const res = await callJson(method, path, { token: key, json });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ code: "FORBIDDEN", meta: { required: "session" } });
      }
      expect((await call("GET", "/v1/admin/jobs", { token: key })).status).toBe(200);
    }
    const { deps } = await testContext();
    expect(await getUser(deps.db, u.id)).toMatchObject({ isAdmin: false, plan: "trial" });
    expect((await callJson("PATCH", `/v1/admin/users/${u.id}`, { token: admin.jwt, json: { isAdmin: true } })).body.data.isAdmin).toBe(true);
  });

  test("planExpiresAt must be a real instant: no rolled-over day, no year the database refuses (422 at body.planExpiresAt)", async () => {
    const { deps } = await testContext();
    const admin = await makeUser({ isAdmin: true });
    const u = await makeUser();
    for (const planExpiresAt of [
      "0000-01-01T00:00:00Z",
      "-000001-01-01T00:00:00Z",
      "+275760-01-01T00:00:00Z",
      "2026-02-30T00:00:00Z",
      "2027-02-29T00:00:00Z",
      "2026-04-31T00:00:00Z",
      "2026-01-01T24:00:00Z",
      "1969-12-31T23:59:59Z",
      "2026-01-01T00:00:00",
      "not a date",
    ]) {
      const res = await callJson("PATCH", `/v1/admin/users/${u.id}`, { token: admin.jwt, json: { planExpiresAt } });
      expect({ planExpiresAt, status: res.status }).toEqual({ planExpiresAt, status: 422 });
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.meta.path).toBe("body.planExpiresAt");
    }
    expect((await getUser(deps.db, u.id))!.planExpiresAt).toBeNull();
    for (const [given, stored] of [
      ["2028-02-29T12:00:00Z", "2028-02-29T12:00:00.000Z"],
      ["2029-01-01", "2029-01-01T00:00:00.000Z"],
      ["2030-06-01T00:00:00.5+02:00", "2030-05-31T22:00:00.500Z"],
      ["9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"],
    ]) {
      const res = await callJson("PATCH", `/v1/admin/users/${u.id}`, { token: admin.jwt, json: { planExpiresAt: given } });
      expect(res.status).toBe(200);
      expect(res.body.data.planExpiresAt).toBe(stored);
    }
  });
});

describe("shelf admin (CLI)", () => {
  const run = adminCli;

  test("user create, set-plan and apikey create", async () => {
    const email = `cli-${crypto.randomUUID()}@example.test`;
    const created = await run("user", "create", "--email", email, "--password", "a long password", "--plan", "pro", "--admin");
    expect(created.code).toBe(0);
    expect(created.out[0]).toContain("plan=pro admin");

    const set = await run("user", "set-plan", "--email", email, "--plan", "pro_plus", "--expires", "2031-01-01T00:00:00Z");
    expect(set.code).toBe(0);
    expect(set.out[0]).toContain("plan=pro_plus expires=2031-01-01T00:00:00.000Z");

    const key = await run("apikey", "create", "--email", email, "--name", "ci", "--scopes", "media.read,usage.read");
    expect(key.code).toBe(0);
    const printed = key.out[1]!;
    expect(printed).toMatch(/^sk_live_[A-Za-z0-9_-]{32}$/);
    const usage = await callJson("GET", "/v1/user/me/usage", { token: printed });
    expect(usage.status).toBe(200);
    expect(usage.body.data.plan).toBe("pro_plus");
    expect((await call("GET", "/v1/user/me", { token: printed })).status).toBe(403);

    const login = await callJson("POST", "/v1/auth/login", { json: { email, password: "a long password" } });
    expect(login.status).toBe(200);
  });

  test("bad arguments are explained, with exit code 2", async () => {
    expect((await run("user", "create", "--email", "x@example.test")).err[0]).toContain("--password is required");
    expect((await run("user", "set-plan", "--email", "nobody@example.test", "--plan", "pro")).err[0]).toContain("no user");
    const dup = `dup-${crypto.randomUUID()}@example.test`;
    await run("user", "create", "--email", dup, "--password", "a long password");
    const again = await run("user", "create", "--email", dup, "--password", "a long password");
    expect(again.code).toBe(2);
    expect(again.err[0]).toContain("already registered");
    expect((await run("user", "set-plan", "--email", dup, "--plan", "gold")).err[0]).toContain("--plan must be one of");
  });

  test("--expires takes the API's instants only: a rolled-over day or an impossible year is refused, nothing stored", async () => {
    const { deps } = await testContext();
    const email = `exp-${crypto.randomUUID()}@example.test`;
    await run("user", "create", "--email", email, "--password", "a long password");
    for (const expires of ["2026-02-30T00:00:00Z", "0000-01-01T00:00:00Z", "-000001-01-01T00:00:00Z", "tomorrow"]) {
      const res = await run("user", "set-plan", "--email", email, "--plan", "pro", `--expires=${expires}`);
      expect({ expires, code: res.code }).toEqual({ expires, code: 2 });
      expect(res.err[0]).toContain("--expires must be");
    }
    const { getUserByEmail } = await import("../../src/modules/identity/public.ts");
    expect(await getUserByEmail(deps.db, email)).toMatchObject({ plan: "trial", planExpiresAt: null });
    const ok = await run("user", "set-plan", "--email", email, "--plan", "pro", "--expires", "2031-01-01");
    expect(ok.out[0]).toContain("plan=pro expires=2031-01-01T00:00:00.000Z");
    expect((await run("user", "set-plan", "--email", email, "--plan", "pro", "--expires", "never")).out[0]).toContain("expires=never");
  });

  test("user create applies the sign-up password rule (length and not one repeated character)", async () => {
    for (const password of ["short", "aaaaaaaaaa", "\u{1F600}".repeat(8)]) {
      const res = await run("user", "create", "--email", `pw-${crypto.randomUUID()}@example.test`, "--password", password);
      expect({ password, code: res.code }).toEqual({ password, code: 2 });
      expect(res.err[0]).toMatch(/password/);
    }
  });
});
