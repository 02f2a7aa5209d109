// Sign-up creates the account and its first session in one transaction: when the session
// cannot be written, no account is left behind (its email stays free).
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createApp } from "../../src/wiring/app.ts";
import type { Db } from "../../src/infra/db/index.ts";
import { sessions, users } from "../../src/modules/identity/table.ts";
import { createServices } from "../../src/wiring/services.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** `db`, except that inserting a session inside a transaction fails (a lost connection, a full disk). */
function failingSessions(db: Db): Db {
  const bind = (target: object, prop: string | symbol) => {
    const v = Reflect.get(target, prop);
    return typeof v === "function" ? v.bind(target) : v;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop !== "transaction") return bind(target, prop);
      return (fn: (tx: unknown) => Promise<unknown>, config?: unknown) =>
        target.transaction(
          (tx) =>
            fn(
              new Proxy(tx, {
                get(t, p) {
                  if (p !== "insert") return bind(t, p);
                  return (table: unknown) => {
                    if (table === sessions) throw new Error("the session could not be written");
                    return t.insert(table as never);
                  };
                },
              }),
            ),
          config as never,
        );
    },
  });
}

test("a sign-up whose session insert fails answers 500 and leaves no user row; the email can sign up afterwards", async () => {
  const { deps } = await testContext();
  const services = createServices({ ...deps, db: failingSessions(deps.db) });
  closers.push(() => services.close());
  const broken = createApp(services);
  const email = `half-${crypto.randomUUID()}@example.test`;

  const res = await callJson("POST", "/v1/auth/signup", { app: broken, json: { email, password: "a good password" } });
  expect(res.status).toBe(500);
  expect(res.body).toMatchObject({ success: false, code: "INTERNAL" });
  expect(await deps.db.select().from(users).where(eq(users.email, email))).toEqual([]);

  const again = await callJson("POST", "/v1/auth/signup", { json: { email, password: "a good password" } });
  expect(again.status).toBe(201);
  const [user] = await deps.db.select().from(users).where(eq(users.email, email));
  expect(await deps.db.select().from(sessions).where(eq(sessions.userId, user!.id))).toHaveLength(1);
});
