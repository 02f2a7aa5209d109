// Two tabs refreshing one session at once must not sign the user out: a refresh token
// presented again within REFRESH_REUSE_GRACE_S of its rotation gets the same successor.
// After the grace, or once that successor has been used, a replay still ends the session.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createApp } from "../../src/wiring/app.ts";
import { REFRESH_COOKIE } from "../../src/modules/identity/index.ts";
import { refreshTokens } from "../../src/modules/identity/table.ts";
import { sha256Hex } from "../../src/modules/identity/tokens.ts";
import { createServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

// This file's node measures the grace on a clock that stands still until pastGrace() moves
// it: "within the grace" holds however long a busy machine takes between two refreshes.
const clock = stoppedClock();
const { deps: shared } = await testContext();
const services = createServices({ ...shared, clock });
const node = createApp(services);
afterAll(() => services.close());

type Sent = { headers?: Record<string, string>; token?: string };
async function call(method: string, path: string, { headers = {}, token }: Sent = {}) {
  const h = new Headers(headers);
  if (token) h.set("authorization", `Bearer ${token}`);
  return node.handle(new Request(`http://shelf.test${path}`, { method, headers: h }));
}
async function callJson(method: string, path: string, opts: Sent = {}) {
  const res = await call(method, path, opts);
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const cookieOf = (res: { headers: Headers }) => res.headers.getSetCookie().find((c) => c.startsWith(`${REFRESH_COOKIE}=`));
const successorOf = (res: { headers: Headers }) => (cookieOf(res) ?? "").split(";")[0]!.split("=")[1] ?? "";
const withCookie = (token: string) => ({ headers: { cookie: `${REFRESH_COOKIE}=${token}` } });
const refresh = (token: string) => callJson("POST", "/v1/auth/refresh", withCookie(token));

/** Moves this file's clock just past the reuse grace. */
async function pastGrace() {
  clock.advance(shared.config.REFRESH_REUSE_GRACE_S * 1000 + 1000);
}

async function expectSessionEnded(accessTokens: string[], refreshToken: string) {
  for (const token of accessTokens) expect((await call("GET", "/v1/user/me", { token })).status).toBe(401);
  expect((await refresh(refreshToken)).status).toBe(401);
}

describe("refresh from two tabs at once", () => {
  test("two refreshes of one token at once both get 200 and the same successor; the session lives on", async () => {
    const u = await makeUser();
    const [a, b] = await Promise.all([refresh(u.refreshToken), refresh(u.refreshToken)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const successor = successorOf(a);
    expect(successor.length).toBeGreaterThan(20);
    expect(successor).not.toBe(u.refreshToken);
    expect(successorOf(b)).toBe(successor);
    for (const token of [a.body.data.accessToken, b.body.data.accessToken]) {
      const me = await callJson("GET", "/v1/user/me", { token });
      expect(me.status).toBe(200);
      expect(me.body.data.id).toBe(u.id);
    }
    // The successor then rotates like any refresh token, to a new one.
    const next = await refresh(successor);
    expect(next.status).toBe(200);
    expect(successorOf(next)).not.toBe(successor);
    expect((await call("GET", "/v1/user/me", { token: next.body.data.accessToken })).status).toBe(200);
  });

  test("two api nodes on one database: the loser of the rotation race gets the winner's successor", async () => {
    const nodes = [createApp(services), createApp(services)];
    const u = await makeUser();
    const [a, b] = await Promise.all(
      nodes.map((node) => node.handle(new Request("http://shelf.test/v1/auth/refresh", { method: "POST", ...withCookie(u.refreshToken) }))),
    );
    expect([a!.status, b!.status]).toEqual([200, 200]);
    expect(successorOf(a!)).toBe(successorOf(b!));
    // One successor row, however many times it was handed out.
    const { deps } = await testContext();
    expect(
      await deps.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, sha256Hex(successorOf(a!)))),
    ).toHaveLength(1);
  });

  test("a token presented again a moment after its rotation gets the same successor, and no plaintext is stored", async () => {
    const u = await makeUser();
    const first = await refresh(u.refreshToken);
    const again = await refresh(u.refreshToken);
    expect(again.status).toBe(200);
    expect(successorOf(again)).toBe(successorOf(first));
    const { deps } = await testContext();
    const rows = await deps.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256Hex(successorOf(first))));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(successorOf(first));
  });
});

describe("a replay still ends the session", () => {
  test("after the grace, a rotated token is a replay: 401 refresh_token_reused and every token of the session refused", async () => {
    const u = await makeUser();
    const first = await refresh(u.refreshToken);
    expect(first.status).toBe(200);
    await pastGrace();
    const replay = await refresh(u.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe("UNAUTHORIZED");
    expect(replay.body.meta.reason).toBe("refresh_token_reused");
    expect(cookieOf(replay)).toContain("Max-Age=0");
    await expectSessionEnded([u.jwt, first.body.data.accessToken], successorOf(first));
  });

  test("within the grace, once the successor has been rotated too, the old token is a replay", async () => {
    const u = await makeUser();
    const first = await refresh(u.refreshToken);
    const second = await refresh(successorOf(first));
    expect(second.status).toBe(200);
    const replay = await refresh(u.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body.meta.reason).toBe("refresh_token_reused");
    await expectSessionEnded([first.body.data.accessToken, second.body.data.accessToken], successorOf(second));
  });

  test("within the grace, a session ended meanwhile (logout) is not reopened", async () => {
    const u = await makeUser();
    const first = await refresh(u.refreshToken);
    expect((await call("POST", "/v1/auth/logout", withCookie(successorOf(first)))).status).toBe(204);
    const again = await refresh(u.refreshToken);
    expect(again.status).toBe(401);
    expect(again.body.code).toBe("UNAUTHORIZED");
    expect(cookieOf(again)).toContain("Max-Age=0");
  });

  test("with REFRESH_REUSE_GRACE_S=0 there is no grace: the second presentation ends the session", async () => {
    const { services, deps } = await testContext();
    const app = createApp({ ...services, deps: { ...deps, config: { ...deps.config, REFRESH_REUSE_GRACE_S: 0 } } });
    const send = async (token: string) => {
      const res = await app.handle(new Request("http://shelf.test/v1/auth/refresh", { method: "POST", ...withCookie(token) }));
      return { status: res.status, headers: res.headers, body: (await res.json()) as any };
    };
    const u = await makeUser();
    const first = await send(u.refreshToken);
    expect(first.status).toBe(200);
    const replay = await send(u.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body.meta.reason).toBe("refresh_token_reused");
    await expectSessionEnded([first.body.data.accessToken], successorOf(first));
  });
});
