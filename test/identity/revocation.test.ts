// A revoked key is refused on every api node within 5 s: at once where the revocation is
// published, and by cache expiry where pub/sub does not arrive.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createIdentity } from "../../src/modules/identity/public.ts";
import { CACHE_TTL_MS } from "../../src/infra/cache.ts";
import { startApiProcess } from "../helpers/api-process.ts";
import { call, testContext } from "../helpers/context.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const realParts = !!(process.env.DATABASE_URL && process.env.REDIS_URL);

/**
 * Asks another process until it refuses the key, and returns what it answered to requests
 * sent `withinMs` or more after `revokedAt`: nothing, when it keeps the rule. Its pub/sub
 * and cache work out of sight, so this polls, but the verdict does not depend on speed:
 * a request sent after the bound must be refused, however late the machine let it go, and
 * one sent before it may be answered either way.
 */
async function answersPastBound(check: () => Promise<string>, revokedAt: number, withinMs: number): Promise<string[]> {
  for (;;) {
    const sentAt = performance.now();
    const code = await check();
    if (code === "API_KEY_REVOKED") return [];
    if (sentAt - revokedAt >= withinMs) return [code];
  }
}

describe("revocation across nodes", () => {
  test("a node that misses the pub/sub message refuses the key once its cache entry expires (<= 5 s)", async () => {
    const { deps } = await testContext();
    // A second node whose pub/sub is down: it hears nothing.
    const deaf = { ...deps.kv, subscribe: async () => async () => {}, publish: async () => {} };
    // Its clock stands still between the steps, so "still cached" holds however slow they are.
    const clock = stoppedClock(deps.clock.nowMs());
    const other = createIdentity({ ...deps, kv: deaf, clock });
    const u = await makeUser();
    const k = await makeKey(u);
    expect((await other.resolvePrincipal(`Bearer ${k.key}`)).userId).toBe(u.id); // cached on the other node
    expect((await call("DELETE", `/v1/api-keys/${k.id}`, { token: u.jwt })).status).toBe(204);
    const viaOther = () =>
      other.resolvePrincipal(`Bearer ${k.key}`).then(
        () => "ok",
        (e) => e.code,
      );
    clock.advance(CACHE_TTL_MS - 50);
    expect(await viaOther()).toBe("ok"); // still its cached copy: the node heard nothing
    clock.advance(50);
    expect(await viaOther()).toBe("API_KEY_REVOKED");
    await other.close();
  });

  test.skipIf(!realParts)(
    "a second api process sharing Postgres and Redis refuses a revoked key within 5 s",
    async () => {
      const second = await startApiProcess();
      try {
        const base = second.base;
        const u = await makeUser();
        const k = await makeKey(u);
        const viaSecond = () => fetch(`${base}/v1/user/me`, { headers: { authorization: `Bearer ${k.key}` } });
        expect((await viaSecond()).status).toBe(200); // now cached in the second process
        expect((await call("DELETE", `/v1/api-keys/${k.id}`, { token: u.jwt })).status).toBe(204);
        // The key is revoked in the database by now, and the second process cached it before:
        // from CACHE_TTL_MS on, whatever it heard or missed, it must refuse it.
        const revokedAt = performance.now();
        const code = async () => ((await (await viaSecond()).json()) as any).code ?? "ok";
        expect(await answersPastBound(code, revokedAt, CACHE_TTL_MS)).toEqual([]);
      } finally {
        await second.stop();
      }
    },
    30_000,
  );
});

test.skipIf(realParts)("the CLI says clearly that the embedded database is in use by a running server", async () => {
  const { config } = await testContext();
  const proc = Bun.spawn(["bun", "src/main.ts", "admin", "jobs", "list"], {
    env: { ...process.env, DATA_DIR: config.DATA_DIR, DATABASE_URL: "", REDIS_URL: "", S3_BUCKET: "" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  expect(code).toBe(1);
  expect(stderr).toContain(`in use by process ${process.pid}`);
  expect(stderr).toContain("Stop that process first");
});
