// No upload may stall a node: upload bodies count against a per-node memory budget (past
// it, 503 with Retry-After), the whole body has a deadline (408), and a client that hangs
// up mid-upload is logged at info, not as an error.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import type { Deps } from "../../src/wiring/deps.ts";
import { createBudget } from "../../src/infra/budget.ts";
import { createBufferPool } from "../../src/infra/buffer-pool.ts";
import type { Log } from "../../src/infra/log.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { png } from "../images/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const encoder = new TextEncoder();

/** A multipart body whose file part is `file`, sent in two steps: the head now, the rest when `finish` is called. */
function heldUpload(file: Uint8Array) {
  const boundary = `----held${crypto.randomUUID()}`;
  const head = encoder.encode(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="held.png"\r\ncontent-type: image/png\r\n\r\n`);
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  let finish!: () => void;
  const gate = new Promise<void>((r) => (finish = r));
  let started!: () => void;
  const reading = new Promise<void>((r) => (started = r));
  let step = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        if (step === 0) {
          started();
          c.enqueue(head);
        } else if (step === 1) {
          await gate;
          c.enqueue(file);
        } else if (step === 2) c.enqueue(tail);
        else c.close();
        step++;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, boundary, length: head.length + file.length + tail.length, finish, reading };
}

async function appWith(patch: (deps: Deps) => Partial<Deps>) {
  const { deps, services } = await testContext();
  const patched = { ...deps, ...patch(deps) };
  return { app: createApp({ ...services, deps: patched }), deps: patched };
}

const post = (app: ReturnType<typeof createApp>, key: string, body: BodyInit, headers: Record<string, string>) =>
  app.handle(new Request("http://shelf.test/v1/images", { method: "POST", headers: { authorization: `Bearer ${key}`, ...headers }, body }));

describe("uploads: per-node memory budget", () => {
  test("past the node's upload memory an upload gets 503 with Retry-After; the memory comes back when the first one ends", async () => {
    const image = await png();
    const uploadMemory = createBudget({ name: "upload memory", capacity: 2 * 1024 * 1024, maxWaitMs: 0 });
    const { app } = await appWith((deps) => ({ budgets: { ...deps.budgets, uploadMemory } }));
    const { key } = await makeClient();

    const first = heldUpload(image);
    const firstRes = post(app, key, first.stream, { "content-type": `multipart/form-data; boundary=${first.boundary}`, "content-length": String(1536 * 1024) });
    await first.reading; // the first upload holds its 1.5 MB from here
    expect(uploadMemory.usage().used).toBe(1536 * 1024);

    const second = heldUpload(image);
    const refused = await post(app, key, second.stream, {
      "content-type": `multipart/form-data; boundary=${second.boundary}`,
      "content-length": String(1024 * 1024),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    const body = (await refused.json()) as any;
    expect(body).toMatchObject({ success: false, code: "SERVICE_UNAVAILABLE", meta: { budget: "upload memory" } });

    first.finish();
    expect((await firstRes).status).toBe(201);
    expect(uploadMemory.usage()).toEqual({ used: 0, holders: 0, queued: 0 });

    const third = heldUpload(image);
    third.finish();
    const ok = await post(app, key, third.stream, {
      "content-type": `multipart/form-data; boundary=${third.boundary}`,
      "content-length": String(third.length),
    });
    expect(ok.status).toBe(201);
  });

  test("a chunked upload (no Content-Length) reserves the whole limit; a refused or failed upload gives its reservation back", async () => {
    const uploadMemory = createBudget({ name: "upload memory", capacity: 64 * 1024 * 1024, maxWaitMs: 0 });
    const { app } = await appWith((deps) => ({ budgets: { ...deps.budgets, uploadMemory } }));
    const { key } = await makeClient();
    const held = heldUpload(new TextEncoder().encode("not an image at all"));
    const res = post(app, key, held.stream, { "content-type": `multipart/form-data; boundary=${held.boundary}` });
    await held.reading;
    expect(uploadMemory.usage().used).toBeGreaterThanOrEqual(50 * 1000 * 1000);
    held.finish();
    expect((await res).status).toBe(422);
    expect(uploadMemory.usage().used).toBe(0);
  });
});

describe("uploads: total body deadline", () => {
  test("a body that has not arrived by the deadline is 408 REQUEST_TIMEOUT; nothing stored or counted, memory released", async () => {
    const { app, deps } = await appWith((deps) => ({ config: { ...deps.config, UPLOAD_BODY_TIMEOUT_S: 0.05 } }));
    const { user, key } = await makeClient();
    const held = heldUpload(await png()); // never finished: a client trickling forever
    const res = await post(app, key, held.stream, { "content-type": `multipart/form-data; boundary=${held.boundary}`, "content-length": String(held.length) });
    expect(res.status).toBe(408);
    expect(res.headers.get("connection")).toBe("close");
    expect(((await res.json()) as any).code).toBe("REQUEST_TIMEOUT");
    expect(deps.budgets.uploadMemory.usage().used).toBe(0);
    const keys: string[] = [];
    for await (const o of deps.storage.list(`images/${user.id}/`)) keys.push(o.key);
    expect(keys).toEqual([]);
    const usage = await callJson("GET", "/v1/user/me/usage", { token: key });
    expect(usage.body.data.uploads.day.used).toBe(0);
  });
});

describe("uploads: a client that hangs up", () => {
  test("is logged at info with the request id, never as an unhandled error", async () => {
    const infos: { msg: string; fields?: Record<string, unknown> }[] = [];
    const errors: { msg: string; fields?: Record<string, unknown> }[] = [];
    let logged!: () => void;
    const aborted = new Promise<void>((r) => (logged = r));
    const { app } = await appWith((deps) => {
      const log: Log = {
        ...deps.log,
        info: (msg, fields) => {
          infos.push({ msg, fields });
          if (msg.includes("aborted")) logged();
        },
        error: (msg, fields) => errors.push({ msg, fields }),
        child: () => log,
      };
      return { log };
    });
    const { key } = await makeClient();
    const server = app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const boundary = "----gone";
      const socket = await Bun.connect({ hostname: "127.0.0.1", port: server.server!.port!, socket: { data() {} } });
      socket.write(
        `POST /v1/images HTTP/1.1\r\nhost: shelf.test\r\nauthorization: Bearer ${key}\r\nx-request-id: gone-123\r\n` +
          `content-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: 100000\r\n\r\n` +
          `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.png"\r\n\r\nsome bytes`,
      );
      socket.flush();
      socket.end();
      await aborted;
      expect(infos.find((i) => i.msg.includes("aborted"))?.fields?.requestId).toBe("gone-123");
      expect(errors).toEqual([]);
    } finally {
      await server.stop(true);
    }
  });
});

describe("budget", () => {
  test("queues in arrival order and grants as units come back; a request larger than the whole runs alone", async () => {
    const b = createBudget({ name: "t", capacity: 10, maxHolders: 2, maxWaitMs: 60_000 });
    const order: string[] = [];
    const r1 = await b.acquire(6);
    const p2 = b.acquire(6).then((r) => (order.push("second"), r));
    const p3 = b.acquire(1).then((r) => (order.push("third"), r)); // fits, but waits its turn
    expect(b.usage()).toEqual({ used: 6, holders: 1, queued: 2 });
    r1();
    const r2 = await p2;
    const r3 = await p3;
    expect(order).toEqual(["second", "third"]);
    expect(b.usage()).toEqual({ used: 7, holders: 2, queued: 0 });
    const big = b.acquire(1000); // clamped to the capacity
    expect(b.usage().queued).toBe(1);
    r2();
    r3();
    r3(); // releasing twice changes nothing
    const rb = await big;
    expect(b.usage()).toEqual({ used: 10, holders: 1, queued: 0 });
    rb();
    expect(b.usage()).toEqual({ used: 0, holders: 0, queued: 0 });
  });

  test("at most maxHolders at once, whatever the units", async () => {
    const b = createBudget({ name: "t", capacity: 100, maxHolders: 1, maxWaitMs: 0 });
    const r = await b.acquire(0);
    await expect(b.acquire(0)).rejects.toMatchObject({ name: "BudgetBusyError", budget: "t", retryAfterS: 1 });
    r();
    (await b.acquire(0))();
  });
});

describe("buffer pool", () => {
  test("a buffer given back is taken again by the next body that fits, the smallest that fits first", () => {
    const pool = createBufferPool(64 * 1024 * 1024);
    const big = pool.take(10 * 1024 * 1024);
    const small = pool.take(100);
    expect(small.length).toBe(1024 * 1024); // whole MiB steps
    pool.give(big);
    pool.give(small);
    expect(pool.kept()).toBe(11 * 1024 * 1024);
    expect(pool.take(500)).toBe(small);
    expect(pool.take(2 * 1024 * 1024)).toBe(big);
    expect(pool.kept()).toBe(0);
  });

  test("keeps at most its limit, dropping the largest first", () => {
    const pool = createBufferPool(3 * 1024 * 1024);
    const a = pool.take(1);
    const b = pool.take(2 * 1024 * 1024);
    const c = pool.take(2 * 1024 * 1024);
    pool.give(a);
    pool.give(b);
    pool.give(c);
    expect(pool.kept()).toBe(3 * 1024 * 1024);
    expect(pool.take(1)).toBe(a);
  });

  test("an upload reads into a pooled buffer and gives it back when it is done", async () => {
    const uploadBuffers = createBufferPool(64 * 1024 * 1024);
    const { app } = await appWith((deps) => ({ budgets: { ...deps.budgets, uploadBuffers } }));
    const { key } = await makeClient();
    const held = heldUpload(await png());
    held.finish();
    const res = await post(app, key, held.stream, { "content-type": `multipart/form-data; boundary=${held.boundary}`, "content-length": String(held.length) });
    expect(res.status).toBe(201);
    expect(uploadBuffers.kept()).toBeGreaterThanOrEqual(held.length);
  });
});
