// The backup and restore of an instance on embedded parts, as docs/operators.md ("Backup and
// restore") tells it: `shelf admin backup DEST` while the server runs (through its admin
// socket, in the server), `shelf admin restore DEST` into a new DATA_DIR, and the restored
// instance started there serves the same URLs with the same bytes, to the same API key and
// session, with the same listings and KB manifest. Embedded whatever parts the suite runs on.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { tempDir, testEnv } from "../helpers/context.ts";
import { freshDataDir } from "../helpers/empty-instance.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { png } from "../images/fixtures.ts";
import { admin, type Env, expectWhole, fillInstance, me, ok, signup, startServer, stateOf } from "./backup-fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

/** An embedded instance's environment: no production part, and the secret generated into DATA_DIR. */
const embedded = (dataDir: string): Env =>
  testEnv({
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    REDIS_URL: "",
    S3_BUCKET: "",
    S3_ACCESS_KEY_ID: "",
    S3_SECRET_ACCESS_KEY: "",
    JWT_SECRET: "",
    PORT: "0",
    LOG_LEVEL: "info",
    FIRST_USER_ADMIN: "true",
  });

describe("backup and restore on embedded parts", () => {
  test("a backup of the running server, restored into a new DATA_DIR, serves the same URLs, bytes, keys, listings and manifest", async () => {
    const env = embedded(await freshDataDir());
    const server = await startServer(env);
    stops.push(server.stop);
    const content = await fillInstance(server.base, env);
    const before = await stateOf(server.base, content);
    expectWhole(before);

    // Another account uploads and deletes while the backup runs: whatever the backup's instant
    // fell between, the restored rows must each find their object.
    const other = await signup(server.base, "other@example.com");
    let backingUp = true;
    const churn = (async () => {
      let rounds = 0;
      // At most 40: the upload tier allows 60 a minute.
      while ((backingUp || rounds < 2) && rounds < 40) {
        const form = new FormData();
        form.set("file", new File([(await png(8 + (rounds % 8), 8)) as Uint8Array<ArrayBuffer>], "churn.png"));
        const up = await fetch(`${server.base}/v1/images`, { method: "POST", headers: { authorization: `Bearer ${other}` }, body: form });
        if (up.status !== 201) throw new Error(`upload answered ${up.status}`);
        const { data } = (await up.json()) as { data: { id: string } };
        if (rounds % 2) await fetch(`${server.base}/v1/images/${data.id}`, { method: "DELETE", headers: { authorization: `Bearer ${other}` } });
        rounds++;
      }
      return rounds;
    })();
    const dest = join(tempDir("shelf-backups-"), "monday");
    const backup = await admin(env, "backup", dest).finally(() => {
      backingUp = false;
    });
    expect(await churn).toBeGreaterThanOrEqual(2);
    expect(backup.err).toContain("through its running server");
    expect(backup.code).toBe(0);
    expect(backup.out).toContain(`backup of DATA_DIR=${env.DATA_DIR} in ${dest}`);
    expect(backup.out).toContain("jwt-secret: copied");
    expect(readdirSync(dest).sort()).toEqual(["jwt-secret", "objects", "pg", "shelf-backup.json"]);
    expect((statSync(join(dest, "jwt-secret")).mode & 0o777).toString(8)).toBe("600");
    // Nothing of the running process: a copy opened elsewhere must not find it locked.
    for (const own of ["shelf.pid", "postmaster.pid"]) expect(existsSync(join(dest, "pg", own))).toBe(false);
    // The snapshot's links in the store's own folder are gone with the backup.
    expect(readdirSync(join(env.DATA_DIR!, "objects", ".tmp")).filter((n) => n.startsWith("snapshot-"))).toEqual([]);

    // The backup is a copy: what the live instance deletes afterwards stays in it.
    const deleted = await fetch(`${server.base}/v1/images/${content.imageId}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${content.accessToken}` },
    });
    expect(deleted.status).toBe(204);

    // A restore needs a new folder, and no server on it.
    const refused = await admin(env, "restore", dest);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("a server runs on DATA_DIR");

    const restoredEnv = embedded(join(tempDir("shelf-restored-"), "data"));
    const restore = await admin(restoredEnv, "restore", dest);
    expect(restore.code).toBe(0);
    expect(restore.out).toContain("database: opened and shut down cleanly");
    expect(restore.out).toContain("jwt-secret: restored");

    const restored = await startServer(restoredEnv);
    stops.push(restored.stop);
    const after = await stateOf(restored.base, content);
    expect(after).toEqual(before);
    // The session signed before the backup is still good: the secret came with it.
    expect((await me(restored.base, content.accessToken)).email).toBe(content.email);
    // Every row restored has its object, the churn's included (through the restored server's socket).
    expect(await ok(admin(restoredEnv, "job", "run", "orphan-sweep"))).toContain('"missing":0');
  }, 90_000);

  test("with no server running the command opens the instance itself; it refuses a destination that is not a new folder, or lies inside DATA_DIR", async () => {
    const env = embedded(await freshDataDir());
    const dest = join(tempDir("shelf-backups-"), "stopped");
    const stopped = await admin(env, "backup", dest);
    expect(stopped.err).toContain("opened directly");
    expect(stopped.code).toBe(0);
    expect(readdirSync(dest).sort()).toEqual(["jwt-secret", "objects", "pg", "shelf-backup.json"]);

    const full = tempDir("shelf-full-");
    await Bun.write(join(full, "something"), "x");
    const notEmpty = await admin(env, "backup", full);
    expect(notEmpty.code).toBe(2);
    expect(notEmpty.err).toContain("is not empty");
    const within = await admin(env, "backup", join(env.DATA_DIR!, "backups"));
    expect(within.code).toBe(2);
    expect(within.err).toContain("inside DATA_DIR");
    // Neither made anything.
    expect(existsSync(join(env.DATA_DIR!, "backups"))).toBe(false);
    expect(readdirSync(full)).toEqual(["something"]);
  }, 60_000);
});
