// The per-minute request limits of each rate tier, which operators may change with
// RATE_LIMITS, e.g. to give a private deployment more headroom than the hosted service.
// The limiter that counts them is rate-limit.ts; src/config.ts reads this file at load, so
// it imports nothing.
import { Type as T } from "@sinclair/typebox";

/**
 * file: each PUT of a KB file's bytes (an attachment of a synced folder). A vault's first
 * push sends hundreds of them, each content-addressed and checked against the plan's size
 * and storage before a byte is read, so they do not share the upload tier of media.
 */
export const DEFAULT_RATE_LIMITS = { read: 600, mutation: 120, upload: 60, file: 600 } as const;
export type Tier = keyof typeof DEFAULT_RATE_LIMITS;
export type RateLimits = Readonly<Record<Tier, number>>;

const Limit = T.Integer({ minimum: 1, maximum: 1_000_000 });
export const RateLimitsSchema = T.Partial(T.Object({ read: Limit, mutation: Limit, upload: Limit, file: Limit }), { additionalProperties: false });

/** The defaults with the overrides of RATE_LIMITS (already validated) on top. */
export function buildRateLimits(overrides: Partial<Record<Tier, number>> = {}): RateLimits {
  return Object.freeze({ ...DEFAULT_RATE_LIMITS, ...overrides });
}
