// Image bandwidth at the edge: what is metered (body bytes only), and the hourly job that
// moves the tally into GET /v1/user/me/usage exactly once, whatever instruction a run dies at.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { attributeImageBandwidthJob as attributeImageBandwidth } from "../../src/modules/edge/public.ts";
import { bandwidthClaim } from "../../src/modules/edge/bandwidth-drain.job.ts";
import type { Deps } from "../../src/wiring/deps.ts";
import { monthKey } from "../../src/infra/clock.ts";
import { BANDWIDTH_HASHES } from "../../src/modules/edge/meter.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser } from "../helpers/factories.ts";
import { edgeGet, jpegWithExif, png, uploaded } from "../images/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const BROWSER = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
const photo = await jpegWithExif({ width: 320, height: 240, orientation: 1 });

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

describe("image bandwidth", () => {
  test("bytes served (ranges by their length, 304 and HEAD as 0) reach image.bandwidth after the hourly job", async () => {
    const { user, key } = await makeClient();
    const { key: usageKey } = await makeKey(user, ["usage.read"]);
    const { runner, deps, services } = await testContext();
    const d = await uploaded(key, photo);
    const webp = await edgeGet(d.url, { accept: BROWSER });
    const webpLen = (await bytesOf(webp)).length;
    const origLen = (await bytesOf(await edgeGet(d.url, { accept: "*/*" }))).length;
    await bytesOf(await edgeGet(d.url, { accept: "*/*", range: "bytes=0-99" }));
    await edgeGet(d.url, { accept: BROWSER, "if-none-match": webp.headers.get("etag")! });
    await edgeGet(d.url, { accept: BROWSER }, "HEAD");

    const before = await callJson("GET", "/v1/user/me/usage", { token: usageKey });
    expect(before.body.data.image.bandwidth.used).toBe(0); // not attributed yet: no write per request

    await services.meter.flush(); // what an api node does every second
    const run = await runner.runNow("attribute-image-bandwidth");
    expect(run.outcome).toBe("ok");
    const after = await callJson("GET", "/v1/user/me/usage", { token: usageKey });
    expect(after.body.data.image.bandwidth).toEqual({
      used: webpLen + origLen + 100,
      limit: deps.plans.trial.imageBandwidthBytes,
      monthYear: monthKey(deps.clock.now()),
    });
    expect(after.body.data.image.storage.used).toBeGreaterThan(0);

    // A second run attributes nothing twice.
    await runner.runNow("attribute-image-bandwidth");
    expect((await callJson("GET", "/v1/user/me/usage", { token: usageKey })).body.data.image.bandwidth.used).toBe(webpLen + origLen + 100);
  });

  test("bandwidth of an owner deleted before the job runs is skipped, not an error", async () => {
    const owner = await makeUser();
    const { runner, deps, services } = await testContext();
    const d = await uploaded(owner.jwt, await png());
    await bytesOf(await edgeGet(d.url));
    await deps.db.execute(sql`delete from users where id = ${owner.id}`);
    await services.meter.flush();
    const run = await runner.runNow("attribute-image-bandwidth");
    expect(run.outcome).toBe("ok");
    // Consumed, not put back for a retry that could never succeed.
    const claim = bandwidthClaim("image_bandwidth");
    expect(await deps.kv.claimHash(BANDWIDTH_HASHES.image_bandwidth, `${claim}:check`)).toEqual({});
    expect(await deps.kv.claimHash(claim, `${claim}:check`)).toEqual({});
  });

  /**
   * A database on which every query waits forever: the process died at that instruction.
   * `reached` resolves when the job first turns to it.
   */
  function hungDb() {
    const reached = Promise.withResolvers<void>();
    const db: any = new Proxy(() => {}, {
      get: (_t, p) => {
        if (p === "then") return () => {};
        reached.resolve();
        return db;
      },
      apply: () => db,
    });
    return { db, reached: reached.promise };
  }
  const bandwidthOf = async (token: string) => (await callJson("GET", "/v1/user/me/usage", { token })).body.data.image.bandwidth.used;

  test("a run that dies between taking the tally and committing it loses nothing: the next run attributes it, once", async () => {
    const { user, key } = await makeClient();
    const { key: usageKey } = await makeKey(user, ["usage.read"]);
    const { runner, deps, services } = await testContext();
    const d = await uploaded(key, photo);
    const first = (await bytesOf(await edgeGet(d.url, { accept: "*/*" }))).length;
    await services.meter.flush();
    const { log } = deps;
    const hung = hungDb();
    void attributeImageBandwidth.run({ deps: { ...deps, db: hung.db }, log, signal: new AbortController().signal });
    await hung.reached; // it has taken the tally (the kv comes first) and waits on the database for ever
    const second = (await bytesOf(await edgeGet(d.url, { accept: "*/*", range: "bytes=0-99" }))).length;
    await services.meter.flush();
    expect((await runner.runNow("attribute-image-bandwidth")).outcome).toBe("ok");
    expect(await bandwidthOf(usageKey)).toBe(first + second);
    await runner.runNow("attribute-image-bandwidth");
    expect(await bandwidthOf(usageKey)).toBe(first + second);
  });

  /** An owner with a usage.read key, one image served once and the tally flushed to the kv. */
  async function servedOnce() {
    const { user, key } = await makeClient();
    const { key: usageKey } = await makeKey(user, ["usage.read"]);
    const { deps, services } = await testContext();
    const d = await uploaded(key, photo);
    const served = (await bytesOf(await edgeGet(d.url, { accept: "*/*" }))).length;
    await services.meter.flush();
    return { usageKey, served, deps };
  }
  const jobCtx = (deps: { log: Deps["log"] }) => ({ log: deps.log, signal: new AbortController().signal });

  test("a run that dies after its commit and before releasing the tally: the next run does not count it again", async () => {
    const { usageKey, served, deps } = await servedOnce();
    const kvLost = new Proxy(deps.kv, {
      get: (target, p, receiver) => (p === "del" ? () => Promise.reject(new Error("kv gone")) : Reflect.get(target, p, receiver)),
    });
    await expect(attributeImageBandwidth.run({ ...jobCtx(deps), deps: { ...deps, kv: kvLost } })).rejects.toThrow("kv gone");
    expect(await bandwidthOf(usageKey)).toBe(served);
    await attributeImageBandwidth.run({ ...jobCtx(deps), deps });
    expect(await bandwidthOf(usageKey)).toBe(served);
    const claim = bandwidthClaim("image_bandwidth");
    expect(await deps.kv.claimHash(claim, `${claim}:check`)).toEqual({});
  });

  test("a failed commit keeps the tally for the next run", async () => {
    const { usageKey, served, deps } = await servedOnce();
    const failing = new Proxy(deps.db, {
      get: (target, p, receiver) =>
        p === "execute" || p === "transaction" ? () => Promise.reject(new Error("connection lost")) : Reflect.get(target, p, receiver),
    });
    const ctx = jobCtx(deps);
    await expect(attributeImageBandwidth.run({ ...ctx, deps: { ...deps, db: failing } })).rejects.toThrow("connection lost");
    expect(await bandwidthOf(usageKey)).toBe(0);
    expect(await attributeImageBandwidth.run({ ...ctx, deps })).toMatchObject({ summary: expect.stringMatching(/^attributed \d+ bytes/) });
    expect(await bandwidthOf(usageKey)).toBe(served);
  });
});
