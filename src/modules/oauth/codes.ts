// The shapes of what the provider hands out. User codes are typed by people: 8 characters
// from 32 (no 0, O, 1, I), 40 bits, shown as XXXX-XXXX, read back case-insensitively with
// dashes and spaces ignored. Device codes and tokens are 256-bit random, stored as SHA-256.
import { randomBytes } from "node:crypto";
import { nanoid } from "nanoid";

const USER_CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
const USER_CODE_LENGTH = 8;

/** 32 symbols: one random byte's low five bits pick one without bias. */
export function newUserCode(): string {
  const bytes = randomBytes(USER_CODE_LENGTH);
  let code = "";
  for (const b of bytes) code += USER_CODE_ALPHABET[b & 31];
  return code;
}

export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/** The stored form of what a user typed, or null when it cannot be a user code at all. */
export function normalizeUserCode(typed: string): string | null {
  const code = typed.replace(/[\s-]/g, "").toUpperCase();
  if (code.length !== USER_CODE_LENGTH) return null;
  for (const c of code) if (!USER_CODE_ALPHABET.includes(c)) return null;
  return code;
}

export const newDeviceCode = () => nanoid(32);
export const DEVICE_CODE_PATTERN = /^[A-Za-z0-9_-]{32}$/;

const ACCESS_PREFIX = "oat_";
const REFRESH_PREFIX = "ort_";
export const newAccessToken = () => ACCESS_PREFIX + randomBytes(32).toString("base64url");
export const newRefreshToken = () => REFRESH_PREFIX + randomBytes(32).toString("base64url");
export const isAccessTokenShaped = (s: string) => s.startsWith(ACCESS_PREFIX);
export const ACCESS_TOKEN_PATTERN = /^oat_[A-Za-z0-9_-]{43}$/;
export const REFRESH_TOKEN_PATTERN = /^ort_[A-Za-z0-9_-]{43}$/;

export const sha256Hex = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
