// `shelf sync login` and `logout` against the OAuth test app listening on a port, spoken to
// over HTTP as the command does. The test approves the device code through the API, as the
// device page does, while the command polls; the command's waits move the app's clock
// instead of passing time, so the polling rules (interval, slow_down) are exact.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Send } from "../../clients/sync/api.ts";
import type { TestUser } from "../helpers/factories.ts";
import { tempDir } from "../helpers/context.ts";
import { oauthApp } from "../oauth/flow.ts";
import { Lines, runSync } from "./harness.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
const server = o.app.listen({ port: 0, hostname: "127.0.0.1" }).server!;
// Not awaited: a connection the client pool keeps open can hold the promise past the hook timeout.
afterAll(() => {
  server.stop(true);
});
const BASE = `http://127.0.0.1:${server.port}`;
const MINUTE = 60_000;

/** Every request the command sent, with the status it got. */
function recorder() {
  const seen: { path: string; status: number }[] = [];
  const send = async (request: Request) => {
    const res = await fetch(request);
    seen.push({ path: new URL(request.url).pathname, status: res.status });
    return res;
  };
  return { seen, send };
}

interface LoginRun {
  user: TestUser;
  configDir: string;
  /** What the command's n-th wait (from 1) does besides moving the clock by its length; "hold" leaves the clock where it is. */
  onWait?: (n: number, userCode: string) => Promise<"hold" | undefined>;
  now?: () => number;
  send?: Send;
}

/** `shelf sync login --url BASE`; by default the user approves during the first wait. */
async function login({ user, configDir, onWait, now = () => o.clock.nowMs(), send = (r) => fetch(r) }: LoginRun) {
  const lines = new Lines();
  const waits: number[] = [];
  const run = await runSync(
    ["login", "--url", BASE],
    {
      env: { SHELF_CONFIG_DIR: configDir },
      send,
      now,
      sleep: async (ms) => {
        waits.push(ms);
        const userCode = /enter the code ([0-9A-Z]{4}-[0-9A-Z]{4})$/.exec(lines.out[0] ?? "")![1]!;
        const what = onWait ? await onWait(waits.length, userCode) : (await o.verify(user, userCode)).status === 200 ? undefined : "hold";
        if (what !== "hold") o.clock.advance(ms);
      },
    },
    lines,
  );
  return { ...run, waits };
}

const credentialsOf = async (configDir: string) => (await Bun.file(join(configDir, "credentials.json")).json()).servers[BASE];

/** A folder synced with `slug` on BASE with the stored sign-in (no API key). */
const sync = (configDir: string, folder: string, slug: string, opts: { extra?: string[]; env?: Record<string, string>; send?: Send } = {}) =>
  runSync([folder, "--kb", slug, "--server", BASE, ...(opts.extra ?? [])], {
    env: { SHELF_CONFIG_DIR: configDir, ...opts.env },
    send: opts.send ?? ((r) => fetch(r)),
    now: () => o.clock.nowMs(),
  });

describe("shelf sync login", () => {
  test("shows the code and the page, polls at the interval (authorization_pending, slow_down adds 5 s), and keeps the sign-in 0600 in a 0700 folder", async () => {
    const user = await o.makeUser();
    const configDir = join(tempDir("shelf-config-"), "shelf");
    const run = await login({
      user,
      configDir,
      onWait: async (n, userCode) => {
        if (n === 2) return "hold"; // a poll sooner than the interval: the server answers slow_down
        if (n === 3) expect((await o.verify(user, userCode)).status).toBe(200);
      },
    });
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.waits).toEqual([5_000, 5_000, 10_000]);
    const userCode = /enter the code (\S+)$/.exec(run.out[0]!)![1];
    expect(run.out[0]).toBe(`To sign in, open http://shelf.test/device and enter the code ${userCode}`);
    expect(run.out[1]).toBe(`(or open http://shelf.test/device?user_code=${userCode})`);
    expect(run.out.at(-1)).toStartWith(`Signed in to ${BASE}`);

    const file = join(configDir, "credentials.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(configDir)).toEqual(["credentials.json"]);
    const stored = await credentialsOf(configDir);
    expect(stored).toMatchObject({ clientId: "shelf-sync", scope: "media.read media.write kb.read kb.write" });
    expect(stored.refreshToken).toMatch(/^ort_/);
    expect((await o.api("GET", "/v1/kbs", stored.accessToken)).status).toBe(200);
  });

  test("polls the server does not answer (no connection, 503) are asked again later, the wait doubling each time", async () => {
    const user = await o.makeUser();
    const configDir = tempDir("shelf-config-");
    let polls = 0;
    const run = await login({
      user,
      configDir,
      send: async (r) => {
        if (new URL(r.url).pathname !== "/oauth/token") return fetch(r);
        polls++;
        if (polls === 1) throw new TypeError("connection refused");
        if (polls === 2) return Response.json({ error: "temporarily_unavailable" }, { status: 503 });
        return fetch(r);
      },
      onWait: async (n, userCode) => {
        if (n === 3) expect((await o.verify(user, userCode)).status).toBe(200);
      },
    });
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.waits).toEqual([5_000, 10_000, 20_000]);
    expect(polls).toBe(3);
  });

  test("denied on the page, or expired before anyone approved: a clear message, exit 1, nothing stored", async () => {
    const user = await o.makeUser();
    const configDir = tempDir("shelf-config-");
    const denied = await login({
      user,
      configDir,
      onWait: async (_n, userCode) => {
        await o.verify(user, userCode, "deny");
      },
    });
    expect(denied.code).toBe(1);
    expect(denied.err.join("\n")).toContain("denied");
    // This machine's clock stands still: the server's expired_token ends the wait.
    const stillNow = o.clock.nowMs();
    const expired = await login({
      user,
      configDir,
      now: () => stillNow,
      onWait: async () => {
        o.clock.advance(11 * MINUTE);
      },
    });
    expect(expired.code).toBe(1);
    expect(expired.err.join("\n")).toContain("expired");
    expect(readdirSync(configDir)).toEqual([]);
  });

  test("a later sync needs no API key; --create makes the KB it names; SHELF_API_KEY still wins", async () => {
    const user = await o.makeUser();
    const configDir = tempDir("shelf-config-");
    expect((await login({ user, configDir })).code).toBe(0);
    const before = await credentialsOf(configDir);
    const folder = tempDir("shelf-sync-login-");
    await Bun.write(join(folder, "a.md"), "# A\n");
    const slug = `notes-${Date.now().toString(36)}`;

    const missing = await sync(configDir, folder, slug);
    expect(missing.code).toBe(1);
    expect(missing.err.join("\n")).toContain("--create");

    const created = await sync(configDir, folder, slug, { extra: ["--create"] });
    expect(created.err).toEqual([]);
    expect(created.code).toBe(0);
    expect(created.out).toContain(`created  knowledge base ${slug}`);
    expect(created.out).toContain("pushed   a.md");
    const kbs = (await o.api("GET", "/v1/kbs", user.jwt)).body.data.items;
    const kb = kbs.find((k: { slug: string }) => k.slug === slug);
    expect(kb).toBeDefined();
    const manifest = (await o.api("GET", `/v1/kbs/${kb.id}/manifest`, user.jwt)).body.data.items;
    expect(manifest.map((i: { relativePath: string }) => i.relativePath)).toEqual(["a.md"]);
    // The access token was fresh: no refresh, the stored tokens are the same.
    expect(await credentialsOf(configDir)).toEqual(before);

    const byKey = await sync(configDir, folder, slug, { env: { SHELF_API_KEY: "sk_live_0000000000000000000000000000000x" } });
    expect(byKey.code).toBe(1);
    expect(byKey.err.join("\n")).toContain("401");
  });

  test("an expired access token is renewed with rotation, the new refresh token stored first; the spent one is refused", async () => {
    const user = await o.makeUser();
    const configDir = tempDir("shelf-config-");
    expect((await login({ user, configDir })).code).toBe(0);
    const first = await credentialsOf(configDir);
    const folder = tempDir("shelf-sync-login-");
    await Bun.write(join(folder, "a.md"), "a\n");
    const slug = `rot-${Date.now().toString(36)}`;
    expect((await sync(configDir, folder, slug, { extra: ["--create"] })).code).toBe(0);

    // The server's clock passes the access token's 15 minutes, this machine's does not: the
    // server refuses it (401), the command renews. The connection drops right after the
    // renewal: the rotated refresh token is on disk all the same.
    const stillNow = o.clock.nowMs();
    o.clock.advance(16 * MINUTE);
    await Bun.write(join(folder, "b.md"), "b\n");
    const dropping = recorder();
    let renewedAt = -1;
    const crash = await runSync([folder, "--kb", slug, "--server", BASE], {
      env: { SHELF_CONFIG_DIR: configDir },
      now: () => stillNow,
      send: async (r) => {
        if (renewedAt >= 0) throw new Error("connection reset");
        const res = await dropping.send(r);
        if (new URL(r.url).pathname === "/oauth/token") renewedAt = dropping.seen.length;
        return res;
      },
    });
    expect(crash.code).toBe(1);
    expect(dropping.seen.map((r) => r.status)).toEqual([401, 200]);
    const second = await credentialsOf(configDir);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    // The next run goes on with the stored tokens: no renewal, no refusal.
    const resumed = recorder();
    const renewed = await runSync([folder, "--kb", slug, "--server", BASE], { env: { SHELF_CONFIG_DIR: configDir }, send: resumed.send, now: () => stillNow });
    expect(renewed.err).toEqual([]);
    expect(renewed.code).toBe(0);
    expect(renewed.out).toContain("pushed   b.md");
    expect(resumed.seen.some((r) => r.status === 401 || r.path === "/oauth/token")).toBe(false);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(statSync(join(configDir, "credentials.json")).mode & 0o777).toBe(0o600);

    // Both clocks past the new token's end: renewed before the first request, no 401 at all.
    o.clock.advance(16 * MINUTE);
    const ahead = recorder();
    await Bun.write(join(folder, "c.md"), "c\n");
    const proactive = await sync(configDir, folder, slug, { send: ahead.send });
    expect(proactive.code).toBe(0);
    expect(ahead.seen[0]).toEqual({ path: "/oauth/token", status: 200 });
    expect(ahead.seen.some((r) => r.status === 401)).toBe(false);
    const third = await credentialsOf(configDir);
    expect(third.refreshToken).not.toBe(second.refreshToken);

    const spent = await o.refresh(first.refreshToken);
    expect(spent.body.error).toBe("invalid_grant");
  });

  test("logout revokes the sign-in at the server and forgets it: its tokens are refused, and sync asks to sign in", async () => {
    const user = await o.makeUser();
    const configDir = tempDir("shelf-config-");
    expect((await login({ user, configDir })).code).toBe(0);
    const stored = await credentialsOf(configDir);
    const lines = new Lines();
    const out = await runSync(["logout", "--url", BASE], { env: { SHELF_CONFIG_DIR: configDir }, send: (r) => fetch(r) }, lines);
    expect(out.err).toEqual([]);
    expect(out.code).toBe(0);
    expect(out.out).toEqual([`Signed out of ${BASE}; the sign-in was revoked.`]);
    expect(readdirSync(configDir)).toEqual([]);
    const refused = await o.refresh(stored.refreshToken);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("invalid_grant");
    expect((await o.api("GET", "/v1/kbs", stored.accessToken)).status).toBe(401);

    const folder = tempDir("shelf-sync-login-");
    const after = await sync(configDir, folder, "anything");
    expect(after.code).toBe(2);
    expect(after.err[0]).toContain("shelf sync login");
  });
});
