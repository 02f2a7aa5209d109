// PGlite's WASM and data files are imported as files so that `bun build --compile`
// embeds them; at run time (compiled or not) these resolve to readable paths.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import initdbWasm from "../../../node_modules/@electric-sql/pglite/dist/initdb.wasm" with { type: "file" };
import { hasDatabase, restoreImage } from "./pg-image.ts";
import { copyAtOnce } from "./pglite-copy.ts";
import { pgImageFile } from "./pg-image-file.ts";
import { fsBundlePath } from "./pglite-data-file.ts";
import { collectKnownState, type KnownState, readKnownState, saveKnownState } from "./pglite-known.ts";
import { ARRAY_TYPES, KeepRelcacheInitFs, loadArrayTypesByScan, shutDownCleanly } from "./pglite-start.ts";
import { pgliteWasmModule } from "./pglite-wasm.ts";
import { startStep } from "../start-trace.ts";

/** Told apart by `name` where importing this module would be too early (src/wiring/cli/index.ts). */
export class EmbeddedDbBusyError extends Error {
  override name = "EmbeddedDbBusyError";
}

/**
 * PGlite is one process's database: a second process opening the same folder would
 * corrupt it. A pid file refuses that, and names the process that holds it.
 */
function lockDir(dir: string): () => void {
  const lock = join(dir, "shelf.pid");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: "wx" });
      return () => rmSync(lock, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = Number(readFileSync(lock, "utf8").trim());
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new EmbeddedDbBusyError(
          `the embedded database in ${dir} is in use by process ${pid} (a running \`shelf serve\`?). ` +
            "Stop that process first, or point DATABASE_URL at Postgres to run several processes.",
        );
      }
      rmSync(lock, { force: true }); // left by a process that died
    }
  }
  throw new EmbeddedDbBusyError(`could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Settings on top of PGlite's. Postgres initialises all of its shared memory at start, and
 * in WebAssembly that memory is the process's: the default shared_buffers (128MB, from
 * initdb's postgresql.conf) made an idle node hold ~270 MB, 16MB ~150 MB (measured, see
 * docs/operators.md, "Roles and the binary"). The data files are still cached by the OS below it.
 */
const SETTINGS = ["shared_buffers=16MB"];

/** An open embedded database. */
export interface OpenPglite {
  client: PGlite;
  /** What its last shutdown recorded, when it is still as that left it (src/infra/db/pglite-known.ts). */
  known: KnownState | null;
  /** Records what the next start may trust, shuts the database down and unlocks the folder. */
  close(): Promise<void>;
  /**
   * Copies the database's files to `dest` as they are at one instant, and runs `alongside`
   * in that same instant (src/infra/db/pglite-copy.ts).
   */
  copyTo(dest: string, alongside?: () => void): Promise<{ heldMs: number }>;
}

/**
 * Opens the database in `dir`. A folder with no database gets one: from the image the
 * binary carries when there is one (unpacked, no initdb), else by initdb (from source).
 */
export async function openPglite(dir: string): Promise<OpenPglite> {
  return lockAndOpenPglite(dir);
}

/**
 * openPglite, with the folder locked at once: a database another process holds throws
 * EmbeddedDbBusyError from this call, before the caller starts listening (src/wiring/server.ts).
 */
export function lockAndOpenPglite(dir: string): Promise<OpenPglite> {
  return open(dir, lockDir(dir));
}

async function open(dir: string, unlock: () => void): Promise<OpenPglite> {
  try {
    const fresh = !hasDatabase(dir);
    const image = fresh && pgImageFile ? Bun.file(pgImageFile) : null;
    const [wasmModule, initdbWasmModule] = await Promise.all([
      pgliteWasmModule(),
      // initdb.wasm is needed only to create a database without an image.
      fresh && !image ? compileWasm(initdbWasm) : undefined,
      image?.bytes().then((bytes) => restoreImage(bytes, dir)),
    ]);
    startStep("PGlite starting");
    const known = readKnownState(dir);
    // A database shut down cleanly (as the image is) keeps its relation cache files
    // (src/infra/db/pglite-start.ts); initdb's new one is made with PGlite's own file system.
    const fs = shutDownCleanly(dir) ? new KeepRelcacheInitFs(dir) : undefined;
    const client = new PGlite({
      dataDir: dir,
      fs,
      pgliteWasmModule: wasmModule,
      initdbWasmModule,
      fsBundle: Bun.file(fsBundlePath),
      startParams: [...PGlite.defaultStartParams, ...SETTINGS.flatMap((s) => ["-c", s])],
    });
    loadArrayTypesByScan(client, known?.arrayTypes);
    try {
      await client.waitReady;
    } finally {
      fs?.started();
    }
    startStep("PGlite open");
    const close = async () => {
      try {
        const state = await collectKnownState(client, ARRAY_TYPES);
        await client.close();
        saveKnownState(dir, state);
      } finally {
        unlock();
      }
    };
    return { client, known, close, copyTo: (dest, alongside) => copyAtOnce(client, dir, dest, alongside) };
  } catch (e) {
    unlock();
    throw e;
  }
}

async function compileWasm(path: string): Promise<WebAssembly.Module> {
  return WebAssembly.compile(await Bun.file(path).arrayBuffer());
}
