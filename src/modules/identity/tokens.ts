// Access tokens: HS256 JWTs valid 15 minutes, checked against the injectable clock so
// expiry is tested by moving time. Refresh tokens: random at login, derived from their
// predecessor at rotation, stored as SHA-256 only.
import { createHmac, randomBytes } from "node:crypto";
import { SignJWT, errors, jwtVerify } from "jose";
import type { Clock } from "../../infra/clock.ts";
import { AppError } from "../../core/errors.ts";
import { isId } from "../../infra/ids.ts";

const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 7 * 86_400_000;
const ISSUER = "shelf";
const AUDIENCE = "shelf-api";
// Both claims are ids this service made; anything else (a NUL, 100k characters) is no
// token of ours, and must not travel on to a query as if it were.

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

export function createTokenSigner(secret: string, clock: Clock) {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(claims: AccessClaims): Promise<{ token: string; expiresIn: number }> {
      const now = Math.floor(clock.nowMs() / 1000);
      const token = await new SignJWT({ sid: claims.sessionId })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + ACCESS_TOKEN_TTL_S)
        .sign(key);
      return { token, expiresIn: ACCESS_TOKEN_TTL_S };
    },
    /** 401 TOKEN_EXPIRED when expired, 401 UNAUTHORIZED for anything else wrong. */
    async verify(token: string): Promise<AccessClaims> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ["HS256"],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: clock.now(),
          requiredClaims: ["sub", "exp", "sid"],
        });
        if (typeof payload.sub !== "string" || typeof payload.sid !== "string" || !isId(payload.sub) || !isId(payload.sid)) throw new Error("bad claims");
        return { userId: payload.sub, sessionId: payload.sid };
      } catch (e) {
        if (e instanceof errors.JWTExpired) throw new AppError("TOKEN_EXPIRED", "access token expired");
        throw new AppError("UNAUTHORIZED", "invalid access token");
      }
    },
  };
}
export type TokenSigner = ReturnType<typeof createTokenSigner>;

export const newRefreshToken = () => randomBytes(32).toString("base64url");

// Its own key, so a successor can never equal a MAC made with JWT_SECRET for anything else.
const SUCCESSOR_KEY_LABEL = "shelf/refresh-token-successor/v1";

/**
 * The refresh token that replaces `token` when it is rotated: HMAC-SHA256 under a key
 * derived from the JWT secret. Deterministic, so a second presentation of `token` within
 * the reuse grace can be handed the very successor the first one got, while the database
 * still holds hashes only; unpredictable without the secret, like a random token.
 */
export function refreshSuccessor(secret: string, token: string): string {
  const key = createHmac("sha256", secret).update(SUCCESSOR_KEY_LABEL).digest();
  return createHmac("sha256", key).update(token).digest("base64url");
}

export const sha256Hex = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
