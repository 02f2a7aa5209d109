// The embedded database is one process's: a second opener is refused with a named error,
// which the CLI reports as one line rather than a stack trace.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EmbeddedDbBusyError, openPglite } from "../../src/infra/db/pglite.ts";
import { tempDir, testEnv } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

async function withLiveProcess<T>(fn: (pid: number) => Promise<T>): Promise<T> {
  // Alive until killed (cat waits on its open stdin), not for a time a slow run could outlast.
  const other = Bun.spawn(["cat"], { stdin: "pipe", stdout: "ignore" });
  try {
    return await fn(other.pid);
  } finally {
    other.kill();
    await other.exited;
  }
}

test("a folder locked by a live process is refused with an EmbeddedDbBusyError that names itself and the process", async () => {
  const dir = tempDir("shelf-pg-");
  await withLiveProcess(async (pid) => {
    writeFileSync(join(dir, "shelf.pid"), String(pid));
    const err = await openPglite(dir).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EmbeddedDbBusyError);
    expect((err as Error).name).toBe("EmbeddedDbBusyError");
    expect((err as Error).message).toContain(`in use by process ${pid}`);
    expect(readFileSync(join(dir, "shelf.pid"), "utf8")).toBe(String(pid)); // not taken over
  });
});

test("`shelf migrate` on a locked embedded database says so in one line and exits 1", async () => {
  const dataDir = tempDir("shelf-data-");
  await withLiveProcess(async (pid) => {
    const pg = join(dataDir, "pg");
    await Bun.write(join(pg, "shelf.pid"), String(pid));
    // Embedded parts, whatever the suite runs on.
    const env = Object.fromEntries(Object.entries(testEnv({ DATA_DIR: dataDir })).filter(([k]) => !/^(DATABASE_URL|REDIS_URL|S3_)/.test(k)));
    const proc = Bun.spawn(["bun", join(import.meta.dir, "../../src/main.ts"), "migrate"], { env, stdout: "pipe", stderr: "pipe" });
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    expect(code).toBe(1);
    expect(stderr).toStartWith(`shelf: the embedded database in ${pg} is in use by process ${pid}`);
    expect(stderr).not.toContain("    at ");
  });
});

test("copyTo: a copy of the open database, asked for while a transaction is open and taken while rows keep coming, opens with the whole transaction and the rows committed before its instant, in order", async () => {
  const dir = tempDir("shelf-pg-");
  const db = await openPglite(dir);
  const dest = join(tempDir("shelf-pg-copy-"), "pg");
  try {
    await db.client.exec("create table t (x int); insert into t values (1);");
    let finish!: () => void;
    const held = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let inserted!: () => void;
    const halfway = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const tx = db.client.transaction(async (t) => {
      await t.query("insert into t values (2)");
      inserted();
      await held;
      await t.query("insert into t values (3)");
    });
    await halfway;
    // Asked for with the transaction half done: the copy is taken once it has committed.
    let copying = true;
    const copied = db.copyTo(dest).finally(() => {
      copying = false;
    });
    finish();
    await tx;
    // Writes while the files are copied: the copy has those before its instant, and no gap.
    let next = 10;
    while (copying && next < 300) await db.client.exec(`insert into t select ${next++} from generate_series(1, 50)`);
    expect((await copied).heldMs).toBeGreaterThanOrEqual(0);
    await db.client.exec("insert into t values (4)");
  } finally {
    await db.close();
  }
  expect(existsSync(join(dest, "shelf.pid"))).toBe(false);
  const copy = await openPglite(dest);
  try {
    const rows = (await copy.client.query<{ x: number; n: number }>("select x, count(*)::int as n from t group by x order by x")).rows;
    expect(rows.slice(0, 3)).toEqual([
      { x: 1, n: 1 },
      { x: 2, n: 1 },
      { x: 3, n: 1 },
    ]);
    const later = rows.slice(3);
    expect(later).toEqual(later.map((_, i) => ({ x: 10 + i, n: 50 })));
  } finally {
    await copy.close();
  }
});
