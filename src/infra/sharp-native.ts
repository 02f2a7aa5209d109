// openLibvips() runs before sharp loads, called by src/infra/sharp.ts only.
//
// In the compiled binary sharp's native addon (sharp-<platform>.node) is embedded and
// extracted to a temporary file when it is loaded, so its RPATH ($ORIGIN/../../sharp-libvips-…)
// points nowhere. The addon needs libvips' shared library, which scripts/build.ts ships in
// dist/lib/ beside the binary. Opening that library here first puts it in the process
// under its soname, and the dynamic loader then links the addon against it: no
// LD_LIBRARY_PATH, no wrapper script. Under `bun src/main.ts` (not compiled) this does
// nothing and sharp finds libvips in node_modules as usual.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { dlopen } from "bun:ffi";

/** True inside an executable made by `bun build --compile`: its modules live in /$bunfs/. */
const isCompiledBinary = import.meta.path.startsWith("/$bunfs/") || import.meta.path.startsWith("B:/~BUN/") || Bun.main.startsWith("/$bunfs/");

/** libvips-cpp.so.8.18.7 (Linux) or libvips-cpp.8.18.7.dylib (macOS). */
const LIBVIPS = /^libvips-cpp\.(so\.\d[\d.]*|\d[\d.]*\.dylib)$/;

/** The library this process opened, kept referenced for the life of the process. */
let libvipsPath: string | undefined;
// Held so the library is never closed; nothing reads it.
let _handle: unknown;

/** Opens dist/lib's libvips once, in the compiled binary only (a no-op from source). */
export function openLibvips(): void {
  if (!isCompiledBinary || _handle) return;
  const libDir = join(dirname(process.execPath), "lib");
  let names: string[];
  try {
    names = readdirSync(libDir);
  } catch {
    names = [];
  }
  const name = names.find((n) => LIBVIPS.test(n));
  if (!name) {
    throw new Error(
      `shelf: libvips not found in ${libDir}. The binary needs the lib/ folder that \`make build\` puts beside it ` +
        "(dist/shelf and dist/lib/ travel together).",
    );
  }
  libvipsPath = join(libDir, name);
  // Loading it is the point; bun:ffi wants at least one symbol, and vips_version(0)
  // (the major version) is a cheap proof that the right library answered.
  const lib = dlopen(libvipsPath, { vips_version: { args: ["i32"], returns: "i32" } });
  if (lib.symbols.vips_version(0) !== 8) throw new Error(`shelf: ${libvipsPath} is not libvips 8`);
  _handle = lib;
}
