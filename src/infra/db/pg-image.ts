// The database image: the folder PGlite keeps in DATA_DIR/pg, as initdb and every
// migration leave it, shut down cleanly, packed as a zstd-compressed tar. `make build`
// (scripts/build.ts) makes one and embeds it in the binary (src/infra/db/pg-image-file.ts);
// the first start of the binary unpacks it instead of running initdb in WebAssembly, which
// took seconds. Migrations then run as on every start, and find nothing new unless the
// database was created by an older binary.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * Packs `dir` as a tar (Bun's own, Bun.Archive), zstd-compressed. Folders are entries of
 * their own ("name/"), so the empty ones Postgres needs (pg_tblspc, pg_notify, ...) come back.
 */
export async function packImage(dir: string, skip: (name: string) => boolean = () => false): Promise<Uint8Array> {
  const entries: Record<string, Uint8Array | string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      if (skip(path)) continue;
      const st = statSync(join(dir, path));
      if (st.isDirectory()) {
        entries[`${path}/`] = "";
        walk(path);
      } else if (st.isFile()) entries[path] = readFileSync(join(dir, path));
    }
  };
  walk("");
  return Bun.zstdCompressSync(await new Bun.Archive(entries).bytes(), { level: 19 });
}

/**
 * Unpacks an image into `dir`, an existing folder with no database in it (no PG_VERSION).
 * Everything goes to `dir/.image` first and is then moved in, PG_VERSION last: a start
 * interrupted half-way leaves no PG_VERSION, and the next start unpacks again.
 */
export async function restoreImage(image: Uint8Array, dir: string): Promise<void> {
  const staging = join(dir, ".image");
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  await new Bun.Archive(Bun.zstdDecompressSync(image)).extract(staging);
  const names = readdirSync(staging).filter((n) => n !== "PG_VERSION");
  if (!existsSync(join(staging, "PG_VERSION"))) throw new Error("the database image has no PG_VERSION");
  for (const name of [...names, "PG_VERSION"]) {
    rmSync(join(dir, name), { recursive: true, force: true });
    renameSync(join(staging, name), join(dir, name));
  }
  rmSync(staging, { recursive: true, force: true });
}

/** True when `dir` holds a database (PGlite's own test). */
export const hasDatabase = (dir: string) => existsSync(join(dir, "PG_VERSION"));
