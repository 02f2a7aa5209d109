// Where PGlite's file bundle is (src/infra/db/pglite-bundle.ts). From source it is
// PGlite's own pglite.data; `make build` (scripts/build.ts) replaces this module, in the
// bundle only, by an import of the smaller bundle it made, together with the file list
// in PGlite's JavaScript that must match it.
import file from "../../../node_modules/@electric-sql/pglite/dist/pglite.data" with { type: "file" };

export const fsBundlePath: string = file;
