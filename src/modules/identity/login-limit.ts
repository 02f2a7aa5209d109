// Sign-in failures are counted so that guessing a password stays slow without letting the
// guesser lock the owner out. Four counts, each in windows of 15 minutes cut from the
// app's clock:
// - per account and address: a few tries, then that address is refused for that account;
// - per address: many tries over all accounts, then the address is refused (spraying);
// - per account, over every attempt: the attempts that hold no proof of an earlier sign-in
//   are refused past a larger limit, which bounds guessing from rotating addresses;
// - per browser that holds such a proof (device-proof.ts): a few tries, then the proof
//   counts for nothing until the window ends.
// Proof of an earlier sign-in is the browser's device cookie, or the address itself when
// the account signed in from it in the last 30 days. An attempt with proof is never
// refused for the account's count, so failures from elsewhere cannot keep the owner out.
// Every count is keyed by the email (hashed), whether or not it names an account, so an
// unknown email is answered exactly as a known one.
//
// An attempt is counted before the password is checked (atomic increments), so parallel
// attempts cannot all pass a check made before any of them was recorded; one refused by
// the address counts is not counted for the account, so a single address cannot use up
// the account's count by being refused. A success forgets the failures of its address and
// browser for the account and takes its own attempt back from the others. The check fails
// closed: if the kv cannot be asked, sign-in is refused for a moment rather than left
// unlimited.
import ipaddr from "ipaddr.js";
import type { Clock } from "../../infra/clock.ts";
import type { Kv } from "../../infra/kv/index.ts";
import { AppError } from "../../core/errors.ts";
import { rateLimited } from "../../core/errors.ts";
import { sha256Hex } from "./tokens.ts";

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_PAIR = 10;
export const MAX_FAILURES_PER_DEVICE = 10;
export const MAX_FAILURES_PER_ACCOUNT = 30;
const MAX_FAILURES_PER_IP = 100;
/** The owner is told once the account's failures in a window reach this, at most once per TELL_WINDOW_MS. */
export const TELL_AFTER_FAILURES = 10;
export const TELL_WINDOW_MS = 3_600_000;
const KNOWN_ADDRESS_MS = 30 * 86_400_000;
const SIGNUP_WINDOW_MS = 3_600_000;
export const MAX_SIGNUPS_PER_IP_HOUR = 20;

/**
 * The address counted: an IPv6 address by its /64, which one subscriber usually holds
 * whole, so rotating within it does not buy new tries.
 */
function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const a = ipaddr.process(ip);
  return a.kind() === "ipv6"
    ? `${(a as ipaddr.IPv6).parts
        .slice(0, 4)
        .map((p) => p.toString(16))
        .join(":")}::/64`
    : a.toString();
}

const unavailable = () => new AppError("SERVICE_UNAVAILABLE", "sign-in is briefly unavailable; try again shortly", {}, { "retry-after": "30" });

type Per = "email_address" | "address" | "email";
const tooManyLogins = (per: Per, limit: number, resetMs: number) =>
  rateLimited("too many failed sign-in attempts; try again later", { type: "login_failures", per, limit }, { limit, resetMs });

export interface LoginAttempt {
  /** The normalized email. */
  email: string;
  ip: string;
  /** The nonce of a valid device proof for this email, if the browser sent one. */
  device?: string;
}

/** An attempt that was let through: what to take back on success, and the account's count. */
export interface CountedAttempt {
  keys: { pair: string; ip: string; account: string; device?: string; known: string; told: string };
  accountFailures: number;
}

export function createLoginLimiter(kv: Kv, clock: Pick<Clock, "nowMs">) {
  const window = () => {
    const now = clock.nowMs();
    return { n: Math.floor(now / LOGIN_WINDOW_MS), resetMs: LOGIN_WINDOW_MS - (now % LOGIN_WINDOW_MS) };
  };
  // Twice the window, so a key outlives its window on any node's clock.
  const ttl = 2 * LOGIN_WINDOW_MS;

  return {
    /** Counts the attempt; 429 RATE_LIMITED when a limit refuses it, 503 when it cannot be counted. */
    async countAttempt(a: LoginAttempt): Promise<CountedAttempt> {
      const { n, resetMs } = window();
      const account = sha256Hex(a.email);
      const address = addressKey(a.ip);
      const keys = {
        pair: `login-fail:pair:${account}:${address}:${n}`,
        ip: `login-fail:ip:${address}:${n}`,
        account: `login-fail:account:${account}:${n}`,
        device: a.device ? `login-fail:device:${account}:${a.device}:${n}` : undefined,
        known: `login-known:${account}:${address}`,
        told: `login-told:${account}:${Math.floor(clock.nowMs() / TELL_WINDOW_MS)}`,
      };
      try {
        const [pair, ip, known, device] = await Promise.all([
          kv.incr(keys.pair, 1, ttl),
          kv.incr(keys.ip, 1, ttl),
          kv.get(keys.known),
          keys.device ? kv.incr(keys.device, 1, ttl) : 0,
        ]);
        if (pair > MAX_FAILURES_PER_PAIR) throw tooManyLogins("email_address", MAX_FAILURES_PER_PAIR, resetMs);
        if (ip > MAX_FAILURES_PER_IP) throw tooManyLogins("address", MAX_FAILURES_PER_IP, resetMs);
        const proven = known !== null || (keys.device !== undefined && device <= MAX_FAILURES_PER_DEVICE);
        const accountFailures = await kv.incr(keys.account, 1, ttl);
        if (!proven && accountFailures > MAX_FAILURES_PER_ACCOUNT) throw tooManyLogins("email", MAX_FAILURES_PER_ACCOUNT, resetMs);
        return { keys, accountFailures };
      } catch (e) {
        if (e instanceof AppError) throw e;
        throw unavailable();
      }
    },

    /** The attempt succeeded: not a failure after all, and its address is now known for the account. */
    async recordSuccess(c: CountedAttempt) {
      const { keys } = c;
      await Promise.all([
        kv.del(keys.pair),
        keys.device ? kv.del(keys.device) : undefined,
        kv.incr(keys.ip, -1, ttl),
        kv.incr(keys.account, -1, ttl),
        kv.set(keys.known, "1", KNOWN_ADDRESS_MS),
      ]).catch(() => {});
    },

    /** Whether this failure is the one the owner is told about: past the threshold, the first in its tell window. */
    async shouldTell(c: CountedAttempt): Promise<boolean> {
      if (c.accountFailures < TELL_AFTER_FAILURES) return false;
      return (await kv.incr(c.keys.told, 1, TELL_WINDOW_MS)) === 1;
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
