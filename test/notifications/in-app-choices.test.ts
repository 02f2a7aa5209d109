// The per-kind choice of e-mail and in-app (PATCH /v1/user/me, notifications), and how long
// in-app notifications are kept (prune-notifications), by the world's clock.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { pruneNotifications } from "../../src/modules/notifications/public.ts";
import { callJson } from "../helpers/context.ts";
import { makeKey, type TestUser } from "../helpers/factories.ts";
import { inbox, startSmtp, type TestSmtp, world } from "./fixtures.ts";
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
const { makeUser, list, kinds, createKey } = inbox(() => w);

describe("per-kind choice (PATCH /v1/user/me, notifications)", () => {
  const patch = (user: TestUser, json: unknown) => callJson("PATCH", "/v1/user/me", { app: w.app, token: user.jwt, json });

  test("defaults: in-app on for every kind; e-mail on for the mailed kinds, off for the new ones", async () => {
    const user = await makeUser();
    const me = await callJson("GET", "/v1/user/me", { app: w.app, token: user.jwt });
    const n = me.body.data.notifications;
    for (const choice of Object.values(n) as { inApp: boolean }[]) expect(choice.inApp).toBe(true);
    expect(n.quota_80).toEqual({ email: true, inApp: true, emailMandatory: false });
    // The mandatory e-mails say so, for a client to show them on and not switchable.
    expect(n.quota_100).toEqual({ email: true, inApp: true, emailMandatory: true });
    for (const k of ["video_bandwidth_degraded", "video_bandwidth_over_110", "video_bandwidth_suspended"]) expect([k, n[k].emailMandatory]).toEqual([k, true]);
    expect(n.conflict_branches_expiring).toEqual({ email: true, inApp: true, emailMandatory: false });
    for (const k of [
      "video_ready",
      "video_failed",
      "conflict_branch_created",
      "api_key_created",
      "api_key_revoked",
      "oauth_authorized",
      "device_signed_in",
      "password_changed",
    ]) {
      expect([k, n[k]]).toEqual([k, { email: false, inApp: true, emailMandatory: false }]);
    }
  });

  test("e-mail turned on sends the event by mail too; in-app turned off keeps it out of the list; turned back, both again", async () => {
    const user = await makeUser();
    const on = await patch(user, { notifications: { api_key_created: { email: true } } });
    expect(on.status).toBe(200);
    expect(on.body.data.notifications.api_key_created).toEqual({ email: true, inApp: true, emailMandatory: false });
    await createKey(user, "mailed");
    await w.deliver();
    expect(smtp.to(user.email).map((m) => m.subject)).toEqual(['A new API key "mailed" was created']);
    expect(await kinds(user.jwt)).toEqual(["api_key_created"]);

    const off = await patch(user, { notifications: { api_key_created: { inApp: false } } });
    expect(off.body.data.notifications.api_key_created).toEqual({ email: true, inApp: false, emailMandatory: false });
    await createKey(user, "not listed");
    await w.deliver();
    expect(smtp.to(user.email)).toHaveLength(2);
    expect(await kinds(user.jwt)).toEqual(["api_key_created"]);

    await patch(user, { notifications: { api_key_created: { email: false, inApp: true } } });
    await createKey(user, "listed again");
    await w.deliver();
    expect(smtp.to(user.email)).toHaveLength(2);
    expect((await list(user.jwt)).items.map((i) => i.data.name)).toEqual(["listed again", "mailed"]);
  });

  test("quota_80's e-mail is the quotaWarnings switch; a mandatory e-mail cannot be turned off (422, nothing changes); unknown kinds are dropped", async () => {
    const user = await makeUser();
    const res = await patch(user, { notifications: { quota_80: { email: false } } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ quotaWarnings: false, notifications: { quota_80: { email: false, inApp: true, emailMandatory: false } } });
    expect((await patch(user, { quotaWarnings: true })).body.data.notifications.quota_80).toEqual({ email: true, inApp: true, emailMandatory: false });

    const mandatory = await patch(user, { nickname: "Ada", notifications: { quota_100: { email: false } } });
    expect(mandatory.status).toBe(422);
    expect(mandatory.body.code).toBe("VALIDATION_ERROR");
    expect(mandatory.body.meta.path).toBe("body.notifications.quota_100.email");
    const me = (await callJson("GET", "/v1/user/me", { app: w.app, token: user.jwt })).body.data;
    expect(me.nickname).toBeNull();
    expect(me.notifications.quota_100).toEqual({ email: true, inApp: true, emailMandatory: true });
    // Its in-app copy may be turned off.
    expect((await patch(user, { notifications: { quota_100: { inApp: false } } })).body.data.notifications.quota_100).toEqual({
      email: true,
      inApp: false,
      emailMandatory: true,
    });

    // Unknown kinds and fields are dropped, as the body's other unknown fields are.
    const unknown = await patch(user, { notifications: { no_such_kind: { email: true }, quota_80: { sms: true } } });
    expect(unknown.status).toBe(200);
    expect(unknown.body.data.notifications.no_such_kind).toBeUndefined();
    expect(unknown.body.data.notifications.quota_80).toEqual({ email: true, inApp: true, emailMandatory: false });
  });
});

describe("retention (prune-notifications)", () => {
  test("read items go after 30 days, unread ones after 90", async () => {
    const user = await makeUser();
    for (const name of ["read", "unread"]) await createKey(user, name);
    const [unread, read] = (await list(user.jwt)).items;
    await callJson("POST", `/v1/notifications/${read!.id}/read`, { app: w.app, token: user.jwt });
    // A key outlives the session token across the days the clock moves.
    const { key } = await makeKey(user, ["account.read"]);
    const names = async () => (await list(key)).items.map((i) => i.data.name);

    w.clock.advance(29 * DAY);
    await pruneNotifications(w.deps.db, w.clock.now());
    expect(await names()).toEqual(["unread", "read"]);
    w.clock.advance(2 * DAY);
    const pruned = await pruneNotifications(w.deps.db, w.clock.now());
    expect(pruned.inApp).toBeGreaterThanOrEqual(1);
    expect(await names()).toEqual(["unread"]);
    w.clock.advance(58 * DAY); // 89 days
    await pruneNotifications(w.deps.db, w.clock.now());
    expect(await names()).toEqual(["unread"]);
    w.clock.advance(2 * DAY);
    await pruneNotifications(w.deps.db, w.clock.now());
    expect(await names()).toEqual([]);
    expect(unread!.readAt).toBeNull();
  });
});
