// `shelf admin` acts on an instance that exists and says which: run from another folder, or
// with a DATA_DIR that holds nothing, it refuses and makes nothing, where it once made a
// second, empty database that the server never read. DATA_DIR's default does not follow the
// working directory. (With a server running, the same command through its socket:
// admin-socket.test.ts.)
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { dataDirOf, defaultDataDir, loadConfig } from "../../src/config.ts";
import { tempDir } from "../helpers/context.ts";
import { emptyInstanceEnv, freshDataDir } from "../helpers/empty-instance.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const ROOT = join(import.meta.dir, "../..");
const MAIN = join(ROOT, "src/main.ts");
const HOME = tempDir("shelf-home-");

/** `bun <checkout>/src/main.ts admin ...` from `cwd`, with only the environment given (no DATABASE_URL of the suite's). */
async function adminFrom(cwd: string, env: Record<string, string>, ...args: string[]) {
  const child = Bun.spawn([process.execPath, MAIN, "admin", ...args], {
    cwd,
    // A home of its own: Bun keeps a cache there, which would show as a file made in `cwd`.
    env: { PATH: process.env.PATH ?? "", HOME: HOME, LOG_LEVEL: "silent", PASSWORD_HASH_MEMORY_KIB: "256", PASSWORD_HASH_TIME_COST: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, out, err };
}

describe("DATA_DIR's default", () => {
  test("from a checkout it is the checkout's data/, whatever the working directory", () => {
    expect(defaultDataDir({}, false)).toBe(join(ROOT, "data"));
    expect(dataDirOf({})).toBe(join(ROOT, "data"));
    expect(dataDirOf({ DATA_DIR: "" })).toBe(join(ROOT, "data"));
  });

  test("for the binary it is the user's data folder: $XDG_DATA_HOME/shelf, else ~/.local/share/shelf", () => {
    expect(defaultDataDir({ XDG_DATA_HOME: "/srv/xdg", HOME: "/home/u" }, true)).toBe("/srv/xdg/shelf");
    expect(defaultDataDir({ HOME: "/home/u" }, true)).toBe("/home/u/.local/share/shelf");
    // The XDG specification: a relative XDG_DATA_HOME is ignored.
    expect(defaultDataDir({ XDG_DATA_HOME: "relative/xdg", HOME: "/home/u" }, true)).toBe("/home/u/.local/share/shelf");
  });

  test("an explicit DATA_DIR wins, resolved against the working directory as given", () => {
    const dir = tempDir("shelf-datadir-");
    expect(loadConfig({ DATA_DIR: dir }).DATA_DIR).toBe(dir);
    expect(dataDirOf({ DATA_DIR: "some/where" })).toBe(join(process.cwd(), "some/where"));
  });
});

describe("shelf admin where there is no instance", () => {
  test("refuses with a message naming DATA_DIR, exits 1 and creates nothing, from any folder", async () => {
    const cwd = tempDir("shelf-elsewhere-");
    const dataDir = join(tempDir("shelf-nothing-"), "data");
    for (const args of [
      ["user", "create", "--email", "ghost@example.com", "--password", "a long passphrase"],
      ["jobs"],
      ["apikey", "create", "--email", "ghost@example.com", "--name", "n"],
    ]) {
      const run = await adminFrom(cwd, { DATA_DIR: dataDir }, ...args);
      expect(run.code).toBe(1);
      expect(run.out).toBe("");
      expect(run.err).toContain(`no instance in DATA_DIR=${dataDir}`);
      expect(run.err).toContain("Nothing was done");
      expect(run.err).not.toContain("created user");
    }
    expect(existsSync(dataDir)).toBe(false);
    expect(readdirSync(cwd)).toEqual([]);
  });

  test("an empty DATA_DIR folder stays empty", async () => {
    const cwd = tempDir("shelf-elsewhere-");
    const dataDir = tempDir("shelf-empty-");
    const run = await adminFrom(cwd, { DATA_DIR: dataDir }, "user", "create", "--email", "ghost@example.com", "--password", "a long passphrase");
    expect(run.code).toBe(1);
    expect(run.err).toContain(`DATA_DIR=${dataDir}`);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  test("names the data/ of the working directory when that holds an instance", async () => {
    // An embedded instance whatever parts the suite runs on: the old layout is a folder's.
    const cwd = tempDir("shelf-old-layout-");
    cpSync(await freshDataDir(), join(cwd, "data"), { recursive: true });
    const elsewhere = join(tempDir("shelf-nothing-"), "data");
    const run = await adminFrom(cwd, { DATA_DIR: elsewhere }, "jobs");
    expect(run.code).toBe(1);
    expect(run.err).toContain(`no instance in DATA_DIR=${elsewhere}`);
    expect(run.err).toContain(`${join(cwd, "data")} holds an instance: DATA_DIR=${join(cwd, "data")}`);
    expect(existsSync(elsewhere)).toBe(false);
  });
});

describe("shelf admin on an instance with no server running", () => {
  test.skipIf(Boolean(process.env.DATABASE_URL))(
    "says which instance it opened, then acts on it: the first account of a server started once",
    async () => {
      const instance = await emptyInstanceEnv();
      try {
        const dataDir = instance.env.DATA_DIR!;
        const cwd = tempDir("shelf-elsewhere-");
        mkdirSync(join(cwd, "sub"));
        const env = { DATA_DIR: dataDir, JWT_SECRET: instance.env.JWT_SECRET!, FIRST_USER_ADMIN: "true" };
        const created = await adminFrom(join(cwd, "sub"), env, "user", "create", "--email", "first@example.com", "--password", "a long passphrase");
        expect(created.err).toContain(`the instance in DATA_DIR=${dataDir} (embedded database ${join(dataDir, "pg")}), opened directly`);
        expect(created.code).toBe(0);
        expect(created.out).toContain("(the instance's first account)");
        // The command's answer alone on stdout, for scripts.
        expect(created.out).not.toContain("DATA_DIR");
        const again = await adminFrom(cwd, env, "user", "set-plan", "--email", "first@example.com", "--plan", "pro");
        expect(again).toMatchObject({ code: 0 });
        expect(again.out).toContain("first@example.com: plan=pro");
        expect(readdirSync(join(cwd, "sub"))).toEqual([]);
      } finally {
        await instance.close();
      }
    },
    60_000,
  );
});
