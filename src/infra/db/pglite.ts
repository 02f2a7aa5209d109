// PGlite's WASM and data files are imported as files so that `bun build --compile`
// embeds them; at run time (compiled or not) these resolve to readable paths.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pgliteWasm from "../../../node_modules/@electric-sql/pglite/dist/pglite.wasm" with { type: "file" };
import initdbWasm from "../../../node_modules/@electric-sql/pglite/dist/initdb.wasm" with { type: "file" };
import fsBundlePath from "../../../node_modules/@electric-sql/pglite/dist/pglite.data" with { type: "file" };

/** Told apart by `name` where importing this module would be too early (src/main.ts). */
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

export async function openPglite(dir: string): Promise<{ client: PGlite; unlock: () => void }> {
  const unlock = lockDir(dir);
  try {
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
      WebAssembly.compile(await Bun.file(pgliteWasm).arrayBuffer()),
      WebAssembly.compile(await Bun.file(initdbWasm).arrayBuffer()),
    ]);
    const client = await PGlite.create(dir, { pgliteWasmModule, initdbWasmModule, fsBundle: Bun.file(fsBundlePath) });
    return { client, unlock };
  } catch (e) {
    unlock();
    throw e;
  }
}
