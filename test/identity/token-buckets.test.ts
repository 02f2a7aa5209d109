// The plan's token buckets as clients meet them: past a bucket's burst, 429 RATE_LIMITED
// naming the bucket, Retry-After exact from the refill, nothing done or stored; after the
// clock moves by that much, the same request passes. Each app here is the shared parts on
// a stopped clock of its own, with plans whose buckets are small and slow: on Redis a
// bucket's key expires (on Redis's clock) when it would be full, which for these is
// tens of seconds, far longer than a test takes.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { buildPlans, type PlanOverrides } from "../../src/modules/identity/public.ts";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { png, uploadForm } from "../images/fixtures.ts";
import { newKb, upsert } from "../kbs/fixtures.ts";
import { ALL_SCOPES, connect, deviceTokens } from "../mcp/helpers.ts";
import { oauthApp } from "../oauth/flow.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

async function bucketApp(plans: PlanOverrides) {
  const { deps } = await testContext();
  const clock = stoppedClock(deps.clock.nowMs());
  const services = createServices({ ...deps, clock, plans: buildPlans(plans) });
  afterAll(() => services.close());
  return { clock, app: createApp(services) };
}

/** A tus creation (no body): how a resumable upload of `kind` starts. Its status, and the envelope of a refusal. */
async function tusCreate(app: Awaited<ReturnType<typeof bucketApp>>["app"], key: string, kind: string, filename: string) {
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  const res = await call("POST", "/v1/uploads", {
    app,
    token: key,
    headers: { "tus-resumable": "1.0.0", "upload-length": "1000", "upload-metadata": `kind ${b64(kind)},filename ${b64(filename)}` },
  });
  return { status: res.status, headers: res.headers, body: res.status === 201 ? undefined : await res.json() };
}

describe("token buckets", () => {
  test("uploads past the burst are 429 RATE_LIMITED with the refill's Retry-After, store nothing, and pass once the clock has moved", async () => {
    const { app, clock } = await bucketApp({ trial: { uploadBurst: 2, uploadRefillPerMinute: 2 } });
    const { key } = await makeClient();
    const image = await png();
    const upload = () => callJson("POST", "/v1/images", { app, token: key, body: uploadForm(image, { filename: "a.png" }) });
    expect((await upload()).status).toBe(201);
    expect((await upload()).status).toBe(201);
    const over = await upload();
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ success: false, code: "RATE_LIMITED" });
    expect(over.body.meta).toEqual({ bucket: "upload", capacity: 2, refillPerMinute: 2, cost: 1, retryAfterMs: 30_000 });
    // 2 a minute: the next token is 30 s away, on this app's clock.
    expect(over.headers.get("retry-after")).toBe("30");
    expect(over.headers.get("ratelimit-limit")).toBe("2");
    expect(over.headers.get("ratelimit-remaining")).toBe("0");
    // A document upload draws on the same bucket.
    const doc = await callJson("POST", "/v1/docs", { app, token: key, json: { filename: "n.md", content: "# n" } });
    expect(doc.status).toBe(429);
    expect(doc.body.meta.bucket).toBe("upload");

    clock.advance(29_999);
    const early = await upload();
    expect(early.status).toBe(429);
    expect(early.headers.get("retry-after")).toBe("1");
    clock.advance(1);
    expect((await upload()).status).toBe(201);
    // What was refused stored nothing: three images, not five.
    const list = await callJson("GET", "/v1/images", { app, token: key });
    expect(list.body.data.total).toBe(3);
  });

  test("a tus video upload's creation spends an upload and a transcode; past the transcode bucket both video routes are refused before the body", async () => {
    const { app, clock } = await bucketApp({ pro: { transcodeBurst: 1, transcodeRefillPerMinute: 2 } });
    const { key } = await makeClient({ plan: "pro" });
    expect((await tusCreate(app, key, "video", "a.mp4")).status).toBe(201);
    const tus = await tusCreate(app, key, "video", "b.mp4");
    expect(tus.status).toBe(429);
    expect(tus.body.meta).toMatchObject({ bucket: "transcode", capacity: 1, refillPerMinute: 2 });
    expect(tus.headers.get("retry-after")).toBe("30");
    // The direct upload route: refused before a byte of the (not even a video) body is read.
    const direct = await callJson("POST", "/v1/videos", { app, token: key, body: uploadForm("not a video", { filename: "c.mp4" }) });
    expect(direct.status).toBe(429);
    expect(direct.body.meta.bucket).toBe("transcode");
    // Audio and images draw on the upload bucket only.
    expect((await tusCreate(app, key, "audio", "a.mp3")).status).toBe(201);
    clock.advance(30_000);
    expect((await tusCreate(app, key, "video", "b.mp4")).status).toBe(201);
  });

  test("a sync push costs one token per op: a push of more ops than are left is refused whole, nothing applied", async () => {
    const { app, clock } = await bucketApp({ trial: { syncOpBurst: 5, syncOpRefillPerMinute: 6 } });
    const { key } = await makeClient();
    const kb = await newKb(key);
    const push = (names: string[]) =>
      callJson("POST", `/v1/kbs/${kb.id}/sync`, { app, token: key, json: { ops: names.map((n) => upsert(`${n}.md`, `# ${n}`)) } });
    expect((await push(["a", "b", "c"])).status).toBe(200);
    const over = await push(["d", "e", "f"]);
    expect(over.status).toBe(429);
    expect(over.body.meta).toEqual({ bucket: "syncOp", capacity: 5, refillPerMinute: 6, cost: 3, retryAfterMs: 10_000 });
    expect(over.headers.get("retry-after")).toBe("10");
    const docs = await callJson("GET", `/v1/kbs/${kb.id}/manifest`, { app, token: key });
    expect(docs.body.data.items.map((e: { relativePath: string }) => e.relativePath).sort()).toEqual(["a.md", "b.md", "c.md"]);
    clock.advance(10_000);
    expect((await push(["d", "e", "f"])).status).toBe(200);
  });
});

describe("token buckets on the hosted MCP server", () => {
  test("a tool call past the mcpCall bucket is a tool error naming it and its wait; the API itself is not refused", async () => {
    const o = await oauthApp(() => ({ plans: buildPlans({ trial: { mcpCallBurst: 2, mcpCallRefillPerMinute: 1 } }) }));
    const user = await o.makeUser();
    const client = await connect(o, (await deviceTokens(o, user, { scope: ALL_SCOPES })).access_token);
    for (let i = 0; i < 2; i++) expect((await client.callTool({ name: "list_knowledge_bases", arguments: {} })).isError).toBeFalsy();
    const refused = (await client.callTool({ name: "list_knowledge_bases", arguments: {} })) as { isError?: boolean; content: { text: string }[] };
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toContain("RATE_LIMITED (the mcpCall bucket)");
    expect(refused.content[0]!.text).toContain("try again in 60 s");
    // The API itself is not refused: the bucket is the tool calls', not the user's reads.
    expect((await o.api("GET", "/v1/kbs", user.jwt)).status).toBe(200);
    o.clock.advance(60_000);
    expect((await client.callTool({ name: "list_knowledge_bases", arguments: {} })).isError).toBeFalsy();
    await client.close();
  });
});
