// Where the database image embedded in the binary is (src/infra/db/pg-image.ts). This
// source says "none": `make build` (scripts/build.ts) replaces this module, in the bundle
// only, by an import of the image it made, so that `bun build --compile` embeds it. Under
// `bun src/main.ts` and in tests there is no image and a new database is made by initdb.
export const pgImageFile: string | null = null;
