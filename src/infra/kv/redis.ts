// The production kv on Redis. Every read-modify-write is one Lua script, so it is atomic
// across nodes, and TTLs and leases run on the Redis server's clock, not the node's. The
// rate limiter's window counter is the exception on both counts (slidingWindow): it is on
// every request, and a script costs Redis several times the commands it runs.
import { randomUUID } from "node:crypto";
import { Redis, ReplyError } from "ioredis";
import type { Log } from "../log.ts";
import { type Kv, KvUnavailableError, type WindowResult } from "./types.ts";
import { judgeWindow, windowBuckets } from "./window.ts";

const INCR_WITH_TTL = `
local v = redis.call('INCRBY', KEYS[1], ARGV[1])
if v == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return v`;

const CLAIM_HASH = `
if redis.call('EXISTS', KEYS[2]) == 0 then
  if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
  redis.call('RENAME', KEYS[1], KEYS[2])
end
return redis.call('HGETALL', KEYS[2])`;

const RENEW_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

const RELEASE_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

// bucket.ts's takeTokens, step for step (its integer units are exact in Lua's doubles).
// A hash { units, at }; no key is a full bucket. Loaded once per connection (EVALSHA,
// EVAL when Redis does not have it). Returns { allowed, remaining, retryAfterMs }.
const TOKEN_BUCKET = `
local unit = 60000
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[4])
local full = capacity * unit
local units = full
local at = now
local s = redis.call('HMGET', KEYS[1], 'units', 'at')
if s[1] then
  units = tonumber(s[1])
  at = tonumber(s[2])
  if now > at then
    units = math.min(full, units + (now - at) * rate)
    at = now
  end
end
local need = math.min(capacity, tonumber(ARGV[3])) * unit
local allowed = 0
local retry = 0
if units >= need then
  units = units - need
  allowed = 1
else
  retry = math.ceil((need - units) / rate)
end
local ttl = math.ceil((full - units) / rate)
if ttl <= 0 then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'units', string.format('%.0f', units), 'at', string.format('%.0f', at))
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return { allowed, math.floor(units / unit), retry }`;

/** HGETALL's flat [field, value, ...] reply as counters. */
function counters(flat: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 0; i < flat.length; i += 2) out[flat[i]!] = Number(flat[i + 1]);
  return out;
}

/**
 * Every method's failure to reach Redis as a KvUnavailableError (ioredis says so in plain
 * Errors: "Stream isn't writeable ...", "Connection is closed.", MaxRetriesPerRequestError),
 * so that a caller without a fallback of its own answers 503, not 500. Redis' own refusals
 * (ReplyError) pass as they are.
 */
function typedOutages(kv: Kv): Kv {
  const out: Record<string, unknown> = { kind: kv.kind };
  for (const [name, fn] of Object.entries(kv)) {
    if (typeof fn !== "function") continue;
    out[name] = (...args: unknown[]) =>
      (fn as (...a: unknown[]) => Promise<unknown>).apply(kv, args).catch((err: unknown) => {
        throw err instanceof ReplyError || err instanceof KvUnavailableError ? err : new KvUnavailableError(err);
      });
  }
  return out as unknown as Kv;
}

export async function createRedisKv(url: string, log: Log): Promise<Kv> {
  // Commands fail fast while Redis is away instead of queueing: callers (the rate limiter,
  // the key cache) have their own fallbacks, and a request must never hang on Redis.
  const options = { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 5000 };
  const redis = new Redis(url, options);
  const sub = new Redis(url, { ...options, enableOfflineQueue: true, maxRetriesPerRequest: null });
  let warned = false;
  for (const conn of [redis, sub]) {
    conn.on("error", (err) => {
      if (!warned) log.warn("redis connection error", { err });
      warned = true;
    });
    conn.on("ready", () => {
      if (warned) log.info("redis connection ready");
      warned = false;
    });
  }
  await Promise.all([redis.connect(), sub.connect()]);
  redis.defineCommand("tokenBucket", { numberOfKeys: 1, lua: TOKEN_BUCKET });
  const tokenBucket = (redis as unknown as { tokenBucket(...args: (string | number)[]): Promise<[number, number, number]> }).tokenBucket.bind(redis);

  const handlers = new Map<string, Set<(m: string) => void>>();
  sub.on("message", (channel: string, message: string) => {
    for (const fn of handlers.get(channel) ?? []) fn(message);
  });

  return typedOutages({
    kind: "redis",
    async get(key) {
      return redis.get(key);
    },
    async set(key, value, ttlMs) {
      if (ttlMs) await redis.set(key, value, "PX", ttlMs);
      else await redis.set(key, value);
    },
    async del(key) {
      await redis.del(key);
    },
    async incr(key, by, ttlMs) {
      return Number(await redis.eval(INCR_WITH_TTL, 1, key, by, ttlMs));
    },
    async hincrby(key, field, by) {
      await redis.hincrby(key, field, by);
    },
    async claimHash(key, claimKey) {
      return counters((await redis.eval(CLAIM_HASH, 2, key, claimKey)) as string[]);
    },
    async slidingWindow(key, limit, windowMs, nowMs = Date.now()): Promise<WindowResult> {
      // Three plain commands in one round trip, no script: the previous bucket no longer
      // changes, so reading it apart from the increment is as good as atomically. A bucket
      // is read as "previous" during the next window, so it lives two windows after its
      // last call.
      const { current, previous, elapsedMs } = windowBuckets(key, windowMs, nowMs);
      const replies = await redis
        .pipeline()
        .incr(current)
        .pexpire(current, 2 * windowMs)
        .get(previous)
        .exec();
      const failed = replies?.find(([err]) => err);
      if (!replies || failed) throw failed?.[0] ?? new Error("redis pipeline not executed");
      const result = judgeWindow(limit, windowMs, elapsedMs, Number(replies[2]![1] ?? 0), Number(replies[0]![1]));
      // Sent, not awaited: calls on this connection after it see it, and if it is lost the
      // refusal was still right (the bucket then overcounts by one until it expires).
      if (!result.allowed) redis.decr(current).catch(() => {});
      return result;
    },
    async tokenBucket(key, capacity, refillPerMinute, cost, nowMs) {
      const [allowed, remaining, retryAfterMs] = await tokenBucket(key, capacity, refillPerMinute, cost, nowMs);
      return { allowed: allowed === 1, remaining, retryAfterMs };
    },
    async acquireLease(key, leaseMs) {
      const token = randomUUID();
      return (await redis.set(key, token, "PX", leaseMs, "NX")) === "OK" ? token : null;
    },
    async renewLease(key, token, leaseMs) {
      return Number(await redis.eval(RENEW_LEASE, 1, key, token, leaseMs)) === 1;
    },
    async releaseLease(key, token) {
      await redis.eval(RELEASE_LEASE, 1, key, token);
    },
    async publish(channel, message) {
      await redis.publish(channel, message);
    },
    async subscribe(channel, onMessage) {
      let set = handlers.get(channel);
      if (!set) {
        handlers.set(channel, (set = new Set()));
        await sub.subscribe(channel);
      }
      set.add(onMessage);
      return async () => {
        set.delete(onMessage);
        if (set.size === 0) {
          handlers.delete(channel);
          await sub.unsubscribe(channel).catch(() => {});
        }
      };
    },
    async ping() {
      await redis.ping();
    },
    async close() {
      await Promise.allSettled([redis.quit(), sub.quit()]);
    },
  });
}
