import type { Config } from "../../config.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import { createMemoryKv } from "./memory.ts";
import type { Kv } from "./types.ts";

export type { BucketResult, Kv, WindowResult } from "./types.ts";
export { createMemoryKv } from "./memory.ts";

/**
 * The in-process kv measures its TTLs and windows on `clock` when one is given (Redis always
 * measures them on its own clock).
 */
export function createKv(config: Config, log: Log, clock?: Pick<Clock, "nowMs">): Promise<Kv> {
  // ioredis is loaded only when used: a node on the in-process kv starts without it.
  return config.REDIS_URL
    ? import("./redis.ts").then(({ createRedisKv }) => createRedisKv(config.REDIS_URL!, log))
    : Promise.resolve(createMemoryKv({ clock }));
}
