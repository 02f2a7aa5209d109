// The first account on an instance with no accounts is its owner's: an administrator on
// FIRST_USER_PLAN (the largest plan unless set); later ones get DEFAULT_PLAN; an operator
// of a public instance turns it off with FIRST_USER_ADMIN=false. Each case starts from an
// empty database: a fresh DATA_DIR, or a throwaway database on the suite's Postgres.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { callJson, tempDir } from "../helpers/context.ts";
import { closeEmptyInstances, emptyInstance } from "../helpers/empty-instance.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** Each case opens a database of its own: seconds on a busy machine. */
const EMPTY_INSTANCE_MS = 60_000;

afterAll(closeEmptyInstances);

const emptyApp = async (extra: Record<string, string> = {}) => (await emptyInstance(extra)).app;

let n = 0;
const signup = (app: Awaited<ReturnType<typeof emptyApp>>) =>
  callJson("POST", "/v1/auth/signup", { app, json: { email: `owner${++n}@example.com`, password: "a long passphrase" } });

describe("the first account", () => {
  test(
    "is an administrator on the largest plan, and the answer says so; the next is a trial user",
    async () => {
      const app = await emptyApp();
      const first = await signup(app);
      expect(first.status).toBe(201);
      expect(first.body.data.user).toMatchObject({ plan: "pro_plus", isAdmin: true });
      expect(first.body.data.firstAccount).toBe(true);
      expect(first.body.data.notice).toContain("administrator");

      const me = await callJson("GET", "/v1/user/me", { app, token: first.body.data.accessToken });
      expect(me.body.data).toMatchObject({ plan: "pro_plus", isAdmin: true });

      const second = await signup(app);
      expect(second.status).toBe(201);
      expect(second.body.data.user).toMatchObject({ plan: "trial", isAdmin: false });
      expect(second.body.data.firstAccount).toBe(false);
      expect(second.body.data.notice).toBeNull();
    },
    EMPTY_INSTANCE_MS,
  );

  test(
    "of sign-ups racing on an empty instance, exactly one is first",
    async () => {
      const app = await emptyApp();
      const all = await Promise.all(Array.from({ length: 6 }, () => signup(app)));
      expect(all.map((r) => r.status)).toEqual(Array(6).fill(201));
      const admins = all.filter((r) => r.body.data.user.isAdmin);
      expect(admins).toHaveLength(1);
      expect(admins[0]!.body.data.firstAccount).toBe(true);
      expect(all.filter((r) => r.body.data.user.plan === "trial")).toHaveLength(5);
    },
    EMPTY_INSTANCE_MS,
  );

  test(
    "FIRST_USER_PLAN and DEFAULT_PLAN name the plans",
    async () => {
      const app = await emptyApp({ FIRST_USER_PLAN: "pro", DEFAULT_PLAN: "pro_plus" });
      expect((await signup(app)).body.data.user).toMatchObject({ plan: "pro", isAdmin: true });
      expect((await signup(app)).body.data.user).toMatchObject({ plan: "pro_plus", isAdmin: false });
    },
    EMPTY_INSTANCE_MS,
  );

  test(
    "FIRST_USER_ADMIN=false: the first account is like any other",
    async () => {
      const app = await emptyApp({ FIRST_USER_ADMIN: "false" });
      const first = await signup(app);
      expect(first.body.data.user).toMatchObject({ plan: "trial", isAdmin: false });
      expect(first.body.data.firstAccount).toBe(false);
    },
    EMPTY_INSTANCE_MS,
  );

  test("a plan that does not exist is a configuration error naming the variable", () => {
    for (const name of ["FIRST_USER_PLAN", "DEFAULT_PLAN"]) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), [name]: "gold" })).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: tempDir(), [name]: "gold" })).toThrow(name);
    }
    expect(() => loadConfig({ DATA_DIR: tempDir(), FIRST_USER_ADMIN: "maybe" })).toThrow("FIRST_USER_ADMIN");
  });
});
