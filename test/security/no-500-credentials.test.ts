// Never a 500, credentials: every operation, sent a malformed
// Authorization header, a token of another scheme, or a JWT signed with the right key but
// holding claims no login ever issues (NUL bytes, lone surrogates, 100k characters, an
// unknown user), answers 401 or its own public answer, never 5xx; so does the refresh
// cookie of the session endpoints.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { decodeJwt, SignJWT } from "jose";
import { testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { type BadRequest, fillPath, operations, sweep } from "./no-500-sweep.ts";
import { REFRESH_COOKIE } from "../../src/modules/identity/index.ts";

// Each test sends dozens to hundreds of requests (uploads among them): on a busy CI
// machine that takes far longer than the default 5 s per test.
setDefaultTimeout(30_000);

const { deps } = await testContext();
const someone = await makeUser();
const liveSid = decodeJwt(someone.jwt).sid as string;

/** A JWT signed with the app's own key, as login signs them, holding `claims`. */
async function forged(claims: { sub: string; sid: string; exp?: number }): Promise<string> {
  const now = Math.floor(deps.clock.nowMs() / 1000);
  return await new SignJWT({ sid: claims.sid })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuer("shelf")
    .setAudience("shelf-api")
    .setIssuedAt(now)
    .setExpirationTime(claims.exp ?? now + 600)
    .sign(new TextEncoder().encode(deps.config.JWT_SECRET));
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
const CREDENTIALS: [string, string][] = [
  ["Bearer without a token", "Bearer"],
  ["Bearer and a space", "Bearer "],
  ["lower-case scheme", `bearer ${someone.jwt}`],
  ["Basic", "Basic dXNlcjpwYXNz"],
  ["5000 characters", `Bearer ${"x".repeat(5000)}`],
  ["key prefix and 5000 characters", `Bearer sk_${"x".repeat(5000)}`],
  ["key prefix and Latin-1", "Bearer sk_caf\u00e9"],
  ["three dots", "Bearer a.b.c"],
  ["alg none", `Bearer ${b64({ alg: "none", typ: "JWT" })}.${b64({ sub: someone.id, sid: liveSid, iss: "shelf", aud: "shelf-api", exp: 9e9 })}.`],
  ["two tokens", `Bearer ${someone.jwt} ${someone.jwt}`],
  ["sid with NUL", `Bearer ${await forged({ sub: someone.id, sid: "a\u0000b" })}`],
  ["sid of 100k characters", `Bearer ${await forged({ sub: someone.id, sid: "s".repeat(100_000) })}`],
  ["sid with a lone surrogate", `Bearer ${await forged({ sub: someone.id, sid: "\ud800" })}`],
  ["sub with NUL", `Bearer ${await forged({ sub: "a\u0000b", sid: liveSid })}`],
  ["sub of 100k characters", `Bearer ${await forged({ sub: "u".repeat(100_000), sid: liveSid })}`],
  ["sub with a lone surrogate", `Bearer ${await forged({ sub: "\udfff", sid: liveSid })}`],
  ["sub of no user", `Bearer ${await forged({ sub: "abcdefghijklmnopqrstu", sid: liveSid })}`],
  ["exp in year 275760", `Bearer ${await forged({ sub: someone.id, sid: liveSid, exp: 8.64e12 })}`],
];

const COOKIES: [string, string][] = [
  ["empty", ""],
  ["NUL", "%00"],
  ["invalid UTF-8", "%C3%28"],
  ["lone percent", "%"],
  ["5000 characters", "x".repeat(5000)],
  ["quoted", '"abc"'],
];

let total = 0;

describe("bad credentials never answer 5xx", () => {
  for (const o of operations) {
    test(`${o.method} ${o.path}`, async () => {
      total += await sweep(o, (c) => {
        const path = fillPath(o, c);
        const reqs: BadRequest[] = CREDENTIALS.map(([input, authorization]) => ({ input, path, anonymous: true, headers: { authorization } }));
        if (o.path.startsWith("/v1/auth/")) {
          for (const [input, value] of COOKIES)
            reqs.push({ input: `refresh cookie: ${input}`, path, anonymous: true, headers: { cookie: `${REFRESH_COOKIE}=${value}` } });
          reqs.push({ input: "refresh cookie twice", path, anonymous: true, headers: { cookie: `${REFRESH_COOKIE}=a; ${REFRESH_COOKIE}=b` } });
        }
        return reqs;
      });
    });
  }
});

test("the sweep covered every operation", () => {
  expect(total).toBeGreaterThan(operations.length * CREDENTIALS.length);
  console.info(`no-500 credential sweep: ${total} requests`);
});
