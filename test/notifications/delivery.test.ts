// The deliverer (worker role): two deliverers draining at once send each message once;
// a refused send is retried after the backoff (the clock moved, never slept) and given up
// after MAX_ATTEMPTS; without SMTP_URL messages are logged and count as sent; a message
// whose kind has no template fails without blocking the others.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { deliverOutboxJob } from "../../src/modules/notifications/deliver-outbox.job.ts";
import { createMailer } from "../../src/infra/mail.ts";
import { deliverOutbox, notify, pruneNotifications, tellCrossings } from "../../src/modules/notifications/public.ts";
import { MAX_ATTEMPTS, retryDelayMs } from "../../src/modules/notifications/deliver.ts";
import { outbox, quotaMarks } from "../../src/modules/notifications/table.ts";
import { users } from "../../src/modules/identity/table.ts";
import { monthKey } from "../../src/infra/clock.ts";
import { makeUser } from "../helpers/factories.ts";
import { startSmtp, type TestSmtp, world } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const DAY = 86_400_000;
let smtp: TestSmtp;
let w: Awaited<ReturnType<typeof world>>;
beforeAll(async () => {
  smtp = await startSmtp();
  w = await world(smtp);
});
afterAll(async () => {
  await w.close();
  await smtp.close();
});

const rowsOf = (userId: string) => w.deps.db.select().from(outbox).where(eq(outbox.userId, userId)).orderBy(outbox.createdAt, outbox.id);

/** Queues a full-storage message for the user, as a crossing would. */
const queueFull = (userId: string, used = 1000) =>
  w.deps.db.transaction((tx) =>
    notify(tx, [{ kind: "quota_100", userId, payload: { dimension: "img_storage", period: "total", mark: 100, used, limit: 1000 } }], w.clock.now()),
  );

describe("deliverer", () => {
  test("two deliverers draining at once: every message is received exactly once and recorded sent after one attempt", async () => {
    const users = await Promise.all(Array.from({ length: 3 }, () => makeUser()));
    const paths = Array.from({ length: 30 }, (_, i) => `notes/n-${i}.md`);
    await w.deps.db.transaction(async (tx) => {
      for (const [i, path] of paths.entries()) {
        const payload = { branches: [{ branchId: `b${i}`, kbId: "kb1", docId: `d${i}`, relativePath: path, expiresAt: w.clock.now().toISOString() }] };
        await notify(tx, [{ kind: "conflict_branches_expiring", userId: users[i % 3]!.id, payload }], w.clock.now());
      }
    });
    const [a, b] = await Promise.all([w.deliver(), w.deliver()]);
    expect(a.sent + b.sent).toBeGreaterThanOrEqual(30);
    const mine = users.flatMap((u) => smtp.to(u.email));
    expect(mine).toHaveLength(30);
    for (const path of paths) expect(mine.filter((m) => m.text.includes(`${path}:`))).toHaveLength(1);
    for (const u of users) {
      for (const row of await rowsOf(u.id)) expect(row).toMatchObject({ status: "sent", attempts: 1, sentAt: w.clock.now(), claimToken: null });
    }
  }, 60_000); // many real SMTP sessions: a bound for a busy machine, not a wait

  test("a send the server refuses is retried after the backoff, then delivered once", async () => {
    const user = await makeUser();
    await queueFull(user.id);
    smtp.refuse(user.email, 1);
    await w.deliver();
    expect(smtp.to(user.email)).toEqual([]);
    let [row] = await rowsOf(user.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: new Date(w.clock.nowMs() + retryDelayMs(1)), claimToken: null });
    expect(row!.lastError).toContain("mailbox busy");

    await w.deliver(); // not due yet
    expect(smtp.to(user.email)).toEqual([]);
    w.clock.advance(retryDelayMs(1));
    await w.deliver();
    await w.deliver();
    expect(smtp.to(user.email)).toHaveLength(1);
    [row] = await rowsOf(user.id);
    expect(row).toMatchObject({ status: "sent", attempts: 2, lastError: null });
  });

  test("a message claimed by a deliverer that died is taken again when its lease ends, and sent once", async () => {
    const user = await makeUser();
    await queueFull(user.id);
    // What a claim leaves behind when its deliverer dies before settling: attempts counted, a lease, a token.
    await w.deps.db
      .update(outbox)
      .set({ attempts: 1, claimToken: "gone", nextAttemptAt: new Date(w.clock.nowMs() + 10 * 60_000) })
      .where(eq(outbox.userId, user.id));
    await w.deliver();
    expect(smtp.to(user.email)).toEqual([]);
    w.clock.advance(10 * 60_000);
    await w.deliver();
    await w.deliver();
    expect(smtp.to(user.email)).toHaveLength(1);
    expect((await rowsOf(user.id))[0]).toMatchObject({ status: "sent", attempts: 2, claimToken: null });
  });

  test("the backoff doubles from 1 minute up to 6 hours; after MAX_ATTEMPTS refusals the message is failed and never sent", async () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(retryDelayMs(9)).toBe(256 * 60_000);
    expect(retryDelayMs(10)).toBe(6 * 3_600_000);
    expect(retryDelayMs(30)).toBe(6 * 3_600_000);

    const user = await makeUser();
    await queueFull(user.id);
    smtp.refuse(user.email, MAX_ATTEMPTS);
    for (let n = 1; n <= MAX_ATTEMPTS; n++) {
      await w.deliver();
      const [row] = await rowsOf(user.id);
      expect(row).toMatchObject({ attempts: n, status: n < MAX_ATTEMPTS ? "pending" : "failed" });
      w.clock.advance(retryDelayMs(n));
    }
    await w.deliver();
    expect(smtp.to(user.email)).toEqual([]);
    expect((await rowsOf(user.id))[0]).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, sentAt: null });
  });

  test("a message no template can render is failed at once; the user's other messages still go", async () => {
    const user = await makeUser();
    await w.deps.db.transaction((tx) => notify(tx, [{ kind: "no_such_kind", userId: user.id, payload: {} }], w.clock.now()));
    await queueFull(user.id);
    await w.deliver();
    expect(smtp.to(user.email)).toHaveLength(1);
    const [bad] = await w.deps.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.userId, user.id), eq(outbox.kind, "no_such_kind")));
    expect(bad).toMatchObject({ status: "failed", attempts: 1 });
    expect(bad!.lastError).toContain("no template");
  });

  test("without SMTP_URL the job logs each message and records it sent", async () => {
    const user = await makeUser();
    await queueFull(user.id);
    const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
    const log = { ...w.deps.log, info: (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, fields }), child: () => log };
    const deps = { ...w.deps, config: { ...w.deps.config, SMTP_URL: undefined } };
    expect(createMailer(deps.config, log).kind).toBe("log");
    const ran = await deliverOutboxJob.run({ deps, log, signal: new AbortController().signal });
    expect(ran).toMatchObject({ counts: { sent: 1 }, summary: expect.stringContaining("(log)") });
    expect(lines.find((l) => l.fields?.to === user.email)?.fields?.subject).toBe("You have used all of your image and document storage");
    expect((await rowsOf(user.id))[0]).toMatchObject({ status: "sent", attempts: 1 });
    expect(await deliverOutbox(deps, createMailer(deps.config, log))).toMatchObject({ sent: 0 });
  });

  test("a deleted user's queued messages go with the user", async () => {
    const user = await makeUser();
    await queueFull(user.id);
    await w.deps.db.delete(users).where(eq(users.id, user.id));
    expect(await rowsOf(user.id)).toEqual([]);
  });

  test("prune-notifications: settled messages go 90 days after they were queued, pending ones stay; marks of past months go, this month's and storage marks stay", async () => {
    const user = await makeUser();
    const t0 = w.clock.now();
    const crossing = (period: string) => ({ userId: user.id, dimension: "image_bandwidth", period, mark: 80, kind: "quota_80", payload: {} });
    await w.deps.db.transaction((tx) => tellCrossings(tx, [crossing(monthKey(t0)), { ...crossing("total"), dimension: "img_storage" }], t0));
    await queueFull(user.id);
    await w.deliver(); // the quota_80 rows fail (no template for an empty payload), the quota_100 is sent
    await queueFull(user.id); // and one left pending
    await w.deps.db
      .update(outbox)
      .set({ nextAttemptAt: new Date(t0.getTime() + 365 * DAY) })
      .where(and(eq(outbox.userId, user.id), eq(outbox.status, "pending")));
    const marks = async () => (await w.deps.db.select().from(quotaMarks).where(eq(quotaMarks.userId, user.id))).map((m) => m.period).sort();

    w.clock.advance(89 * DAY);
    await pruneNotifications(w.deps.db, w.clock.now());
    expect(await rowsOf(user.id)).toHaveLength(4);
    w.clock.advance(2 * DAY); // 91 days: a later month too
    const summary = await pruneNotifications(w.deps.db, w.clock.now());
    expect(summary.messages).toBeGreaterThanOrEqual(3);
    expect((await rowsOf(user.id)).map((r) => r.status)).toEqual(["pending"]);
    expect(await marks()).toEqual(["total"]);
  });
});
