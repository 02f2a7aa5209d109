import type { Config } from "../../config.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import { createMemoryKv } from "./memory.ts";
import { createRedisKv } from "./redis.ts";
import type { Kv } from "./types.ts";

export type { Kv, WindowResult } from "./types.ts";
export { createMemoryKv } from "./memory.ts";

/**
 * The in-process kv measures its TTLs and windows on `clock` when one is given (Redis always
 * measures them on its own clock).
 */
export function createKv(config: Config, log: Log, clock?: Pick<Clock, "nowMs">): Promise<Kv> {
  return config.REDIS_URL ? createRedisKv(config.REDIS_URL, log) : Promise.resolve(createMemoryKv({ clock }));
}
