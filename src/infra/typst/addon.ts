// The Typst compiler's native addon (@myriaddreamin/typst-ts-node-compiler, a napi build
// of typst), loaded by the compiler's own process only (child.ts), never by the server.
//
// In the compiled binary scripts/build.ts replaces the package's loader (which picks a
// per-platform package at run time, something `bun build --compile` cannot follow) with a
// require of the addon file that the build copies to dist/lib/ beside the executable: the
// addon is 50 MB, and an addon embedded in the executable is extracted to a temporary file
// at every load, that is at every compile.
import type * as Typst from "@myriaddreamin/typst-ts-node-compiler";

export function loadTypstAddon(): typeof Typst {
  return require("@myriaddreamin/typst-ts-node-compiler");
}
