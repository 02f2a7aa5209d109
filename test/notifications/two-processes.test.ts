// Quota e-mails "at most once", across processes: two worker processes on the same database drain
// the outbox at the same moment (each waits for a "go" after it has started), and every
// message reaches the SMTP server exactly once. Real parts only: embedded PGlite belongs to
// one process.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { notify } from "../../src/modules/notifications/public.ts";
import { outbox } from "../../src/modules/notifications/table.ts";
import { testContext, testEnv } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { startSmtp, type TestSmtp } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const realParts = !!(process.env.DATABASE_URL && process.env.REDIS_URL);
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.close());

/** A child's stdout, line by line: `next(want)` resolves with the first line to match. */
function lines(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  return async function next(want: (l: string) => boolean): Promise<string> {
    for (;;) {
      const nl = buf.indexOf("\n");
      if (nl >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (want(line)) return line;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("the deliverer process exited early");
      buf += decoder.decode(value, { stream: true });
    }
  };
}

test.skipIf(!realParts)(
  "two worker processes draining the outbox at once deliver each message exactly once",
  async () => {
    const { deps } = await testContext();
    const users = await Promise.all(Array.from({ length: 4 }, () => makeUser()));
    const now = deps.clock.now();
    await deps.db.transaction((tx) =>
      notify(
        tx,
        Array.from({ length: 40 }, (_, i) => ({
          kind: "quota_100",
          userId: users[i % 4]!.id,
          payload: { dimension: "img_storage", period: "total", mark: 100, used: 1000 + i, limit: 1000 + i },
        })),
        now,
      ),
    );
    const env = testEnv({ SMTP_URL: smtp.url, SHELF_TEST_NOW: now.toISOString(), LOG_LEVEL: "error" });
    const children = [0, 1].map(() => {
      const child = Bun.spawn(["bun", "test/notifications/deliver-process.ts"], { env, stdin: "pipe", stdout: "pipe", stderr: "inherit" });
      return { child, next: lines(child.stdout as ReadableStream<Uint8Array>) };
    });
    await Promise.all(children.map((c) => c.next((l) => l === "ready")));
    for (const c of children) {
      c.child.stdin!.write("go\n");
      c.child.stdin!.end();
    }
    const done = await Promise.all(children.map(async (c) => JSON.parse(await c.next((l) => l.startsWith("{")))));
    expect(await Promise.all(children.map((c) => c.child.exited))).toEqual([0, 0]);

    // Ten queued for each user, ten received by each: none lost, none sent twice.
    for (const u of users) expect(smtp.to(u.email)).toHaveLength(10);
    for (const u of users) {
      const rows = await deps.db.select().from(outbox).where(eq(outbox.userId, u.id));
      expect(rows.map((r) => [r.status, r.attempts])).toEqual(Array.from({ length: 10 }, () => ["sent", 1]));
    }
    // Both took part (each claims a batch at a time; the second claims what the first skips).
    expect(done.reduce((n: number, d: { sent: number }) => n + d.sent, 0)).toBeGreaterThanOrEqual(40);
  },
  120_000, // two processes start and send 40 real SMTP messages: a bound for a busy machine
);
