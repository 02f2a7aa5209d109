// `make build`: compiles src/main.ts into one executable for the platform running the build.
//
// dist/ layout (the folder is the unit you ship; keep its two parts together):
//
//   dist/shelf                          the executable: Bun, the bundled app, the SQL
//                                       migrations (inlined by a macro), PGlite's
//                                       pglite.wasm, initdb.wasm and pglite.data (trimmed,
//                                       below), the database image (below), and sharp's
//                                       native addon (sharp-<platform>.node)
//   dist/lib/typst-ts-node-compiler.<platform>.node
//                                       the Typst compiler's addon (below)
//   dist/lib/libvips-cpp.so.<version>   libvips, the shared library sharp's addon links
//                                       against (libvips-cpp.<version>.dylib on macOS).
//                                       src/infra/sharp-native.ts opens it from
//                                       <folder of the executable>/lib at start.
//
// Why the second file: `--compile` embeds a .node addon only when it is required by a
// static path, and sharp picks its addon at run time (src/sharp.mjs tries a list of
// names). The plugin below replaces that loader with one static require of this
// platform's addon. The addon itself needs libvips (about 18 MB, with its own
// dependencies built in); an executable cannot embed a shared library the loader can
// use, so it travels beside it.
//
// The database image: a new embedded database with every migration applied, made here
// and packed (src/infra/db/pg-image.ts) so that the first start of the binary unpacks it
// instead of running initdb in WebAssembly (seconds). It is embedded through
// src/infra/db/pg-image-file.ts, which the plugin below points at it in the bundle only.
//
// Usage: bun scripts/build.ts [--outdir dist] [--no-bytecode]
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { BunPlugin } from "bun";

const root = resolve(import.meta.dir, "..");
const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: { outdir: { type: "string", default: "dist" }, "no-bytecode": { type: "boolean", default: false } },
});
const outdir = resolve(root, args.outdir!);
const started = performance.now();

// ---- sharp: this platform's addon and libvips ----------------------------------------

const sharpDir = dirname(Bun.resolveSync("sharp/package.json", root));
// sharp's own platform naming (linux-x64, linuxmusl-arm64, darwin-arm64, ...), so the
// package names below are exactly the ones its installer chose.
const libvips: { runtimePlatformArch(): string } = (await import(join(sharpDir, "dist/libvips.mjs"))).default;
const platform = libvips.runtimePlatformArch();

function packageDir(name: string): string {
  try {
    return dirname(Bun.resolveSync(`${name}/package.json`, sharpDir));
  } catch {
    // Some @img packages do not export ./package.json; look in node_modules directly.
    for (const base of [join(sharpDir, "node_modules"), join(root, "node_modules")]) {
      if (existsSync(join(base, name, "package.json"))) return join(base, name);
    }
    throw new Error(`${name} is not installed: sharp has no prebuilt addon for ${platform} here (run bun install on the build platform)`);
  }
}

const addonDir = join(packageDir(`@img/sharp-${platform}`), "lib");
const addonName = readdirSync(addonDir).find((f) => f.endsWith(".node"));
if (!addonName) throw new Error(`no sharp-*.node in ${addonDir}`);
const addonPath = join(addonDir, addonName);

const libvipsDir = join(packageDir(`@img/sharp-libvips-${platform}`), "lib");
const libvipsFiles = readdirSync(libvipsDir).filter((f) => /^libvips-cpp\.(so\.\d[\d.]*|\d[\d.]*\.dylib)$/.test(f));
if (libvipsFiles.length !== 1) throw new Error(`expected one libvips-cpp library in ${libvipsDir}, found ${libvipsFiles.join(", ") || "none"}`);

const x64 = platform.endsWith("-x64");
const loaderBody = `
const sharp = require(${JSON.stringify(addonPath)});
if (${x64} && !sharp._isUsingX64V2()) {
  const err = new Error("Prebuilt binaries for Linux x64 require v2 microarchitecture");
  err.code = "Unsupported CPU";
  throw err;
}
`;

let loadersReplaced = 0;
const sharpStaticAddon: BunPlugin = {
  name: "sharp-static-addon",
  setup(build) {
    build.onLoad({ filter: /[\\/]sharp[\\/]dist[\\/]sharp\.(mjs|cjs)$/ }, (file) => {
      loadersReplaced++;
      const esm = file.path.endsWith(".mjs");
      return { loader: "js", contents: loaderBody + (esm ? "export default sharp;\n" : "module.exports = sharp;\n") };
    });
  },
};

// ---- the Typst compiler's addon -----------------------------------------------------------

// @myriaddreamin/typst-ts-node-compiler picks its per-platform package at run time, like
// sharp. Its addon (about 50 MB) is not embedded: an embedded addon is extracted to a
// temporary file at every load, and it is loaded by a process of its own at every compile
// (src/infra/typst/). It travels in dist/lib/ beside libvips, and the loader below opens it
// from there. Without an addon for this platform the binary is built all the same: its
// uploads say "typst compiler unavailable" and renders are 503.
const typstPackages = join(root, "node_modules", "@myriaddreamin");
const typstAddon = (existsSync(typstPackages) ? readdirSync(typstPackages) : [])
  .filter((d) => d.startsWith("typst-ts-node-compiler-"))
  .flatMap((d) =>
    readdirSync(join(typstPackages, d))
      .filter((f) => f.endsWith(".node"))
      .map((f) => join(typstPackages, d, f)),
  )[0];
let typstLoaderReplaced = 0;
const typstAddonBeside: BunPlugin = {
  name: "typst-addon-beside",
  setup(build) {
    build.onLoad({ filter: /[\\/]typst-ts-node-compiler[\\/]index-napi\.js$/ }, () => {
      typstLoaderReplaced++;
      const name = typstAddon ? JSON.stringify(typstAddon.slice(typstAddon.lastIndexOf("/") + 1)) : "null";
      return {
        loader: "js",
        contents: `const { dirname, join } = require("node:path");
const name = ${name};
if (!name) throw new Error("no Typst compiler addon was built for this platform");
const path = join(dirname(process.execPath), "lib", name);
module.exports = require(path);
`,
      };
    });
  },
};

// ---- the database image ----------------------------------------------------------------

const scratch = mkdtempSync(join(tmpdir(), "shelf-build-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
const imageStarted = performance.now();
const { makePgImage } = await import("../src/infra/db/index.ts");
const imageFile = join(scratch, "pg-image.tar.zst");
await Bun.write(imageFile, await makePgImage(join(scratch, "data")));
const imageMs = performance.now() - imageStarted;

let imageEmbedded = 0;
const embedPgImage: BunPlugin = {
  name: "embed-pg-image",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]infra[\\/]db[\\/]pg-image-file\.ts$/ }, () => {
      imageEmbedded++;
      return {
        loader: "ts",
        contents: `import file from ${JSON.stringify(imageFile)} with { type: "file" };\nexport const pgImageFile: string | null = file;\n`,
      };
    });
  },
};

// ---- PGlite's file bundle ----------------------------------------------------------------

// Every start copies PGlite's pglite.data into its in-memory file system, one file at a
// time; most of its 699 files are time zones shelf never uses (src/infra/db/pglite-bundle.ts).
// The smaller bundle is embedded through src/infra/db/pglite-data-file.ts and the file list
// in PGlite's JavaScript is rewritten to match it, both in the bundle only.
const { trimmedPgliteBundle } = await import("../src/infra/db/pglite-bundle.ts");
const trimmed = trimmedPgliteBundle(dirname(Bun.resolveSync("@electric-sql/pglite", root)));
const fsBundleFile = join(scratch, "pglite.data");
await Bun.write(fsBundleFile, trimmed.data);

let fsBundleReplaced = 0;
const trimPgliteBundle: BunPlugin = {
  name: "trim-pglite-bundle",
  setup(build) {
    build.onLoad({ filter: new RegExp(`${escapeRegExp(trimmed.chunk)}$`) }, () => {
      fsBundleReplaced++;
      return { loader: "js", contents: trimmed.js };
    });
    build.onLoad({ filter: /[\\/]src[\\/]infra[\\/]db[\\/]pglite-data-file\.ts$/ }, () => {
      fsBundleReplaced++;
      return {
        loader: "ts",
        contents: `import file from ${JSON.stringify(fsBundleFile)} with { type: "file" };\nexport const fsBundlePath: string = file;\n`,
      };
    });
  },
};

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// ---- build ---------------------------------------------------------------------------

// Every file the app starts as a Worker: Bun embeds a worker only when it is an
// entrypoint of its own (it does not follow `new Worker(...)`).
const workerEntrypoints = [join(root, "src/modules/images/svg-worker.ts"), join(root, "src/infra/db/pglite-wasm-worker.ts")];

rmSync(outdir, { recursive: true, force: true });
mkdirSync(join(outdir, "lib"), { recursive: true });
const outfile = join(outdir, "shelf");

const result = await Bun.build({
  entrypoints: [join(root, "src/main.ts"), ...workerEntrypoints],
  // Each entrypoint is embedded under its path below `root`: src/modules/images/svg-worker.ts
  // becomes ./modules/images/svg-worker.ts beside the main bundle, the path
  // src/modules/images/svg-sanitizer.ts starts it from.
  root: join(root, "src"),
  target: "bun",
  format: "esm",
  // Startup matters (a restarted node should be healthy at once): bytecode skips parsing.
  bytecode: !args["no-bytecode"],
  // Identifiers are NOT minified: Elysia reads handler and hook source to learn which
  // request fields they use (a renamed `headers` parameter arrives undefined), and errors
  // are told apart by class name (EmbeddedDbBusyError in src/wiring/cli/index.ts).
  minify: { whitespace: true, syntax: true, identifiers: false, keepNames: true },
  sourcemap: "linked",
  plugins: [sharpStaticAddon, typstAddonBeside, embedPgImage, trimPgliteBundle],
  compile: {
    outfile,
    // A server reads its configuration from the environment only. A bunfig.toml in the
    // working directory is for development (test preload etc.); .env stays as with `bun
    // src/main.ts`, which also loads it.
    autoloadBunfig: false,
    autoloadTsconfig: false,
    autoloadPackageJson: false,
  },
});

if (!result.success) {
  for (const log of result.logs) console.error(log);
  throw new Error("build failed");
}
for (const log of result.logs) console.warn(log);
if (loadersReplaced === 0) {
  throw new Error("sharp's loader (sharp/dist/sharp.mjs) was not replaced: sharp's layout changed, update scripts/build.ts");
}

if (imageEmbedded === 0) throw new Error("src/infra/db/pg-image-file.ts was not replaced: the database image is not embedded");
if (fsBundleReplaced !== 2) throw new Error("PGlite's file bundle and its file list were not both replaced: PGlite's layout changed, update scripts/build.ts");

for (const f of libvipsFiles) copyFileSync(join(libvipsDir, f), join(outdir, "lib", f));
if (typstLoaderReplaced === 0) throw new Error("the Typst compiler's loader (index-napi.js) was not replaced: its layout changed, update scripts/build.ts");
if (typstAddon) copyFileSync(typstAddon, join(outdir, "lib", typstAddon.slice(typstAddon.lastIndexOf("/") + 1)));
else console.warn("no Typst compiler addon for this platform: the binary will answer Typst renders with 503");
chmodSync(outfile, 0o755);
// The source maps are embedded in the executable (zstd) and used for stack traces; the
// copies written beside it (one per entrypoint) are not needed at run time.
for (const f of readdirSync(outdir)) if (f.endsWith(".map")) rmSync(join(outdir, f), { force: true });

const mb = (p: string) => `${(statSync(p).size / 1024 ** 2).toFixed(1)} MB`;
console.log(`built ${relative(root, outfile)} (${mb(outfile)}) for ${platform} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`  database image: ${mb(imageFile)} (embedded; made in ${(imageMs / 1000).toFixed(1)} s)`);
console.log(`  PGlite file bundle: ${trimmed.kept} of ${trimmed.of} files, ${mb(fsBundleFile)} (embedded)`);
console.log(`  sharp addon: ${relative(root, addonPath)} (embedded)`);
for (const f of libvipsFiles) console.log(`  ${relative(root, join(outdir, "lib", f))} (${mb(join(outdir, "lib", f))})`);
if (typstAddon)
  console.log(
    `  ${relative(root, join(outdir, "lib", typstAddon.slice(typstAddon.lastIndexOf("/") + 1)))} (${mb(join(outdir, "lib", typstAddon.slice(typstAddon.lastIndexOf("/") + 1)))}, the Typst compiler)`,
  );
