// The proof a browser keeps that it signed in to an account before: a cookie holding a
// random nonce and an HMAC of the nonce and the account's email under a key only the
// server has. Nobody can make one without signing in, and one made for an account is worth
// nothing for another. It grants nothing by itself: it only lets its holder past the
// account's limit on sign-in failures from unknown browsers (login-limit.ts), so a person
// guessing a password cannot lock the owner out of their own browser. The nonce names the
// browser for its own, smaller, failure count.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const DEVICE_COOKIE = "shelf_device";
const DEVICE_PROOF_TTL_S = 180 * 86_400;

// Its own key, so a proof can never equal a MAC made with the server secret for anything else.
const KEY_LABEL = "shelf/device-proof/v1";
const PROOF = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

const keyOf = (secret: string) => createHmac("sha256", secret).update(KEY_LABEL).digest();
const macOf = (secret: string, email: string, nonce: string) => createHmac("sha256", keyOf(secret)).update(`${email}\n${nonce}`).digest();

/** A new proof for the (normalized) email. */
export function issueDeviceProof(secret: string, email: string): string {
  const nonce = randomBytes(16).toString("base64url");
  return `${nonce}.${macOf(secret, email, nonce).toString("base64url")}`;
}

/** The nonce of a proof made for this email, else undefined (absent, malformed, another account's, forged). */
export function deviceOf(secret: string, email: string, proof: string | undefined): string | undefined {
  const m = proof ? PROOF.exec(proof) : null;
  if (!m) return undefined;
  const given = Buffer.from(m[2]!, "base64url");
  const want = macOf(secret, email, m[1]!);
  return given.length === want.length && timingSafeEqual(given, want) ? m[1] : undefined;
}

/** The Set-Cookie value of a proof for the sign-in form at `path`. */
export const deviceCookie = (proof: string, path: string, secure: boolean) =>
  `${DEVICE_COOKIE}=${proof}; Max-Age=${DEVICE_PROOF_TTL_S}; Path=${path}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
