// Sign-in attempts are counted per email and per client address, and sign-ups per address.
// An attempt is counted before the password is checked (one atomic increment each), so
// parallel attempts cannot all pass a check made before any of them was recorded. A
// successful login forgets the email's count and takes its own attempt back from the
// address's, which therefore counts failures. The check fails closed: if the kv cannot be
// asked, sign-in is refused for a moment rather than left unlimited.
import type { Kv } from "../../infra/kv/index.ts";
import { AppError } from "../../http/errors.ts";
import { rateLimited } from "../../http/rate-limit.ts";
import { sha256Hex } from "./tokens.ts";

const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 10;
const MAX_FAILURES_PER_IP = 100;
const SIGNUP_WINDOW_MS = 3_600_000;
export const MAX_SIGNUPS_PER_IP_HOUR = 20;

const emailKey = (email: string) => `login-fail:email:${sha256Hex(email)}`;
const ipKey = (ip: string) => `login-fail:ip:${ip}`;

const unavailable = () => new AppError("SERVICE_UNAVAILABLE", "sign-in is briefly unavailable; try again shortly", {}, { "retry-after": "30" });

// The counters are fixed windows started by their first attempt; the kv does not say when
// a window started, so Retry-After is the whole window (never too early).
const tooManyLogins = (per: "email" | "address", limit: number) =>
  rateLimited("too many failed sign-in attempts; try again later", { type: "login_failures", per, limit }, { limit, resetMs: LOGIN_WINDOW_MS });

export function createLoginLimiter(kv: Kv) {
  return {
    /** Counts this attempt for the email and the address; 429 when either is over its limit. */
    async countAttempt(email: string, ip: string) {
      let counts: number[];
      try {
        counts = await Promise.all([kv.incr(emailKey(email), 1, LOGIN_WINDOW_MS), kv.incr(ipKey(ip), 1, LOGIN_WINDOW_MS)]);
      } catch {
        throw unavailable();
      }
      if (counts[0]! > MAX_FAILURES_PER_EMAIL) throw tooManyLogins("email", MAX_FAILURES_PER_EMAIL);
      if (counts[1]! > MAX_FAILURES_PER_IP) throw tooManyLogins("address", MAX_FAILURES_PER_IP);
    },
    /** The attempt succeeded: it was not a failure after all. */
    async recordSuccess(email: string, ip: string) {
      await Promise.all([kv.del(emailKey(email)), kv.incr(ipKey(ip), -1, LOGIN_WINDOW_MS)]).catch(() => {});
    },
    async assertSignupAllowed(ip: string) {
      let n: number;
      try {
        n = await kv.incr(`signup:ip:${ip}`, 1, SIGNUP_WINDOW_MS);
      } catch {
        throw unavailable();
      }
      if (n > MAX_SIGNUPS_PER_IP_HOUR) {
        throw rateLimited(
          "too many sign-ups from this address",
          { type: "signups", limit: MAX_SIGNUPS_PER_IP_HOUR },
          { limit: MAX_SIGNUPS_PER_IP_HOUR, resetMs: SIGNUP_WINDOW_MS },
        );
      }
    },
  };
}
