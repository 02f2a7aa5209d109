// What the log tells an operator (docs/operators.md, "Logs"): one access line per request
// with the request id the client got and who asked, and never a credential, a query or a
// signed URL's signature; the start, progress and end of every job run and transcode; and
// the loops that found nothing to do at debug. Lines are read from a captured log; the
// access line is written after the answer is made, so each is awaited, never looked for.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createJobRunner } from "../../jobs/runner.ts";
import { deliverOutboxJob } from "../../src/modules/notifications/deliver-outbox.job.ts";
import type { Job } from "../../src/core/job.ts";
import { createApp } from "../../src/wiring/app.ts";
import { loadConfig } from "../../src/config.ts";
import { transcodeJobs } from "../../src/modules/videos/table.ts";
import { call, callJson, testContext, testEnv } from "../helpers/context.ts";
import { makeClient, makeUser } from "../helpers/factories.ts";
import { captureLog, type LogLine } from "../helpers/log-capture.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { clip, drain, testWorker, uploadVideo } from "../videos/fixtures.ts";
import { storedVideo } from "../videos/playback-fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** The shared app's parts with a captured log, and an app on them (`access`: its ACCESS_LOG). */
async function logged(access: "info" | "debug" | "off" = "info") {
  const { deps, services } = await testContext();
  const cap = captureLog();
  const world = { ...deps, log: cap.log, config: { ...deps.config, ACCESS_LOG: access } };
  return { ...cap, deps: world, app: createApp({ ...services, deps: world }) };
}

const shared = await logged();
const servers: Bun.Server<unknown>[] = [];
afterAll(async () => {
  for (const s of servers) void s.stop(true);
});

/** The shared app on a port of its own: Bun serves the edge's paths without Elysia there. */
function listening(): string {
  const server = shared.app.listen({ port: 0, hostname: "127.0.0.1" }).server!;
  servers.push(server);
  return `http://127.0.0.1:${server.port}`;
}

/** The access line of the answer `res` (by the request id it carries). */
const accessLine = (res: Response, from = shared) => from.next((l) => l.msg === "request" && l.requestId === res.headers.get("x-request-id"));
const rawLine = (line: LogLine, from = shared) => from.raw[from.lines.indexOf(line)]!;

describe("the access line", () => {
  test("an API key's request: method, route pattern (not the id), status, ms, bytes sent, the request id answered, the user and how", async () => {
    const { user, key } = await makeClient();
    const image = await uploaded(key, await png());
    const res = await call("GET", `/v1/images/${image.id}?fields=all`, { app: shared.app, token: key });
    expect(res.status).toBe(200);
    const body = await res.arrayBuffer();
    const line = await accessLine(res);
    expect(line).toMatchObject({ level: "info", method: "GET", route: "/v1/images/:id", status: 200, bytes: body.byteLength, userId: user.id, via: "api_key" });
    expect(line.requestId).toBe(res.headers.get("x-request-id")!);
    expect(line.ms).toBeNumber();
    expect(line.ms as number).toBeGreaterThanOrEqual(0);
    const raw = rawLine(line);
    expect(raw).not.toContain(image.id);
    expect(raw).not.toContain("fields=all");
    expect(raw).not.toContain(key);
  });

  test("the client's own x-request-id is the line's; a session's request says jwt; the Authorization header is nowhere in it", async () => {
    const user = await makeUser();
    const res = await call("GET", "/v1/user/me", { app: shared.app, token: user.jwt, headers: { "x-request-id": "client-chosen-42" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("client-chosen-42");
    const line = await accessLine(res);
    expect(line).toMatchObject({ method: "GET", route: "/v1/user/me", status: 200, requestId: "client-chosen-42", userId: user.id, via: "jwt" });
    expect(line).not.toHaveProperty("keyId");
    const raw = rawLine(line);
    expect(raw).not.toContain(user.jwt);
    expect(raw).not.toContain(user.jwt.split(".")[2]!);
    expect(raw.toLowerCase()).not.toContain("bearer");
    expect(raw.toLowerCase()).not.toContain("authorization");
  });

  test("a credential that does not hold: 401, no principal, and the token is not in the line", async () => {
    const token = "shk_live_not-a-real-key-0123456789abcdefghij";
    const res = await call("GET", "/v1/images", { app: shared.app, token });
    expect(res.status).toBe(401);
    const line = await accessLine(res);
    expect(line).toMatchObject({ method: "GET", route: "/v1/images", status: 401, bytes: (await res.arrayBuffer()).byteLength });
    expect(line).not.toHaveProperty("userId");
    expect(rawLine(line)).not.toContain("not-a-real-key");
  });

  test("a path no route matches: 404, the path without its query (no token= in the line)", async () => {
    const res = await call("GET", "/v1/no-such-thing/here?token=query-secret-77&x=1", { app: shared.app });
    expect(res.status).toBe(404);
    const line = await accessLine(res);
    expect(line).toMatchObject({ method: "GET", route: "/v1/no-such-thing/here", status: 404, bytes: (await res.arrayBuffer()).byteLength });
    expect(rawLine(line)).not.toContain("query-secret-77");
    expect(rawLine(line)).not.toContain("token=");
  });

  test("a matched route's query string is not in the line either", async () => {
    const res = await call("GET", "/health?token=query-secret-78", { app: shared.app });
    const line = await accessLine(res);
    expect(line).toMatchObject({ route: "/health", status: res.status });
    expect(rawLine(line)).not.toContain("query-secret-78");
  });

  test("a validation failure (422) and a handler's 201 are logged with the status the client got", async () => {
    const { key } = await makeClient();
    const bad = await call("GET", "/v1/images?limit=500", { app: shared.app, token: key });
    expect(bad.status).toBe(422);
    expect(await accessLine(bad)).toMatchObject({ route: "/v1/images", status: 422 });
    const form = new FormData();
    form.append("file", new Blob([(await png()) as BlobPart], { type: "image/png" }), "a.png");
    const created = await call("POST", "/v1/images", { app: shared.app, token: key, body: form });
    expect(created.status).toBe(201);
    expect(await accessLine(created)).toMatchObject({ method: "POST", route: "/v1/images", status: 201, bytes: (await created.arrayBuffer()).byteLength });
  });

  test("a signed playback URL, through the app and through the listening server's edge route: the signature and the video id are not in the line", async () => {
    const owner = await makeUser({ plan: "pro" });
    const v = await storedVideo(owner.id, { isPublic: false });
    const signed = await callJson("POST", `/v1/videos/${v.id}/sign`, { app: shared.app, token: owner.jwt, json: {} });
    expect(signed.status).toBe(200);
    const url = new URL(signed.body.data.url as string);
    const signature = url.pathname.split("/").at(-2)!;
    expect(signature).toMatch(/^s\.\d+\./);

    const viaApp = await call("GET", url.pathname, { app: shared.app });
    expect(viaApp.status).toBe(200);
    const a = await accessLine(viaApp);
    expect(a).toMatchObject({ method: "GET", route: "/media/*", status: 200, bytes: (await viaApp.arrayBuffer()).byteLength });

    const viaServer = await fetch(`${listening()}${url.pathname}`, { headers: { "x-request-id": "edge-signed-1" } });
    expect(viaServer.status).toBe(200);
    const sent = (await viaServer.arrayBuffer()).byteLength;
    const b = await accessLine(viaServer);
    expect(b).toMatchObject({ method: "GET", route: "/media/*", status: 200, bytes: sent, requestId: "edge-signed-1" });
    for (const line of [a, b]) {
      const raw = rawLine(line);
      expect(raw).not.toContain(signature);
      expect(raw).not.toContain(signature.split(".")[2]!);
      expect(raw).not.toContain(v.id);
    }
  });

  test("the edge on the listening server: an owner-only image read with the owner's key names the owner; an unknown object is a 404 line", async () => {
    const { user, key } = await makeClient();
    const image = await uploaded(key, await png(), { is_public: "false" });
    const base = listening();
    const res = await fetch(`${base}${new URL(image.url).pathname}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const line = await accessLine(res);
    expect(line).toMatchObject({ route: "/media/*", status: 200, bytes: Number(res.headers.get("content-length")), userId: user.id, via: "api_key" });
    expect(rawLine(line)).not.toContain(key);
    const missing = await fetch(`${base}/media/AAAAAAAAAAA.webp`);
    expect(missing.status).toBe(404);
    expect(await accessLine(missing)).toMatchObject({ route: "/media/*", status: 404, bytes: (await missing.arrayBuffer()).byteLength });
  });

  test("ACCESS_LOG=debug writes the line at debug; ACCESS_LOG=false writes none (true and false read as info and off)", async () => {
    expect(loadConfig(testEnv({ ACCESS_LOG: "false" })).ACCESS_LOG).toBe("off");
    expect(loadConfig(testEnv({ ACCESS_LOG: "true" })).ACCESS_LOG).toBe("info");
    expect(loadConfig(testEnv()).ACCESS_LOG).toBe("info");
    expect(() => loadConfig(testEnv({ ACCESS_LOG: "loud" }))).toThrow(/ACCESS_LOG/);

    const debug = await logged("debug");
    const res = await call("GET", "/health", { app: debug.app });
    expect(await accessLine(res, debug)).toMatchObject({ level: "debug", route: "/health" });

    // Off, then on, on one log: the second request's line comes after where the first's would be.
    const { services } = await testContext();
    const off = createApp({ ...services, deps: { ...debug.deps, config: { ...debug.deps.config, ACCESS_LOG: "off" } } });
    const quiet = await call("GET", "/health", { app: off });
    const loud = await call("GET", "/health", { app: debug.app });
    await accessLine(loud, debug);
    expect(debug.lines.filter((l) => l.msg === "request").map((l) => l.requestId)).toEqual([res.headers.get("x-request-id"), loud.headers.get("x-request-id")]);
    expect(debug.raw.join("")).not.toContain(quiet.headers.get("x-request-id")!);
  });
});

describe("job lines", () => {
  test("a run: started, its progress, finished with counts and duration, every line with the job and the run id", async () => {
    const { deps, ...cap } = await logged();
    const job: Job = {
      name: `log-test-${crypto.randomUUID()}`,
      schedule: "0 0 1 1 *",
      description: "a job of this test",
      async run({ log, progress }) {
        progress?.({ done: 1 }, { step: 1, steps: 2 });
        log.info("a line of the job's own");
        progress?.({ done: 2 }, { step: 2, steps: 2 });
        return { summary: "did 2", counts: { done: 2 } };
      },
    };
    const run = await createJobRunner(deps, [job]).runNow(job.name);
    expect(run.outcome).toBe("ok");
    const mine = cap.lines.filter((l) => l.job === job.name);
    expect(mine.map((l) => [l.level, l.msg])).toEqual([
      ["info", "job started"],
      ["info", "job progress"],
      ["info", "a line of the job's own"],
      ["info", "job progress"],
      ["info", "job finished"],
    ]);
    for (const l of mine) expect(l.runId).toBe(run.id);
    expect(mine[1]).toMatchObject({ counts: { done: 1 }, step: 1, steps: 2 });
    expect(mine.at(-1)).toMatchObject({ trigger: "manual", outcome: "ok", summary: "did 2", counts: { done: 2 } });
    expect(mine.at(-1)!.ms).toBeNumber();
  });

  test("a run that fails: job failed at error, with the run id, the duration and the error", async () => {
    const { deps, ...cap } = await logged();
    const job: Job = {
      name: `log-test-${crypto.randomUUID()}`,
      schedule: "0 0 1 1 *",
      description: "a job of this test that fails",
      async run() {
        throw new Error("the disk is on fire");
      },
    };
    const run = await createJobRunner(deps, [job]).runNow(job.name);
    expect(run.outcome).toBe("failed");
    const failed = cap.lines.find((l) => l.job === job.name && l.msg === "job failed")!;
    expect(failed).toMatchObject({ level: "error", runId: run.id, outcome: "failed", err: { message: "the disk is on fire" } });
    expect(failed.ms).toBeNumber();
  });

  test("the outbox every minute with nothing to send: its scheduled run starts and finishes at debug, never at info", async () => {
    const { deps, ...cap } = await logged();
    const runner = createJobRunner(deps, [deliverOutboxJob]);
    // Two scheduled minutes of its own (far from any other test's): the first sends what
    // other tests may have left queued, the second finds nothing.
    const minute = Date.UTC(2100, 0, 1) + Math.floor(Math.random() * 500_000) * 60_000;
    await runner.runScheduled(deliverOutboxJob.name, new Date(minute));
    const second = (await runner.runScheduled(deliverOutboxJob.name, new Date(minute + 60_000)))!;
    expect(second.counts).toEqual({ sent: 0, retrying: 0, failed: 0, suppressed: 0 });
    const lines = cap.lines.filter((l) => l.runId === second.id);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ["debug", "job started"],
      ["debug", "job finished"],
    ]);
    expect(lines[1]).toMatchObject({ job: "deliver-outbox", trigger: "schedule", summary: "nothing to send" });
  });
});

describe("transcode lines and progress", () => {
  test("a transcode: started, progress that a status poll sees strictly between 0 and 1 while it works, finished ready; each with the video and job id", async () => {
    const { deps, app, ...cap } = await logged();
    const { key } = await makeClient({ plan: "pro" });
    const up = await uploadVideo(key, await clip({ seconds: 5 }));
    expect(up.status).toBe(201);
    const id = up.body.data.id as string;
    // Each progress the worker writes is awaited: the poll runs while the transcode waits, never racing it.
    const polled: { status: string; progress: number; video: number }[] = [];
    const worker = await testWorker({
      deps,
      deliver: (req) => app.handle(req),
      onProgress: async (videoId) => {
        if (videoId !== id) return;
        const s = await callJson("GET", `/v1/videos/${id}/status`, { app, token: key });
        // The video itself says the same while it is processing.
        const v = await callJson("GET", `/v1/videos/${id}`, { app, token: key });
        polled.push({ ...s.body.data, video: v.body.data.progress });
      },
    });
    await drain(worker);

    const moving = polled.filter((s) => s.status === "processing" && s.progress > 0 && s.progress < 1);
    for (const s of moving) expect(s.video).toBe(s.progress);
    expect(moving.length).toBeGreaterThanOrEqual(2);
    const values = moving.map((s) => s.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    expect((await callJson("GET", `/v1/videos/${id}/status`, { app, token: key })).body.data).toEqual({ status: "ready", progress: 1, eta_seconds: 0 });

    const [job] = await deps.db.select().from(transcodeJobs).where(eq(transcodeJobs.videoId, id));
    const lines = cap.lines.filter((l) => l.videoId === id);
    const worked = lines.filter((l) => l.msg.startsWith("transcode"));
    expect(worked[0]).toMatchObject({ level: "info", msg: "transcode started", videoId: id, jobId: job!.id, provider: "local", attempt: 1 });
    expect(worked.at(-1)).toMatchObject({ level: "info", msg: "transcode finished", videoId: id, jobId: job!.id, outcome: "ready" });
    expect(worked.at(-1)!.ms).toBeNumber();
    const progress = worked.filter((l) => l.msg === "transcode progress");
    expect(progress.length).toBeGreaterThanOrEqual(values.length);
    for (const l of progress) {
      expect(l.jobId).toBe(job!.id);
      expect(l.progress as number).toBeGreaterThan(0);
      expect(l.progress as number).toBeLessThan(1);
    }
    expect(progress.some((l) => l.level === "info")).toBe(true);
    // The API's side: the state the callback moved it to.
    expect(lines.find((l) => l.msg === "video ready")).toMatchObject({ level: "info", provider: "local", eventId: `transcode:${job!.id}` });
  }, 60_000);

  test("a file that is not a video: transcode finished, outcome failed, with the reason", async () => {
    const { deps, app, ...cap } = await logged();
    const { key } = await makeClient({ plan: "pro" });
    const head = (await clip()).subarray(0, 32);
    const noise = new Uint8Array(20_000).map((_, i) => (i * 7919) % 251);
    const up = await uploadVideo(key, new Uint8Array([...head, ...noise]));
    const id = up.body.data.id as string;
    await drain(await testWorker({ deps, deliver: (req) => app.handle(req) }));
    const finished = cap.lines.find((l) => l.videoId === id && l.msg === "transcode finished")!;
    expect(finished).toMatchObject({ level: "info", outcome: "failed", reason: expect.stringMatching(/could not be read|failed/) });
    expect(cap.lines.find((l) => l.videoId === id && l.msg === "video failed")).toMatchObject({ reason: finished.reason });
  }, 60_000);
});
