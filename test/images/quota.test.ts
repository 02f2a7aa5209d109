// Quotas before storing (img_storage, uploadsPerDay, uploadsPerMonth), concurrency at the
// edge of a quota, and failure safety: no orphan object, no counted bytes.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { createApp } from "../../src/wiring/app.ts";
import type { Deps } from "../../src/wiring/deps.ts";
import { dayKey, monthKey } from "../../src/infra/clock.ts";
import type { Storage } from "../../src/infra/storage/index.ts";
import { images } from "../../src/modules/images/table.ts";
import { ledger } from "../../src/modules/usage/ledger.ts";
import { createServices, type Services } from "../../src/wiring/services.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, type TestUser } from "../helpers/factories.ts";
import { jpegWithExif, png, upload, uploaded, uploadForm } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const photo = await jpegWithExif({ width: 64, height: 64, orientation: 1 });

async function usage(user: TestUser) {
  const { key } = await makeKey(user, ["usage.read"]);
  return (await callJson("GET", "/v1/user/me/usage", { token: key })).body.data;
}

async function objectsOf(userId: string): Promise<string[]> {
  const { deps } = await testContext();
  const keys: string[] = [];
  for await (const o of deps.storage.list(`images/${userId}/`)) keys.push(o.key);
  return keys;
}

/** Bytes one upload of `photo` counts (original + WebP): measured on a throwaway user. */
async function storedBytesOfPhoto(): Promise<number> {
  const { user, key } = await makeClient();
  await uploaded(key, photo);
  return (await usage(user)).image.storage.used;
}

describe("image quotas", () => {
  test("storage counts the original and its WebP; over img_storage is 403 QUOTA_EXCEEDED with type, used, limit", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const limit = deps.plans.trial.imageStorageBytes;
    await ledger.add(deps.db, [{ userId: user.id, dimension: "img_storage", period: "total", amount: limit - 10 }]);
    const res = await upload(key, photo);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("QUOTA_EXCEEDED");
    expect(res.body.meta).toEqual({ type: "img_storage", used: limit - 10, limit });
    expect(await objectsOf(user.id)).toEqual([]);
    expect((await usage(user)).uploads.day.used).toBe(0);
  });

  test("concurrent uploads at the edge of the storage quota never end above it", async () => {
    const { deps } = await testContext();
    const per = await storedBytesOfPhoto();
    const { user, key } = await makeClient();
    const limit = deps.plans.trial.imageStorageBytes;
    // Room for two and a half uploads: two fit, the rest must be refused.
    await ledger.add(deps.db, [{ userId: user.id, dimension: "img_storage", period: "total", amount: limit - Math.floor(2.5 * per) }]);
    const results = await Promise.all(Array.from({ length: 6 }, () => upload(key, photo)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 403, 403, 403, 403]);
    const u = await usage(user);
    expect(u.image.storage.used).toBeLessThanOrEqual(limit);
    expect(u.image.storage.used).toBe(limit - Math.floor(2.5 * per) + 2 * per);
    // Two images, two objects each; nothing left from the refused ones.
    expect((await objectsOf(user.id)).length).toBe(4);
  });

  test("uploadsPerDay: the last upload of the day passes, concurrent extras are 429; yesterday's count does not block", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const now = deps.clock.now();
    const limit = deps.plans.trial.uploadsPerDay;
    const yesterday = dayKey(new Date(now.getTime() - 86_400_000));
    await ledger.add(deps.db, [
      { userId: user.id, dimension: "uploads_per_day", period: yesterday, amount: limit },
      { userId: user.id, dimension: "uploads_per_day", period: dayKey(now), amount: limit - 1 },
    ]);
    const results = await Promise.all(Array.from({ length: 3 }, async () => upload(key, await png())));
    expect(results.map((r) => r.status).sort()).toEqual([201, 429, 429]);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body.code).toBe("RATE_LIMITED");
    expect(refused.body.meta.type).toBe("uploads_per_day");
    // Resets at midnight UTC.
    const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
    expect(refused.body.meta.resetAt).toBe(midnight.toISOString());
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(86_400);
    // The RateLimit headers describe the daily count, not the per-minute tier.
    expect(refused.headers.get("ratelimit-limit")).toBe(String(limit));
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("ratelimit-reset")).toBe(refused.headers.get("retry-after"));
    expect(await objectsOf(user.id)).toHaveLength(2); // only the one that passed
  });

  test("uploadsPerMonth: over the month's count is 429, resetting at the start of next month", async () => {
    const { deps } = await testContext();
    const { user, key } = await makeClient();
    const now = deps.clock.now();
    await ledger.add(deps.db, [{ userId: user.id, dimension: "uploads_per_month", period: monthKey(now), amount: deps.plans.trial.uploadsPerMonth }]);
    const res = await upload(key, await png());
    expect(res.status).toBe(429);
    expect(res.body.meta.type).toBe("uploads_per_month");
    expect(res.body.meta.resetAt).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    expect(res.headers.get("ratelimit-limit")).toBe(String(deps.plans.trial.uploadsPerMonth));
    expect(res.headers.get("ratelimit-remaining")).toBe("0");
  });
});

const opened: Services[] = [];
afterAll(() => Promise.all(opened.map((s) => s.close())));

/** An app on the same database and kv whose storage or database fails on purpose. */
async function appWith(patch: (deps: Deps) => Partial<Deps>) {
  const { deps } = await testContext();
  const services = createServices({ ...deps, ...patch(deps) });
  opened.push(services);
  return createApp(services);
}

async function uploadVia(app: Awaited<ReturnType<typeof appWith>>, key: string, bytes: Uint8Array) {
  const res = await app.handle(
    new Request("http://shelf.test/v1/images", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: uploadForm(bytes) }),
  );
  return { status: res.status, body: (await res.json()) as any };
}

describe("image upload: failure safety", () => {
  test("storage failing after the original is written: 502 STORAGE_ERROR, no object left, nothing counted", async () => {
    const app = await appWith((deps) => {
      const failing: Storage = {
        ...deps.storage,
        async put(key, body, opts) {
          if (key.endsWith("/w.webp")) throw new Error("disk full");
          return deps.storage.put(key, body, opts);
        },
      };
      return { storage: failing };
    });
    const { user, key } = await makeClient();
    const res = await uploadVia(app, key, photo);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe("STORAGE_ERROR");
    expect(await objectsOf(user.id)).toEqual([]);
    const u = await usage(user);
    expect(u.image.storage.used).toBe(0);
    expect(u.uploads.day.used).toBe(0);
  });

  test("the row failing to commit after both objects are written: 500, no object left, nothing counted", async () => {
    const app = await appWith((deps) => {
      // The transaction's insert into images throws; reserve() has already run in it.
      const db = new Proxy(deps.db, {
        get(target, prop, receiver) {
          if (prop !== "transaction") return Reflect.get(target, prop, receiver);
          return (fn: (tx: unknown) => Promise<unknown>) =>
            target.transaction((tx) =>
              fn(
                new Proxy(tx, {
                  get(t, p, r) {
                    if (p !== "insert") return Reflect.get(t, p, r);
                    return (table: unknown) => {
                      if (table === images) throw new Error("insert failed");
                      return t.insert(table as typeof images);
                    };
                  },
                }),
              ),
            );
        },
      });
      return { db };
    });
    const { user, key } = await makeClient();
    const res = await uploadVia(app, key, photo);
    expect(res.status).toBe(500);
    expect(res.body.code).toBe("INTERNAL");
    expect(await objectsOf(user.id)).toEqual([]);
    const { deps } = await testContext();
    expect(
      await deps.db
        .select()
        .from(images)
        .where(and(eq(images.ownerId, user.id))),
    ).toEqual([]);
    const u = await usage(user);
    expect(u.image.storage.used).toBe(0);
    expect(u.uploads.day.used).toBe(0);
    expect(u.uploads.month.used).toBe(0);
  });
});
