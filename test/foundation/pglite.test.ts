// The embedded database is one process's: a second opener is refused with a named error,
// which the CLI reports as one line rather than a stack trace.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
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
