// Failed logins are counted per email and per client address. The check fails closed: if
// the kv cannot be asked, logins are refused for a moment rather than left unlimited.
import type { Kv } from "../../infra/kv/index.ts";
import { AppError } from "../../http/errors.ts";
import { sha256Hex } from "./tokens.ts";

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 10;
export const MAX_FAILURES_PER_IP = 100;
export const MAX_SIGNUPS_PER_IP_HOUR = 20;

const emailKey = (email: string) => `login-fail:email:${sha256Hex(email)}`;
const ipKey = (ip: string) => `login-fail:ip:${ip}`;

const unavailable = () =>
  new AppError("SERVICE_UNAVAILABLE", "sign-in is briefly unavailable; try again shortly", {}, { "retry-after": "30" });

const tooMany = () =>
  new AppError("RATE_LIMITED", "too many failed sign-in attempts; try again later", { type: "login_failures" }, { "retry-after": String(LOGIN_WINDOW_MS / 1000) });

export function createLoginLimiter(kv: Kv) {
  return {
    async assertAllowed(email: string, ip: string) {
      let counts: (string | null)[];
      try {
        counts = await Promise.all([kv.get(emailKey(email)), kv.get(ipKey(ip))]);
      } catch {
        throw unavailable();
      }
      if (Number(counts[0] ?? 0) >= MAX_FAILURES_PER_EMAIL || Number(counts[1] ?? 0) >= MAX_FAILURES_PER_IP) throw tooMany();
    },
    async recordFailure(email: string, ip: string) {
      await Promise.all([kv.incr(emailKey(email), 1, LOGIN_WINDOW_MS), kv.incr(ipKey(ip), 1, LOGIN_WINDOW_MS)]).catch(() => {
        throw unavailable();
      });
    },
    async recordSuccess(email: string) {
      await kv.del(emailKey(email)).catch(() => {});
    },
    async assertSignupAllowed(ip: string) {
      let n: number;
      try {
        n = await kv.incr(`signup:ip:${ip}`, 1, 3_600_000);
      } catch {
        throw unavailable();
      }
      if (n > MAX_SIGNUPS_PER_IP_HOUR) throw new AppError("RATE_LIMITED", "too many sign-ups from this address", { type: "signups" }, { "retry-after": "3600" });
    },
  };
}
