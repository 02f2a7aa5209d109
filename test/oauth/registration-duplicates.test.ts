// A client that registers again exactly as before (the same name, redirect URIs, grant
// types and scopes) gets a client of its own, and the approval queue names the earliest
// such client that is not rejected as the one it repeats (duplicateOf), so an administrator
// tells copies from new apps and refuses them. Anything different is a new app.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { oauthApp } from "./flow.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
// The queue lists the newest first: these registrations, a second apart, are dated an hour
// back, so they never crowd the first page another file's test reads in the same process.
o.clock.advance(-3_600_000);

const admin = async () => {
  const user = await o.makeUser();
  await o.deps.db.execute(`update users set is_admin = true where id = '${user.id}'`);
  return user;
};

/** Registers `metadata` from an address of its own, a second after the one before (the queue's order is registration time). */
async function register(metadata: Record<string, unknown>): Promise<{ id: string; createdAt: string }> {
  o.clock.advance(1000);
  const res = await o.call("POST", "/oauth/register", { app: o.app, json: metadata, headers: { "x-forwarded-for": o.ip() } });
  expect(res.status).toBe(201);
  return { id: ((await res.json()) as { client_id: string }).client_id, createdAt: o.clock.now().toISOString() };
}

/** The queue's items of `status` by id (every page). */
async function queue(token: string, status: "pending" | "approved" | "rejected" = "pending") {
  const items = new Map<string, any>();
  let cursor: string | null = null;
  do {
    const res = await o.api("GET", `/v1/admin/oauth-clients?status=${status}&limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, token);
    expect(res.status).toBe(200);
    for (const item of res.body.data.items) items.set(item.id, item);
    cursor = res.body.data.nextCursor;
  } while (cursor);
  return items;
}

const decide = (id: string, token: string, status: "approved" | "rejected") =>
  o.call("PATCH", `/v1/admin/oauth-clients/${id}`, { app: o.app, token, json: { status } }).then(async (r) => ({ status: r.status, body: await r.json() }));

describe("duplicate registrations in the approval queue", () => {
  test("the same registration again, in any order of its lists, names the first; a different name, address, grant or scope does not", async () => {
    const boss = await admin();
    const name = `Test Client ${crypto.randomUUID().slice(0, 8)}`;
    const metadata = { client_name: name, redirect_uris: ["http://127.0.0.1:9/cb", "https://app.example/cb"], scope: "kb.read media.read" };
    const first = await register(metadata);
    const again = await register(metadata);
    const reordered = await register({ ...metadata, redirect_uris: [...metadata.redirect_uris].reverse(), scope: "media.read kb.read" });
    const others = [
      await register({ ...metadata, client_name: `${name} 2` }),
      await register({ ...metadata, redirect_uris: ["https://app.example/cb"] }),
      await register({ ...metadata, scope: "kb.read" }),
      await register({ ...metadata, grant_types: ["authorization_code"] }),
    ];
    const pending = await queue(boss.jwt);
    expect(pending.get(first.id).duplicateOf).toBeNull();
    expect(pending.get(again.id).duplicateOf).toEqual({ id: first.id, status: "pending", createdAt: first.createdAt });
    expect(pending.get(reordered.id).duplicateOf).toEqual({ id: first.id, status: "pending", createdAt: first.createdAt });
    for (const other of others) expect(pending.get(other.id).duplicateOf).toBeNull();
  });

  test("approved, the first is still named; a copy rejected says so in its answer; once the first is rejected the next copy stands alone", async () => {
    const boss = await admin();
    const metadata = { client_name: `Repeat ${crypto.randomUUID().slice(0, 8)}`, redirect_uris: ["https://repeat.example/cb"] };
    const first = await register(metadata);
    const second = await register(metadata);
    const third = await register(metadata);
    expect((await decide(first.id, boss.jwt, "approved")).body.data.duplicateOf).toBeNull();
    const pending = await queue(boss.jwt);
    expect(pending.has(first.id)).toBe(false);
    expect(pending.get(second.id).duplicateOf).toEqual({ id: first.id, status: "approved", createdAt: first.createdAt });
    expect(pending.get(third.id).duplicateOf).toEqual({ id: first.id, status: "approved", createdAt: first.createdAt });

    const refused = await decide(second.id, boss.jwt, "rejected");
    expect(refused.status).toBe(200);
    expect(refused.body.data).toMatchObject({ id: second.id, status: "rejected", duplicateOf: { id: first.id, status: "approved" } });

    // A rejected client is no one's original: a registration again after a rejection is a new app.
    expect((await decide(first.id, boss.jwt, "rejected")).status).toBe(200);
    expect((await queue(boss.jwt)).get(third.id).duplicateOf).toBeNull();
    const fourth = await register(metadata);
    expect((await queue(boss.jwt)).get(fourth.id).duplicateOf).toEqual({ id: third.id, status: "pending", createdAt: third.createdAt });
  });

  test("a copy still works as a client of its own until it is refused (its registrant holds its id)", async () => {
    const metadata = {
      client_name: `Device ${crypto.randomUUID().slice(0, 8)}`,
      grant_types: ["urn:ietf:params:oauth:grant-type:device_code"],
      scope: "media.read",
    };
    await register(metadata);
    const copy = await register(metadata);
    expect((await o.start(copy.id)).status).toBe(200);
    expect((await decide(copy.id, (await admin()).jwt, "rejected")).status).toBe(200);
    expect((await o.start(copy.id)).body.error).toBe("invalid_client");
  });
});
