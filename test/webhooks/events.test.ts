// Events reach the endpoints subscribed to them: an image upload, a video that becomes
// ready, a document's changes (in and out of a KB) and a quota mark, each as
// `{ type, timestamp, data }`, verified by the receiver with the endpoint's secret. An
// endpoint not subscribed to a type, or disabled, is sent nothing of it.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { openTestBranch } from "../branches/fixtures.ts";
import { call, callJson } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { newKb, pushed, upsert } from "../kbs/fixtures.ts";
import { clip, drain, testWorker, uploadVideo } from "../videos/fixtures.ts";
import { closeAll, createEndpoint, receiver, webhookWorld } from "./fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);
afterAll(closeAll);

type Event = { type: string; timestamp: string; data: Record<string, unknown> };

/** What the receiver was sent, each verified with the secret. */
function events(r: ReturnType<typeof receiver>, secret: string): Event[] {
  return r.got.map((g) => new Webhook(secret).verify(g.body, g.headers) as Event);
}

/**
 * Delivers what is due, and this endpoint's deliveries as the API lists them: the deliverer
 * also takes whatever else the shared database holds due (another test's retry, come due
 * as the shared clock moved), so its own counts are not this test's.
 */
async function deliveredTo(w: Awaited<ReturnType<typeof webhookWorld>>, token: string, endpointId: string) {
  await w.deliverShared();
  const res = await w.api("GET", `/v1/webhooks/endpoints/${endpointId}/deliveries`, { token });
  expect(res.status).toBe(200);
  return (res.body.data.items as { status: string; attempts: number }[]).map((d) => ({ status: d.status, attempts: d.attempts }));
}

describe("webhook events", () => {
  test("an image upload is upload.completed, sent only to the endpoint subscribed to it", async () => {
    const w = await webhookWorld();
    const user = await makeUser();
    const r = receiver();
    const other = receiver();
    const ep = await createEndpoint(w, user.jwt, r.url, ["upload.completed"]);
    await createEndpoint(w, user.jwt, other.url, ["video.ready"]);
    const disabled = await createEndpoint(w, user.jwt, other.url, ["upload.completed"]);
    expect((await callJson("PATCH", `/v1/webhooks/endpoints/${disabled.id}`, { token: user.jwt, json: { enabled: false } })).status).toBe(200);
    const image = await uploaded(user.jwt, await png(), { filename: "cat.png" });
    expect(await deliveredTo(w, user.jwt, ep.id)).toEqual([{ status: "delivered", attempts: 1 }]);
    const [e] = events(r, ep.secret);
    expect(e).toMatchObject({ type: "upload.completed", data: { kind: "image", id: image.id, filename: "cat.png" } });
    expect(Number.isNaN(Date.parse(e!.timestamp))).toBe(false);
    expect(other.got).toHaveLength(0);
  });

  test("a video upload and its transcode are upload.completed, then video.ready", async () => {
    const w = await webhookWorld();
    const user = await makeUser({ plan: "pro" });
    const r = receiver();
    const ep = await createEndpoint(w, user.jwt, r.url, ["upload.completed", "video.ready", "video.failed"]);
    const up = await uploadVideo(user.jwt, await clip());
    expect(up.status).toBe(201);
    await drain(await testWorker());
    expect(await deliveredTo(w, user.jwt, ep.id)).toEqual([
      { status: "delivered", attempts: 1 },
      { status: "delivered", attempts: 1 },
    ]);
    const got = events(r, ep.secret).sort((a, b) => a.type.localeCompare(b.type));
    expect(got.map((e) => e.type)).toEqual(["upload.completed", "video.ready"]);
    expect(got[0]!.data).toMatchObject({ kind: "video", id: up.body.data.id });
    expect(got[1]!.data).toMatchObject({ videoId: up.body.data.id });
  });

  test("a corrupt video's transcode is video.failed, with the reason", async () => {
    const w = await webhookWorld();
    const user = await makeUser({ plan: "pro" });
    const r = receiver();
    const ep = await createEndpoint(w, user.jwt, r.url, ["video.ready", "video.failed"]);
    const head = (await clip()).subarray(0, 32);
    const noise = new Uint8Array(20_000).map((_, i) => (i * 7919) % 251);
    const up = await uploadVideo(user.jwt, new Uint8Array([...head, ...noise]));
    expect(up.status).toBe(201);
    await drain(await testWorker());
    await w.deliverShared();
    const [e, ...more] = events(r, ep.secret);
    expect(more).toEqual([]);
    expect(e).toMatchObject({ type: "video.failed", data: { videoId: up.body.data.id } });
    expect(String(e!.data.reason)).toMatch(/could not be read|failed/);
  });

  test("a document's creation, change and deletion are document.changed, with the KB and path when in one", async () => {
    const w = await webhookWorld();
    const user = await makeUser();
    const r = receiver();
    const ep = await createEndpoint(w, user.jwt, r.url, ["document.changed"]);
    const doc = await callJson("POST", "/v1/docs", { token: user.jwt, json: { filename: "note.md", content: "# Note\n" } });
    expect(doc.status).toBe(201);
    expect((await call("DELETE", `/v1/docs/${doc.body.data.id}`, { token: user.jwt })).status).toBe(204);
    const kb = await newKb(user.jwt);
    const first = await pushed(user.jwt, kb.id, [upsert("notes/a.md", "first\n")]);
    await pushed(user.jwt, kb.id, [upsert("notes/a.md", "second\n", first.applied[0]!.updatedAt)]);
    await w.deliverShared();
    const got = events(r, ep.secret).map((e) => ({ type: e.type, ...e.data }));
    expect(got).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "document.changed", change: "created", documentId: doc.body.data.id, kbId: null }),
        expect.objectContaining({ type: "document.changed", change: "deleted", documentId: doc.body.data.id }),
        expect.objectContaining({ type: "document.changed", change: "created", documentId: first.applied[0]!.id, kbId: kb.id, path: "notes/a.md" }),
        expect.objectContaining({ type: "document.changed", change: "updated", documentId: first.applied[0]!.id, kbId: kb.id, path: "notes/a.md" }),
      ]),
    );
    expect(got).toHaveLength(4);
  });

  test("a sync batch of several documents sends one document.changed each", async () => {
    const w = await webhookWorld();
    const user = await makeUser();
    const r = receiver();
    const ep = await createEndpoint(w, user.jwt, r.url, ["document.changed"]);
    const kb = await newKb(user.jwt);
    const out = await pushed(user.jwt, kb.id, [upsert("a.md", "a\n"), upsert("b.md", "b\n"), upsert("c/d.md", "d\n")]);
    await w.deliverShared();
    const got = events(r, ep.secret).map((e) => [e.data.change, e.data.documentId, e.data.path]);
    expect(got.sort((x, y) => String(x[2]).localeCompare(String(y[2])))).toEqual(out.applied.map((a) => ["created", a.id, a.relativePath]));
  });

  test("a conflict branch kept in a KB is kb.conflict, with the KB, document and path", async () => {
    const w = await webhookWorld();
    const user = await makeUser();
    const r = receiver();
    const ep = await createEndpoint(w, user.jwt, r.url, ["kb.conflict"]);
    const kb = await newKb(user.jwt);
    const first = await pushed(user.jwt, kb.id, [upsert("a.md", "mine\n")]);
    const branch = await openTestBranch(user.id, kb.id, "a.md", "theirs\n");
    await w.deliverShared();
    expect(events(r, ep.secret)).toEqual([
      expect.objectContaining({ type: "kb.conflict", data: { branchId: branch.id, kbId: kb.id, docId: first.applied[0]!.id, relativePath: "a.md" } }),
    ]);
  });

  test("a quota crossing 80% and then 100% is quota.threshold, once each", async () => {
    const w = await webhookWorld(true, { trial: { imageStorageBytes: 1000, docCount: -1 } });
    const user = await makeUser();
    const r = receiver();
    const ep = await createEndpoint(w, user.jwt, r.url, ["quota.threshold"]);
    const upload = (bytes: number) =>
      w.api("POST", "/v1/docs", { token: user.jwt, json: { filename: `${crypto.randomUUID()}.md`, content: `${crypto.randomUUID()}\n`.padEnd(bytes, "x") } });
    expect((await upload(400)).status).toBe(201);
    expect((await upload(400)).status).toBe(201);
    expect((await upload(100)).status).toBe(201);
    expect((await upload(100)).status).toBe(201);
    await w.deliverShared();
    const got = events(r, ep.secret);
    // Queued at one instant of a stopped clock: sent in either order.
    expect(got.map((e) => [e.type, e.data.dimension, e.data.mark]).sort((a, b) => Number(a[2]) - Number(b[2]))).toEqual([
      ["quota.threshold", "img_storage", 80],
      ["quota.threshold", "img_storage", 100],
    ]);
  });
});
