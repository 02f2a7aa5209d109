// The v1 sunset's final reminder: v1 manifest and sync calls record their account (at most
// one write an hour per account and node), and from SYNC_V1_REMINDER_AT until the sunset
// the job queues one reminder per account, once, whichever run or node gets there; the
// operator's command sends it now.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { remindV1Callers } from "../../src/modules/library/public.ts";
import { syncV1Callers } from "../../src/modules/library/kbs/table.ts";
import { notifications, outbox } from "../../src/modules/notifications/table.ts";
import { render } from "../../src/modules/notifications/templates.ts";
import { makeKey } from "../helpers/factories.ts";
import { adminCli } from "../helpers/admin-cli.ts";
import { oauthApp } from "../oauth/flow.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
const HOUR = 3_600_000;

const callerOf = async (userId: string) => (await o.deps.db.select().from(syncV1Callers).where(eq(syncV1Callers.userId, userId)))[0];
const remindersOf = (userId: string) =>
  o.deps.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.userId, userId), eq(outbox.kind, "sync_v1_final_reminder")));

async function v1Caller() {
  const user = await o.makeUser();
  const { id: keyId, key } = await makeKey(user, ["kb.read", "kb.write"]);
  const kb = await o.call("POST", "/v1/kbs", { app: o.app, token: key, json: { name: "Old client" } });
  const kbId = ((await kb.json()) as { data: { id: string } }).data.id;
  const manifest = (version?: 1 | 2) =>
    o.call("GET", `/v1/kbs/${kbId}/manifest`, { app: o.app, token: key, headers: version ? { "service-sync-version": String(version) } : {} });
  return { user, key, keyId, kbId, manifest };
}

/** The row a v1 call wrote before it answered. */
async function recorded(userId: string) {
  const row = await callerOf(userId);
  if (!row) throw new Error("no sync_v1_callers row");
  return row;
}

describe("the v1 final reminder", () => {
  test("a v1 call records its account and credential; a v2 call does not; a busy v1 client writes at most once an hour", async () => {
    const c = await v1Caller();
    expect((await c.manifest(2)).status).toBe(200);
    expect(await callerOf(c.user.id)).toBeUndefined();
    expect((await c.manifest()).status).toBe(200);
    const first = await recorded(c.user.id);
    expect(first).toMatchObject({ via: "api_key", keyId: c.keyId, remindedAt: null });
    o.clock.advance(30 * 60_000);
    expect((await c.manifest(1)).status).toBe(200);
    expect((await callerOf(c.user.id))!.lastSeenAt).toEqual(first.lastSeenAt);
    o.clock.advance(31 * 60_000);
    expect((await c.manifest(1)).status).toBe(200);
    const later = await recorded(c.user.id);
    expect(later.lastSeenAt.getTime()).toBe(first.lastSeenAt.getTime() + 61 * 60_000);
  });

  test("the job sends nothing before the reminder date, one reminder per account on it, none again, and none after the sunset", async () => {
    const c = await v1Caller();
    await c.manifest();
    await recorded(c.user.id);
    const now = o.clock.nowMs();
    const at = (reminderMs: number, sunsetMs: number) => ({
      ...o.deps,
      config: { ...o.deps.config, SYNC_V1_REMINDER_AT: new Date(reminderMs).toISOString(), SYNC_V1_SUNSET_AT: new Date(sunsetMs).toISOString() },
    });
    expect(await remindV1Callers(at(now + HOUR, now + 10 * HOUR))).toEqual({ reminded: 0, skipped: "before_reminder_date" });
    expect(await remindV1Callers(at(now - 20 * HOUR, now - HOUR))).toEqual({ reminded: 0, skipped: "after_sunset" });
    expect(await remindersOf(c.user.id)).toHaveLength(0);

    const on = at(now - HOUR, now + 10 * HOUR);
    // Two runs at once (two nodes): each account claimed by one of them.
    const runs = await Promise.all([remindV1Callers(on), remindV1Callers(on)]);
    expect(runs[0]!.reminded + runs[1]!.reminded).toBeGreaterThanOrEqual(1);
    const [message, ...more] = await remindersOf(c.user.id);
    expect(more).toHaveLength(0);
    expect(message!.payload).toEqual({ sunsetAt: new Date(now + 10 * HOUR).toISOString(), lastSeenAt: (await callerOf(c.user.id))!.lastSeenAt.toISOString() });
    expect((await callerOf(c.user.id))!.remindedAt).not.toBeNull();
    expect(await remindV1Callers(on)).toEqual({ reminded: 0 });
    expect(await remindersOf(c.user.id)).toHaveLength(1);
    // The same event in the user's in-app list, once.
    const listed = await o.call("GET", "/v1/notifications", { app: o.app, token: c.user.jwt });
    const items = ((await listed.json()) as { data: { items: { kind: string; title: string }[] } }).data.items.filter(
      (i) => i.kind === "sync_v1_final_reminder",
    );
    expect(items).toHaveLength(1);
    expect(items[0]!.title).toStartWith("Sync protocol version 1 ends on ");
    expect(
      await o.deps.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, c.user.id), eq(notifications.kind, "sync_v1_final_reminder"))),
    ).toHaveLength(1);

    const mail = render(message!.kind, message!.payload, { centerUrl: "https://shelf.example", nickname: null })!;
    expect(mail.subject).toStartWith("Sync protocol version 1 ends on ");
    expect(mail.text).toContain("version 2");
    expect(mail.html).toContain("https://shelf.example/kbs");
  });

  test("`shelf admin sync-v1 remind` sends it now, whatever the date, once", async () => {
    const c = await v1Caller();
    await c.manifest();
    await recorded(c.user.id);
    const first = await adminCli("sync-v1", "remind");
    expect(first.code).toBe(0);
    expect(first.out.at(-1)).toMatch(/^\d+ accounts reminded/);
    expect(await remindersOf(c.user.id)).toHaveLength(1);
    const again = await adminCli("sync-v1", "remind");
    expect(again.out.at(-1)).toStartWith("0 accounts reminded");
    expect(await remindersOf(c.user.id)).toHaveLength(1);
  });
});
