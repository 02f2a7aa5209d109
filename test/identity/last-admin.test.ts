// An instance keeps an administrator: the admin flag of the only admin cannot be taken away
// (over the API or the CLI), nor its account deleted, and two admins demoting each other at
// once leave one of them. Each case starts from an empty database (its first account is
// its only admin): a fresh DATA_DIR, or a throwaway database on the suite's Postgres.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../src/infra/db/index.ts";
import { getUser, updateUser } from "../../src/modules/identity/public.ts";
import { adminCliOn } from "../helpers/admin-cli.ts";
import { callJson } from "../helpers/context.ts";
import { closeEmptyInstances, emptyInstance } from "../helpers/empty-instance.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** Each case opens a database of its own: seconds on a busy machine. */
const EMPTY_INSTANCE_MS = 60_000;

afterAll(closeEmptyInstances);

async function adminInstance() {
  const { app, deps } = await emptyInstance();
  let n = 0;
  const signup = async () => {
    const email = `account${++n}@example.com`;
    const res = await callJson("POST", "/v1/auth/signup", { app, json: { email, password: "a long passphrase" } });
    expect(res.status).toBe(201);
    return { id: res.body.data.user.id as string, email, jwt: res.body.data.accessToken as string, isAdmin: res.body.data.user.isAdmin as boolean };
  };
  const patch = (token: string, id: string, json: Record<string, unknown>) => callJson("PATCH", `/v1/admin/users/${id}`, { app, token, json });
  const cli = (...args: string[]) => adminCliOn(deps, ...args);
  const isAdmin = async (id: string) => (await getUser(deps.db, id))?.isAdmin;
  return { app, deps, signup, patch, cli, isAdmin };
}

describe("the last administrator", () => {
  test(
    "over HTTP: the only admin cannot drop its own flag (409 CONFLICT, nothing changed); with a second admin it may",
    async () => {
      const i = await adminInstance();
      const owner = await i.signup();
      expect(owner.isAdmin).toBe(true);
      const refused = await i.patch(owner.jwt, owner.id, { isAdmin: false, plan: "trial" });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ success: false, code: "CONFLICT", meta: { reason: "last_admin" } });
      expect(refused.body.error).toContain("only administrator");
      // The whole change is refused: the plan of the same body did not move either.
      expect(await getUser(i.deps.db, owner.id)).toMatchObject({ isAdmin: true, plan: "pro_plus" });

      const other = await i.signup();
      // Taking the flag from an account that does not hold it is no change, and allowed.
      expect((await i.patch(owner.jwt, other.id, { isAdmin: false })).status).toBe(200);
      expect((await i.patch(owner.jwt, other.id, { isAdmin: true })).body.data.isAdmin).toBe(true);
      const stepDown = await i.patch(owner.jwt, owner.id, { isAdmin: false });
      expect(stepDown.status).toBe(200);
      expect(stepDown.body.data.isAdmin).toBe(false);
      expect((await i.patch(other.jwt, other.id, { isAdmin: false })).status).toBe(409);
      expect(await i.isAdmin(other.id)).toBe(true);
    },
    EMPTY_INSTANCE_MS,
  );

  test(
    "two admins demoting each other at once: one succeeds, one is refused, one admin stays",
    async () => {
      const i = await adminInstance();
      const a = await i.signup();
      const b = await i.signup();
      expect((await i.patch(a.jwt, b.id, { isAdmin: true })).status).toBe(200);
      for (let round = 0; round < 3; round++) {
        const [ab, ba] = await Promise.all([i.patch(a.jwt, b.id, { isAdmin: false }), i.patch(b.jwt, a.id, { isAdmin: false })]);
        const statuses = [ab.status, ba.status].sort();
        // The loser is refused by the rule (409), or by the guard when it lost its flag first (403).
        expect(statuses[0]).toBe(200);
        expect([403, 409]).toContain(statuses[1]!);
        const flags = [await i.isAdmin(a.id), await i.isAdmin(b.id)];
        expect(flags.filter(Boolean)).toHaveLength(1);
        // The one left promotes the other again for the next round.
        const [left, gone] = flags[0] ? [a, b] : [b, a];
        expect((await i.patch(left.jwt, gone.id, { isAdmin: true })).status).toBe(200);
      }
    },
    EMPTY_INSTANCE_MS,
  );

  // The embedded database runs one transaction at a time; on Postgres the second demotion
  // runs while the first is open, which only the lock makes wait for the first's commit.
  test.skipIf(!process.env.DATABASE_URL)(
    "on Postgres, a demotion that runs while another is uncommitted waits for it, then is refused",
    async () => {
      const i = await adminInstance();
      const a = await i.signup();
      const b = await i.signup();
      expect((await i.patch(a.jwt, b.id, { isAdmin: true })).status).toBe(200);
      const now = i.deps.clock.now();
      let reached!: () => void;
      let commit!: () => void;
      const inFirst = new Promise<void>((resolve) => (reached = resolve));
      const committing = new Promise<void>((resolve) => (commit = resolve));
      const first = i.deps.db.transaction(async (tx) => {
        await updateUser(tx, a.id, { isAdmin: false }, now);
        reached();
        await committing;
      });
      await inFirst;
      let settled = false;
      const second = updateUser(i.deps.db, b.id, { isAdmin: false }, now).then(
        () => "demoted",
        (e: { code?: string }) => e.code,
      );
      void second.finally(() => (settled = true));
      // Until the second has either finished or is seen waiting on a lock.
      const deadline = Date.now() + EMPTY_INSTANCE_MS / 2;
      const waiting = async () =>
        rowsOf<{ n: number }>(
          await i.deps.db.execute(
            sql`select count(*)::int as n from pg_locks where not granted and database = (select oid from pg_database where datname = current_database())`,
          ),
        )[0]!.n > 0;
      while (!settled && !(await waiting())) expect(Date.now()).toBeLessThan(deadline);
      commit();
      await first;
      expect(await second).toBe("CONFLICT");
      expect([await i.isAdmin(a.id), await i.isAdmin(b.id)]).toEqual([false, true]);
    },
    EMPTY_INSTANCE_MS,
  );

  test(
    "through the CLI: user set-admin promotes and demotes, never the only admin; user delete refuses its account",
    async () => {
      const i = await adminInstance();
      const owner = await i.signup();
      const other = await i.signup();

      const last = await i.cli("user", "set-admin", "--email", owner.email, "--off");
      expect(last.code).toBe(2);
      expect(last.err[0]).toContain("shelf admin user set-admin: this account is the instance's only administrator");
      expect(await i.isAdmin(owner.id)).toBe(true);

      const deleted = await i.cli("user", "delete", "--email", owner.email, "--yes");
      expect(deleted.code).toBe(2);
      expect(deleted.err[0]).toContain("only administrator");
      expect(await getUser(i.deps.db, owner.id)).toBeDefined();

      const promoted = await i.cli("user", "set-admin", "--email", other.email);
      expect(promoted).toMatchObject({ code: 0, out: [`${other.email}: an administrator`] });
      const me = await callJson("GET", "/v1/user/me", { app: i.app, token: other.jwt });
      expect(me.body.data.isAdmin).toBe(true);

      const demoted = await i.cli("user", "set-admin", "--email", owner.email, "--off");
      expect(demoted).toMatchObject({ code: 0, out: [`${owner.email}: not an administrator`] });
      // Now the other account is the only one, and the rule holds for it.
      expect((await i.cli("user", "delete", "--email", other.email, "--yes")).code).toBe(2);
      expect((await i.cli("user", "delete", "--email", owner.email, "--yes")).code).toBe(0);

      expect((await i.cli("user", "set-admin", "--email", "nobody@example.com")).err[0]).toContain("no user with email nobody@example.com");
      expect((await i.cli("user", "set-admin")).err[0]).toContain("--email is required");
      expect((await i.cli("--help")).out[0]).toContain("user set-admin --email E [--off]");
    },
    EMPTY_INSTANCE_MS,
  );
});
