// In-app notifications at /v1/notifications: each event lands in its user's list, caused
// through the API that causes it (API keys, password, a stale v2 push, a video callback, a
// quota crossing, a device sign-in, an OAuth authorization); the list's unread filter, read,
// read-all and count; tenancy. The per-kind choices and retention: in-app-choices.test.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { newId } from "../../src/infra/ids.ts";
import { LOCAL_SIGNATURE_HEADER, localWebhookSecret } from "../../src/modules/videos/providers/local.ts";
import { notifications } from "../../src/modules/notifications/table.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeKey, type TestUser } from "../helpers/factories.ts";
import { expectTenantIsolation } from "../helpers/tenancy.ts";
import { newKb } from "../kbs/fixtures.ts";
import { pushed2, sync2, upsert2 } from "../kbs/v2-fixtures.ts";
import { approveAuthorization, checkAuthorizeRequest } from "../../src/modules/oauth/authorize.ts";
import { authorizeQuery, pkce } from "../oauth/authorize-steps.ts";
import { oauthApp } from "../oauth/flow.ts";
import { insertVideo } from "../videos/fixtures.ts";
import { inbox, startSmtp, type TestSmtp, world } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

let smtp: TestSmtp;
let w: Awaited<ReturnType<typeof world>>;
const o = await oauthApp();
beforeAll(async () => {
  smtp = await startSmtp();
  // 1000 bytes of image and document storage: a quota crossing is a few small documents.
  w = await world(smtp, { trial: { imageStorageBytes: 1000, docCount: -1 } });
});
afterAll(async () => {
  await w.close();
  await smtp.close();
});

const { makeUser, list, kinds, createKey } = inbox(() => w);

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("events land in the list", () => {
  test("an API key created then revoked: two items, newest first, with the documented fields; no e-mail by default", async () => {
    const user = await makeUser();
    const key = await createKey(user, "build server");
    w.clock.advance(1000);
    expect((await call("DELETE", `/v1/api-keys/${key.id}`, { app: w.app, token: user.jwt })).status).toBe(204);
    const page = await list(user.jwt);
    expect(page.unreadCount).toBe(2);
    expect(page.nextCursor).toBeNull();
    const [revoked, created] = page.items;
    expect(created).toEqual({
      id: expect.any(String),
      kind: "api_key_created",
      title: 'A new API key "build server" was created',
      body: expect.stringContaining(`ending in ${key.last4}`),
      data: { keyId: key.id, name: "build server", last4: key.last4, scopes: expect.any(Array) },
      createdAt: expect.stringMatching(ISO),
      readAt: null,
    });
    expect(revoked).toMatchObject({ kind: "api_key_revoked", data: { keyId: key.id, name: "build server", last4: key.last4 }, readAt: null });
    await w.deliver();
    expect(smtp.to(user.email)).toEqual([]);
  });

  test("a password change: a wrong current password is 401 and tells nothing; the right one 204, told, and the new password signs in", async () => {
    const user = await makeUser();
    const wrong = await callJson("POST", "/v1/user/me/password", {
      app: w.app,
      token: user.jwt,
      json: { currentPassword: "not the password", newPassword: "a brand new secret" },
    });
    expect(wrong.status).toBe(401);
    expect(await kinds(user.jwt)).toEqual([]);
    const res = await call("POST", "/v1/user/me/password", {
      app: w.app,
      token: user.jwt,
      json: { currentPassword: user.password, newPassword: "a brand new secret" },
    });
    expect(res.status).toBe(204);
    expect(await kinds(user.jwt)).toEqual(["password_changed"]);
    const login = await callJson("POST", "/v1/auth/login", { app: w.app, json: { email: user.email, password: "a brand new secret" } });
    expect(login.status).toBe(200);
  });

  test("a stale v2 push kept as a conflict branch tells the branch, with its ids", async () => {
    const user = await makeUser();
    const { key } = await makeKey(user);
    const kb = await newKb(key);
    const first = (await pushed2(key, kb.id, [upsert2("n.md", "original")])).results[0]!;
    await pushed2(key, kb.id, [upsert2("n.md", "their edit", { baseUpdatedAt: first.updatedAt })]);
    const res = await sync2(key, kb.id, [upsert2("n.md", "my edit", { baseUpdatedAt: first.updatedAt })], { query: "conflictResolution=preserve_both" });
    expect(res.status).toBe(200);
    const kept = res.body.data.results[0];
    expect(kept.status).toBe("conflict_branch_created");
    const [item] = (await list(user.jwt)).items;
    expect(item).toMatchObject({
      kind: "conflict_branch_created",
      title: "A sync conflict on n.md was kept as a branch",
      data: { branchId: kept.branchId, kbId: kb.id, docId: first.docId, relativePath: "n.md" },
    });
  });

  test("a video's transcode finishing, ready or failed, tells its owner", async () => {
    const { deps } = await testContext();
    const owner = await makeUser({ plan: "pro" });
    const send = async (event: unknown) => {
      const body = JSON.stringify(event);
      const t = Math.floor(deps.clock.nowMs() / 1000);
      const signature = `t=${t},v1=${createHmac("sha256", localWebhookSecret(deps.config)).update(`${t}.${body}`).digest("hex")}`;
      const res = await call("POST", "/webhooks/local", { headers: { "content-type": "application/json", [LOCAL_SIGNATURE_HEADER]: signature }, body });
      expect(res.status).toBe(200);
    };
    const good = await insertVideo(owner.id, { title: "Holiday" });
    const bad = await insertVideo(owner.id, { title: "Broken" });
    await send({
      id: `evt-${good.id}`,
      videoId: good.id,
      type: "ready",
      result: { durationSeconds: 4, renditions: ["360p"], thumbnailKey: null, directKey: null },
    });
    await send({ id: `evt-${bad.id}`, videoId: bad.id, type: "failed", reason: "no video stream" });
    // A replayed callback tells nothing more.
    await send({
      id: `evt-${good.id}`,
      videoId: good.id,
      type: "ready",
      result: { durationSeconds: 4, renditions: ["360p"], thumbnailKey: null, directKey: null },
    });
    const items = (await list(owner.jwt)).items;
    expect(items.map((i) => [i.kind, i.data.videoId])).toEqual([
      ["video_failed", bad.id],
      ["video_ready", good.id],
    ]);
    expect(items[0]!.body).toContain("no video stream");
    expect(items[1]!.title).toBe('Your video "Holiday" is ready');
  });

  test("a quota crossing lands in the list and is e-mailed too: one event, two channels", async () => {
    const user = await makeUser();
    const { key } = await makeKey(user);
    const head = `${newId()}\n`;
    const res = await callJson("POST", "/v1/docs", {
      app: w.app,
      token: key,
      json: { filename: `${newId()}.md`, content: head + "x".repeat(850 - head.length) },
    });
    expect(res.status).toBe(201);
    const [item] = (await list(user.jwt)).items;
    expect(item).toMatchObject({
      kind: "quota_80",
      title: "You have used 80% of your image and document storage",
      data: { dimension: "img_storage", period: "total", mark: 80, used: 850, limit: 1000 },
    });
    expect(item!.body).toContain("850 B of its 1,000 B");
    await w.deliver();
    expect(smtp.to(user.email).map((m) => m.subject)).toEqual([item!.title]);
  });

  test("a device signed in through the device flow tells the user, naming the client", async () => {
    const user = await o.makeUser();
    await o.tokensFor(user, "shelf-sync");
    const [item] = (await list(user.jwt)).items;
    expect(item).toMatchObject({ kind: "device_signed_in", data: { clientId: "shelf-sync", clientName: "Shelf Sync", grantId: expect.any(String) } });
  });
});

describe("OAuth authorization", () => {
  test("an authorization code exchanged for tokens tells a new authorization, with the client and scopes; the code's refusal tells nothing", async () => {
    const user = await o.makeUser();
    const redirect = "http://127.0.0.1:53127/oauth/callback";
    const p = pkce();
    const query = authorizeQuery(p.challenge, { redirect_uri: redirect, scope: "kb.read media.read" });
    const location = new URL(await approveAuthorization(o.deps, await checkAuthorizeRequest(o.deps, query), user.id));
    const code = location.searchParams.get("code")!;
    const redeem = (verifier: string) =>
      o.post("/oauth/token", { grant_type: "authorization_code", client_id: "shelf-sync", code, redirect_uri: redirect, code_verifier: verifier });
    expect((await redeem("x".repeat(43))).status).toBe(400);
    expect(await kinds(user.jwt)).toEqual([]);
    expect((await redeem(p.verifier)).status).toBe(200);
    const [item] = (await list(user.jwt)).items;
    expect(item).toMatchObject({
      kind: "oauth_authorized",
      title: "Shelf Sync was authorized to use your account",
      data: { clientId: "shelf-sync", clientName: "Shelf Sync", scopes: ["media.read", "kb.read"], grantId: expect.any(String) },
    });
  });
});

describe("the list", () => {
  test("unread=true, read, read-all and the unread count; cursor pages", async () => {
    const user = await makeUser();
    for (const name of ["a", "b", "c"]) await createKey(user, name);
    const all = await list(user.jwt);
    expect(all.items.map((i) => i.data.name)).toEqual(["c", "b", "a"]);
    expect(all.unreadCount).toBe(3);

    const first = await list(user.jwt, "?limit=2");
    expect(first.items.map((i) => i.data.name)).toEqual(["c", "b"]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list(user.jwt, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((i) => i.data.name)).toEqual(["a"]);
    expect(second.nextCursor).toBeNull();

    const b = all.items[1]!;
    const read = await callJson("POST", `/v1/notifications/${b.id}/read`, { app: w.app, token: user.jwt });
    expect(read.status).toBe(200);
    const readAt: string = read.body.data.readAt;
    expect(read.body.data.id).toBe(b.id);
    expect(readAt).toMatch(ISO);
    w.clock.advance(60_000);
    const again = await callJson("POST", `/v1/notifications/${b.id}/read`, { app: w.app, token: user.jwt });
    expect(again.body.data.readAt).toBe(readAt);

    const unread = await list(user.jwt, "?unread=true");
    expect(unread.items.map((i) => i.data.name)).toEqual(["c", "a"]);
    expect(unread.unreadCount).toBe(2);
    const count = await callJson("GET", "/v1/notifications/unread-count", { app: w.app, token: user.jwt });
    expect(count.status).toBe(200);
    expect(count.body.data).toEqual({ unreadCount: 2 });
    expect((await list(user.jwt)).items).toHaveLength(3);

    const all2 = await callJson("POST", "/v1/notifications/read-all", { app: w.app, token: user.jwt });
    expect(all2.status).toBe(200);
    expect(all2.body.data).toEqual({ marked: 2 });
    expect((await list(user.jwt, "?unread=true")).items).toEqual([]);
    expect((await list(user.jwt)).unreadCount).toBe(0);
    expect((await callJson("GET", "/v1/notifications/unread-count", { app: w.app, token: user.jwt })).body.data).toEqual({ unreadCount: 0 });
    expect((await callJson("POST", "/v1/notifications/read-all", { app: w.app, token: user.jwt })).body.data).toEqual({ marked: 0 });
  });

  test("a key with account.read reads the list; a bad cursor is 400 INVALID_CURSOR", async () => {
    const user = await makeUser();
    await createKey(user);
    const { key } = await makeKey(user, ["account.read"]);
    expect((await list(key)).items.map((i) => i.kind)).toEqual(["api_key_created"]);
    const bad = await callJson("GET", "/v1/notifications?cursor=nope!", { app: w.app, token: key });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_CURSOR");
  });
});

describe("tenancy", () => {
  const notificationOf = async (owner: TestUser) => {
    await createKey(owner);
    return (await list(owner.jwt)).items[0]!.id;
  };

  test("GET /v1/notifications: 401 without credentials, 403 without account.read; another user's items never listed", async () => {
    await expectTenantIsolation({ method: "GET", path: () => "/v1/notifications", scope: "account.read" });
    await expectTenantIsolation({ method: "GET", path: () => "/v1/notifications/unread-count", scope: "account.read" });
    const owner = await makeUser();
    await notificationOf(owner);
    const stranger = await makeUser();
    expect(await list(stranger.jwt)).toEqual({ items: [], nextCursor: null, unreadCount: 0 });
    expect((await callJson("GET", "/v1/notifications/unread-count", { app: w.app, token: stranger.jwt })).body.data).toEqual({ unreadCount: 0 });
  });

  test("POST /v1/notifications/{id}/read: another user's is 404 and stays unread", async () => {
    const { deps } = await testContext();
    await expectTenantIsolation({
      method: "POST",
      path: (id) => `/v1/notifications/${id}/read`,
      scope: "account.read",
      create: notificationOf,
      untouched: async (_owner, id) => {
        const [row] = await deps.db.select().from(notifications).where(eq(notifications.id, id));
        expect(row!.readAt).toBeNull();
      },
    });
  });

  test("POST /v1/notifications/read-all marks the caller's only", async () => {
    const owner = await makeUser();
    await notificationOf(owner);
    const stranger = await makeUser();
    expect((await callJson("POST", "/v1/notifications/read-all", { app: w.app, token: stranger.jwt })).body.data).toEqual({ marked: 0 });
    expect((await list(owner.jwt)).unreadCount).toBe(1);
  });
});
