// PGlite's engine, pglite.wasm (9 MB), takes JavaScriptCore a few hundred milliseconds to
// compile, on the thread that asks. A worker compiles it instead, started by
// src/wiring/early-start.ts before the app's modules load, so the compile runs beside that loading (and beside the
// unpacking of the database image on a first start) on another core. The module is
// handed back to this thread (a WebAssembly.Module can be posted) and the worker ends.
import pgliteWasm from "../../../node_modules/@electric-sql/pglite/dist/pglite.wasm" with { type: "file" };
import { startStep, traced } from "../start-trace.ts";

// In the executable the worker is embedded by its path below src/ (scripts/build.ts makes
// it an entrypoint, with src/ as root), beside the bundle of main.ts.
const inExecutable = import.meta.path.startsWith("/$bunfs/") || import.meta.path.startsWith("B:/~BUN/");
const workerUrl = new URL(inExecutable ? "./infra/db/pglite-wasm-worker.ts" : "./pglite-wasm-worker.ts", import.meta.url);

let compiled: Promise<WebAssembly.Module> | undefined;

/** pglite.wasm, compiled once per process; the first call starts the compile. */
export function pgliteWasmModule(): Promise<WebAssembly.Module> {
  if (!compiled) startStep("pglite.wasm compile requested");
  compiled ??= traced("pglite.wasm compiled", compileInWorker()).catch(
    // Whatever stops the worker, the same compile on this thread still works.
    async () => WebAssembly.compile(await Bun.file(pgliteWasm).arrayBuffer()),
  );
  return compiled;
}

function compileInWorker(): Promise<WebAssembly.Module> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl);
    worker.onmessage = (e: MessageEvent) => {
      worker.terminate();
      if (e.data instanceof WebAssembly.Module) resolve(e.data);
      else reject(new Error(String(e.data)));
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(e);
    };
    worker.postMessage(pgliteWasm);
  });
}
