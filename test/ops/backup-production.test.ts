// The backup and restore of an instance on Postgres, as docs/operators.md ("Backup and
// restore") tells it, with the real tools: pg_dump of the running instance, then its objects
// copied (the S3 bucket object by object under the same keys, as rclone or `aws s3 sync`
// do, on real parts; `cp -a` of DATA_DIR/objects where the objects are in a folder); then
// pg_restore into a new database, the objects into a new bucket or folder, and the instance
// started on them with the same JWT_SECRET and PUBLIC_URL serves the same URLs with the same
// bytes, to the same API key and session (with another secret, to the key alone). Postgres
// is the suite's on real parts, else a throwaway cluster of the machine's server binaries
// (CI installs them).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { AwsClient } from "aws4fetch";
import { newId } from "../../src/infra/ids.ts";
import { createS3Storage } from "../../src/infra/storage/s3.ts";
import { tempDir, testEnv } from "../helpers/context.ts";
import { findPgBin, startPgCluster } from "../helpers/pg-cluster.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { admin, type Env, expectWhole, fillInstance, me, ok, run, startServer, stateOf } from "./backup-fixtures.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean().catch(() => {});
});

const bin = findPgBin();

/** The suite's S3 (real parts), if it runs on one: a bucket of its own is made for each side. */
const s3 = process.env.S3_BUCKET
  ? {
      endpoint: process.env.S3_ENDPOINT!,
      region: process.env.S3_REGION ?? "us-east-1",
      accessKeyId: process.env.S3_ACCESS_KEY_ID!,
      secretAccessKey: process.env.S3_SECRET_ACCESS_KEY!,
    }
  : undefined;

async function newBucket(name: string): Promise<void> {
  const aws = new AwsClient({ accessKeyId: s3!.accessKeyId, secretAccessKey: s3!.secretAccessKey, region: s3!.region, service: "s3" });
  const res = await fetch(await aws.sign(`${s3!.endpoint.replace(/\/+$/, "")}/${name}`, { method: "PUT" }));
  if (!res.ok) throw new Error(`CreateBucket ${name} answered ${res.status}: ${await res.text()}`);
}

/** What an S3 copy tool does: every object of one bucket into another under the same key. */
async function copyBucket(from: string, to: string): Promise<number> {
  const source = createS3Storage({ ...s3!, bucket: from });
  const target = createS3Storage({ ...s3!, bucket: to });
  let n = 0;
  for await (const o of source.list("")) {
    await target.put(o.key, (await source.read(o.key))!);
    n++;
  }
  return n;
}

const lowerId = () =>
  newId()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "x");

describe("backup and restore on Postgres", () => {
  test.skipIf(!bin)(
    "pg_dump, then the objects; pg_restore into a new database and the objects into a new store: the same URLs, bytes, key, listings and manifest",
    async () => {
      const pg = bin!;
      let serverUrl = process.env.DATABASE_URL;
      if (!serverUrl) {
        const cluster = await startPgCluster(pg);
        cleanups.push(() => cluster.dispose());
        serverUrl = cluster.url;
      }
      const dbUrl = (name: string) => {
        const u = new URL(serverUrl!);
        u.pathname = `/${name}`;
        return u.toString();
      };
      const psql = (sql: string) => ok(run([`${pg}/psql`, "-X", "-q", "-v", "ON_ERROR_STOP=1", dbUrl("postgres"), "-c", sql], {}));
      const id = lowerId();
      const [sourceDb, targetDb] = [`shelf_backup_${id}`, `shelf_restored_${id}`];
      await psql(`create database ${sourceDb}`);
      cleanups.push(async () => {
        for (const db of [sourceDb, targetDb]) {
          await psql(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${db}'`);
          await psql(`drop database if exists ${db}`);
        }
      });

      const [sourceBucket, targetBucket] = [`shelf-backup-${id}`, `shelf-restored-${id}`];
      if (s3) for (const b of [sourceBucket, targetBucket]) await newBucket(b);
      const instance = (db: string, bucket: string): Env =>
        testEnv({
          DATA_DIR: join(tempDir("shelf-prod-"), "data"),
          DATABASE_URL: dbUrl(db),
          ...(s3 ? { S3_BUCKET: bucket } : { S3_BUCKET: "", S3_ACCESS_KEY_ID: "", S3_SECRET_ACCESS_KEY: "" }),
          PORT: "0",
          LOG_LEVEL: "info",
          FIRST_USER_ADMIN: "true",
        });

      const env = instance(sourceDb, sourceBucket);
      const server = await startServer(env);
      cleanups.push(server.stop);
      const content = await fillInstance(server.base, env);
      const before = await stateOf(server.base, content);
      expectWhole(before);

      // The backup, in the documented order: the edge's tallies into the database, the
      // database, then the objects.
      await ok(admin(env, "job", "run", "attribute-image-bandwidth"));
      const dump = join(tempDir("shelf-dump-"), "shelf.dump");
      await ok(run([`${pg}/pg_dump`, "--format=custom", `--file=${dump}`, env.DATABASE_URL!], {}));
      const objectsCopy = join(tempDir("shelf-objects-"), "objects");
      if (s3) expect(await copyBucket(sourceBucket, targetBucket)).toBeGreaterThanOrEqual(5);
      else await ok(run(["cp", "-a", join(env.DATA_DIR!, "objects"), objectsCopy], {}));
      expect(await server.stop()).toBe(0);

      // The restore: a new database, the dump into it, the objects into the new store.
      const restoredEnv = instance(targetDb, targetBucket);
      await psql(`create database ${targetDb}`);
      await ok(run([`${pg}/pg_restore`, "--no-owner", "--exit-on-error", `--dbname=${restoredEnv.DATABASE_URL}`, dump], {}));
      if (!s3) {
        mkdirSync(restoredEnv.DATA_DIR!, { recursive: true });
        await ok(run(["cp", "-a", objectsCopy, join(restoredEnv.DATA_DIR!, "objects")], {}));
      }

      const restored = await startServer(restoredEnv);
      cleanups.push(restored.stop);
      expect(await stateOf(restored.base, content)).toEqual(before);
      // The session signed before the backup is still good: the same JWT_SECRET.
      expect((await me(restored.base, content.accessToken)).email).toBe(content.email);
      // The checks after a restore: every row's object is there, and the counters are their rows'.
      const sweep = await ok(admin(restoredEnv, "job", "run", "orphan-sweep"));
      expect(sweep).toContain('"missing":0');
      expect(await ok(admin(restoredEnv, "usage", "verify"))).toContain("0 counters differ");

      // Restored with another JWT_SECRET, as docs/operators.md says: API keys still hold
      // (stored as hashes), access tokens signed with the old secret do not.
      expect(await restored.stop()).toBe(0);
      const otherSecret = await startServer({ ...restoredEnv, JWT_SECRET: "another-secret-another-secret-another-0123" });
      cleanups.push(otherSecret.stop);
      expect((await me(otherSecret.base, content.apiKey)).email).toBe(content.email);
      const session = await fetch(`${otherSecret.base}/v1/user/me`, { headers: { authorization: `Bearer ${content.accessToken}` } });
      expect(session.status).toBe(401);
    },
    90_000,
  );
});
