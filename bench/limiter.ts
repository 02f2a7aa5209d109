// (e) What one rate-limiter call costs Redis: `INFO commandstats` read before and after N
// calls, against the sorted-set log the limiter used to run as a Lua script (kept here,
// not in the kv, only to be measured beside it), and beside it what one call of the plan's
// token buckets costs (kv.tokenBucket, a Lua script run by EVALSHA). Needs an otherwise idle Redis (REDIS_URL):
// other clients' commands would be counted too.
//
//   bash scripts/real-parts.sh bun bench/limiter.ts     or   make bench (with REDIS_URL)
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { createRedisKv } from "../src/infra/kv/redis.ts";
import { createLog } from "../src/infra/log.ts";

const OLD_SLIDING_WINDOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local window = tonumber(ARGV[2]) * 1000
local limit = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[3])
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local reset = 0
if oldest[2] then reset = math.floor((tonumber(oldest[2]) + window - now) / 1000) end
return { allowed, count, reset }`;

const WINDOW_MS = 60_000;
const LIMIT = 600;
/** Users called in parallel, each a steady stream over the limit (some calls refused). */
const USERS = 10;

type Stats = Map<string, { calls: number; usec: number }>;

async function commandStats(redis: Redis): Promise<Stats> {
  const out: Stats = new Map();
  for (const m of (await redis.info("commandstats")).matchAll(/^cmdstat_(\S+):calls=(\d+),usec=(\d+)/gm)) {
    out.set(m[1]!, { calls: Number(m[2]), usec: Number(m[3]) });
  }
  return out;
}

async function cpuUsec(redis: Redis): Promise<number> {
  const info = await redis.info("cpu");
  const field = (name: string) => Number(info.match(new RegExp(`^${name}:([\\d.]+)`, "m"))?.[1] ?? 0);
  return (field("used_cpu_sys") + field("used_cpu_user")) * 1e6;
}

/** Runs `calls` limiter calls and returns Redis's time in the given commands and in all. */
async function measure(redis: Redis, calls: number, commands: string[], one: (user: number, i: number) => Promise<unknown>) {
  const [before, cpuBefore] = [await commandStats(redis), await cpuUsec(redis)];
  const perUser = Math.ceil(calls / USERS);
  await Promise.all(
    Array.from({ length: USERS }, async (_, u) => {
      for (let i = 0; i < perUser; i++) await one(u, i);
    }),
  );
  const [after, cpuAfter] = [await commandStats(redis), await cpuUsec(redis)];
  const n = perUser * USERS;
  const delta = (c: string) => (after.get(c)?.usec ?? 0) - (before.get(c)?.usec ?? 0);
  const detail = commands.map((c) => `${c} ${(delta(c) / n).toFixed(2)}`).join(", ");
  return { n, usPerCall: commands.reduce((s, c) => s + delta(c), 0) / n, detail, cpuPerCall: (cpuAfter - cpuBefore) / n };
}

export async function benchLimiter(url: string | undefined, calls = 20_000): Promise<void> {
  if (!url) {
    console.log("\n(e) rate limiter: skipped (set REDIS_URL: make bench-real)");
    return;
  }
  const kv = await createRedisKv(url, createLog("error"));
  const redis = new Redis(url);
  try {
    const run = randomUUID();
    // 2x the limit per window: a third of each window's calls are refused, as under abuse.
    const step = WINDOW_MS / (2 * LIMIT);
    const start = Date.now();
    const counter = await measure(redis, calls, ["incr", "pexpire", "get", "decr"], (u, i) =>
      kv.slidingWindow(`bench:rl:${run}:${u}`, LIMIT, WINDOW_MS, start + i * step),
    );
    const log = await measure(redis, calls, ["eval"], (u) => redis.eval(OLD_SLIDING_WINDOW, 1, `bench:rl-old:${run}:${u}`, LIMIT, WINDOW_MS, randomUUID()));
    const inner = await measure(redis, calls, ["zremrangebyscore", "zcard", "zadd", "pexpire", "zrange", "time"], (u) =>
      redis.eval(OLD_SLIDING_WINDOW, 1, `bench:rl-old2:${run}:${u}`, LIMIT, WINDOW_MS, randomUUID()),
    );
    // The bucket at the same pace: a burst of LIMIT, refilled by LIMIT a minute, called at twice that.
    const bucket = await measure(redis, calls, ["evalsha", "eval"], (u, i) => kv.tokenBucket(`bench:tb:${run}:${u}`, LIMIT, LIMIT, 1, start + i * step));
    const bucketInner = await measure(redis, calls, ["hmget", "hset", "pexpire", "del"], (u, i) =>
      kv.tokenBucket(`bench:tb2:${run}:${u}`, LIMIT, LIMIT, 1, start + i * step),
    );
    const fmt = (n: number) => n.toFixed(1).padStart(5);
    console.log(`\n(e) rate limiter: Redis time per call over ${counter.n} calls, ${USERS} users at 2x their limit (target <= 10 us)`);
    console.log(`    two-bucket counter, pipelined   ${fmt(counter.usPerCall)} us   (${counter.detail}); process CPU ${fmt(counter.cpuPerCall)} us`);
    console.log(`    old sorted-set log, Lua script  ${fmt(log.usPerCall)} us   (eval); process CPU ${fmt(log.cpuPerCall)} us`);
    console.log(`      of which the script's commands ${fmt(inner.usPerCall)} us   (${inner.detail})`);
    console.log(`    token bucket, Lua script        ${fmt(bucket.usPerCall)} us   (${bucket.detail}); process CPU ${fmt(bucket.cpuPerCall)} us`);
    console.log(`      of which the script's commands ${fmt(bucketInner.usPerCall)} us   (${bucketInner.detail})`);
  } finally {
    await Promise.all([kv.close(), redis.quit()]);
  }
}

if (import.meta.main) await benchLimiter(process.env.REDIS_URL);
