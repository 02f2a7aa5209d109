import type { Config } from "../../config.ts";
import type { Log } from "../log.ts";
import { createMemoryKv } from "./memory.ts";
import { createRedisKv } from "./redis.ts";
import type { Kv } from "./types.ts";

export type { Kv, WindowResult } from "./types.ts";
export { createMemoryKv } from "./memory.ts";

export function createKv(config: Config, log: Log): Promise<Kv> {
  return config.REDIS_URL ? createRedisKv(config.REDIS_URL, log) : Promise.resolve(createMemoryKv());
}
