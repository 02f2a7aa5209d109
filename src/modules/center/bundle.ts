// Imported with `{ type: "macro" }` (see assets.ts): Bun runs this at bundle and transpile
// time and inlines its result, so the dashboard's script and stylesheet are compiled into
// the server (and the binary) as two strings: nothing is built or fetched at run time.
// The client (./client/) is browser code with a tsconfig of its own (DOM types). Bun.build
// cannot run inside a macro (the bundler waits on it), so the bundler's CLI does.

import { readFileSync } from "node:fs";

/** The dashboard's browser bundle: its script (minified ESM) and stylesheet. */
export function bundleCenter(): { js: string; css: string } {
  const dir = `${import.meta.dir}/client`;
  // target browser picks tus-js-client's browser build (its package "browser" field).
  const run = Bun.spawnSync([process.execPath, "build", `${dir}/main.ts`, "--target=browser", "--format=esm", "--minify"], {
    env: { ...process.env, BUN_BE_BUN: "1" },
  });
  if (run.exitCode !== 0) throw new Error(`the dashboard's bundle failed: ${run.stderr.toString()}`);
  // The stylesheets in order: style.css last holds the rule that must win ([hidden]). A name
  // with a slash is a package's file (uPlot's stylesheet), resolved from the client.
  const file = (f: string) => (f.includes("/") ? Bun.resolveSync(f, dir) : `${dir}/${f}`);
  const css = ["dialog.css", "uplot/dist/uPlot.min.css", "account.css", "kbs.css", "style.css"].map((f) => readFileSync(file(f), "utf8")).join("\n");
  return { js: run.stdout.toString(), css };
}
