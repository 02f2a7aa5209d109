// Signed callbacks: HMAC-SHA256 over "<timestamp>.<raw body>", checked within a tolerance
// of 5 minutes either way (a stale or replayed-later callback is refused). Mux documents
// this scheme for its `Mux-Signature: t=<ts>,v1=<hex>` header; the local provider signs
// its callbacks the same way, so both are verified by one function.
import { createHmac, timingSafeEqual } from "node:crypto";
import { AppError } from "../../../core/errors.ts";

const TOLERANCE_S = 300;

const signatureOf = (secret: string, timestampS: number, rawBody: string) => createHmac("sha256", secret).update(`${timestampS}.${rawBody}`).digest("hex");

/** The header value for a body signed at `timestampS`. */
export const signatureHeader = (secret: string, timestampS: number, rawBody: string) => `t=${timestampS},v1=${signatureOf(secret, timestampS, rawBody)}`;

const unauthorized = (why: string) => new AppError("UNAUTHORIZED", `callback refused: ${why}`);

/** Throws 401 unless `header` (t=...,v1=...) signs `rawBody` with `secret` within the tolerance of `now`. */
export function verifySignature(secret: string, header: string | null, rawBody: string, now: Date): void {
  if (!header) throw unauthorized("no signature");
  const parts = header.split(",").map((p) => p.trim().split("="));
  const t = Number(parts.find(([k]) => k === "t")?.[1] ?? Number.NaN);
  const candidates = parts.filter(([k, v]) => k === "v1" && v).map(([, v]) => v!);
  if (!Number.isInteger(t) || !candidates.length) throw unauthorized("malformed signature");
  if (Math.abs(now.getTime() / 1000 - t) > TOLERANCE_S) throw unauthorized("timestamp outside the tolerance");
  const expected = Buffer.from(signatureOf(secret, t, rawBody));
  if (!candidates.some((c) => c.length === expected.length && timingSafeEqual(Buffer.from(c), expected))) throw unauthorized("bad signature");
}
