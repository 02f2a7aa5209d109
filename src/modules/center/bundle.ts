// Imported with `{ type: "macro" }` (see assets.ts): Bun runs this at bundle and transpile
// time and inlines its result, so the dashboard's scripts and stylesheet are compiled into
// the server (and the binary) as strings: nothing is built or fetched at run time.
// The client (dashboard/ at the top of the repository, a program of its own) is browser
// code with a tsconfig of its own (DOM types). Bun.build
// cannot run inside a macro (the bundler waits on it), so the bundler's CLI does.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The stylesheets in order: style.css last holds the rule that must win ([hidden]). A name
 * with a slash is a package's file (uPlot's stylesheet), resolved from the client.
 */
const STYLESHEETS = ["dialog.css", "uplot/dist/uPlot.min.css", "account.css", "kbs.css", "collections.css", "library.css", "admin.css", "style.css"];

/**
 * The dashboard's browser bundle, split: `entry` is the script the page loads, `embed` the
 * embeddable player's (embed.ts); `chunks` are the files they import (shared code, and what
 * a screen loads with a dynamic `import()`, such as hls.js), by the names the entries refer
 * to them by; `css` the stylesheet.
 */
export function bundleCenter(): { entry: string; embed: string; chunks: Record<string, string>; css: string } {
  const dir = `${import.meta.dir}/../../../dashboard`;
  const out = mkdtempSync(join(tmpdir(), "shelf-center-build-"));
  try {
    // target browser picks tus-js-client's browser build (its package "browser" field).
    // Chunk names carry the content hash the bundler gives them: the entry imports them by
    // those names, relative to its own URL, so they are served beside it.
    const run = Bun.spawnSync(
      [
        process.execPath,
        "build",
        `${dir}/main.ts`,
        `${dir}/embed.ts`,
        "--target=browser",
        "--format=esm",
        "--minify",
        "--splitting",
        `--outdir=${out}`,
        "--entry-naming=[name].[ext]",
        "--chunk-naming=chunk.[hash].[ext]",
      ],
      { env: { ...process.env, BUN_BE_BUN: "1" } },
    );
    if (run.exitCode !== 0) throw new Error(`the dashboard's bundle failed: ${run.stderr.toString()}`);
    const chunks: Record<string, string> = {};
    for (const f of readdirSync(out)) if (f !== "main.js" && f !== "embed.js") chunks[f] = readFileSync(join(out, f), "utf8");
    const file = (f: string) => (f.includes("/") ? Bun.resolveSync(f, dir) : `${dir}/${f}`);
    const css = STYLESHEETS.map((f) => readFileSync(file(f), "utf8")).join("\n");
    return { entry: readFileSync(join(out, "main.js"), "utf8"), embed: readFileSync(join(out, "embed.js"), "utf8"), chunks, css };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
