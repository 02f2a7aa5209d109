import { describe, expect, test } from "bun:test";
import { runAdmin } from "../../src/cli/admin.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";

describe("/v1/admin/*", () => {
  test("needs the admin flag: 403 FORBIDDEN otherwise, 401 without credentials", async () => {
    const u = await makeUser();
    for (const [method, path, json] of [
      ["PATCH", `/v1/admin/users/${u.id}`, { plan: "pro" }],
      ["GET", "/v1/admin/jobs", undefined],
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
});

describe("shelf admin (CLI)", () => {
  const run = async (...args: string[]) => {
    const { deps } = await testContext();
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(deps, args, (l) => out.push(l), (l) => err.push(l));
    return { code, out, err };
  };

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
});
