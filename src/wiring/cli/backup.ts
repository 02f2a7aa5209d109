// `shelf admin backup DEST` and `shelf admin restore FROM`: an instance on embedded parts
// copied whole, and made again from the copy in another DATA_DIR (docs/operators.md, "Backup
// and restore"). The backup runs in the server when one runs (through the admin socket, as
// every admin command): the embedded database is that process's, and its files copied from
// outside while it writes may not open. A restore makes a new instance, so it runs with
// no server on its DATA_DIR. On Postgres and S3 the providers' own tools do this.
import { constants, existsSync, readdirSync, readFileSync } from "node:fs";
import { chmod, cp, mkdir, readdir, rename, stat, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Deps } from "../deps.ts";
import { VERSION } from "../../infra/version.ts";

/** What `shelf-backup.json`, written last, says of the backup beside it: a folder without it is not a whole backup. */
interface Manifest {
  format: 1;
  /** The shelf version that made it. */
  version: string;
  createdAt: string;
  /** The objects: copied into objects/ (folder), or left in the S3 bucket, which the operator copies. */
  objects: "folder" | "s3";
  objectCount: number;
  objectBytes: number;
  /** Where the instance's JWT_SECRET came from: its DATA_DIR (copied as jwt-secret), or the environment (not copied). */
  jwtSecret: "file" | "environment";
}

const MANIFEST = "shelf-backup.json";

/** A mistake of the operator's, said as the command's own words (admin.ts turns it into exit code 2). */
export class BackupError extends Error {}

const inside = (path: string, folder: string) => {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};

const isEmptyFolder = (path: string) => readdirSync(path).length === 0;

/** Bytes of every file below `dir`. */
async function bytesBelow(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir, { recursive: true })) {
    const s = await stat(join(dir, name));
    if (s.isFile()) total += s.size;
  }
  return total;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

let running = false;

/**
 * Backs the instance of `deps` up into `dest` (an absolute path, absent or an empty folder):
 * pg/ (the database's files), objects/ (every stored file), jwt-secret and shelf-backup.json.
 * The database and the objects are taken at one instant, so every row finds its object and
 * no object deleted after that instant is missing. `before` runs once the destination is
 * found good.
 */
export async function backupInstance(deps: Deps, dest: string, out: (line: string) => void, before?: () => Promise<void>): Promise<void> {
  const { config, database, storage } = deps;
  if (!database.copyTo)
    throw new BackupError("the database is Postgres (DATABASE_URL): back it up with pg_dump, and the objects after it (docs/operators.md, Backup and restore)");
  if (!isAbsolute(dest)) throw new BackupError(`the destination must be an absolute path (got ${dest})`);
  if (inside(dest, resolve(config.DATA_DIR)))
    throw new BackupError(`the destination ${dest} is inside DATA_DIR=${config.DATA_DIR}: keep a backup out of the instance it saves`);
  if (existsSync(dest) && !isEmptyFolder(dest)) throw new BackupError(`${dest} is not empty: give a new folder`);
  if (running) throw new BackupError("a backup of this instance is already running");
  running = true;
  try {
    await before?.();
    await mkdir(dest, { recursive: true, mode: 0o700 });
    let snapshot: ReturnType<NonNullable<typeof storage.snapshot>> | undefined;
    const started = new Date();
    const { heldMs } = await database.copyTo(join(dest, "pg"), () => {
      snapshot = storage.snapshot?.();
    });
    let objectBytes = 0;
    if (snapshot) {
      try {
        objectBytes = await bytesBelow(snapshot.dir);
        await cp(snapshot.dir, join(dest, "objects"), { recursive: true, mode: constants.COPYFILE_FICLONE });
      } finally {
        await snapshot.remove();
      }
    }
    const secretFile = join(config.DATA_DIR, "jwt-secret");
    const secretIsFile = existsSync(secretFile) && readFileSync(secretFile, "utf8").trim() === config.JWT_SECRET;
    if (secretIsFile) {
      await writeFile(join(dest, "jwt-secret"), `${config.JWT_SECRET}\n`, { mode: 0o600 });
    }
    const manifest: Manifest = {
      format: 1,
      version: VERSION,
      createdAt: started.toISOString(),
      objects: snapshot ? "folder" : "s3",
      objectCount: snapshot?.objects ?? 0,
      objectBytes,
      jwtSecret: secretIsFile ? "file" : "environment",
    };
    await writeFile(join(dest, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    out(`backup of DATA_DIR=${config.DATA_DIR} in ${dest}, as of ${manifest.createdAt}`);
    out(`database: copied (the server paused ${Math.round(heldMs)} ms)`);
    out(
      snapshot
        ? `objects: ${snapshot.objects} (${mb(objectBytes)})`
        : `objects: in the S3 bucket ${config.S3_BUCKET}, not in this backup: copy the bucket now (docs/operators.md, Backup and restore)`,
    );
    out(secretIsFile ? "jwt-secret: copied" : "JWT_SECRET: set in the environment, not copied: keep it with this backup");
  } finally {
    running = false;
  }
}

/**
 * Makes the instance of a backup again in `dataDir`, which must be absent or empty: its
 * objects and secret first, then its database, opened once (Postgres replays the WAL the
 * copy holds) and shut down cleanly, and put in place last, so a DATA_DIR with pg/ is whole.
 */
export async function restoreInstance(
  env: { dataDir: string; databaseUrl?: string; s3Bucket?: string },
  from: string,
  out: (line: string) => void,
): Promise<void> {
  const { dataDir } = env;
  if (env.databaseUrl)
    throw new BackupError("DATABASE_URL is set: this restores an embedded instance; a Postgres one is restored with pg_restore (docs/operators.md)");
  const manifestFile = join(from, MANIFEST);
  if (!existsSync(manifestFile) || !existsSync(join(from, "pg", "PG_VERSION")))
    throw new BackupError(`${from} is not a whole backup: it has no ${MANIFEST} (written last) or no pg/`);
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
  if (manifest.format !== 1) throw new BackupError(`${from}: a backup of format ${manifest.format}, which this version (${VERSION}) does not read`);
  if (manifest.objects === "folder" && env.s3Bucket)
    throw new BackupError(
      "S3_BUCKET is set, but this backup holds its objects in a folder: unset S3_BUCKET, or copy objects/ into the bucket and restore with it unset",
    );
  if (existsSync(dataDir) && !isEmptyFolder(dataDir))
    throw new BackupError(
      `DATA_DIR=${dataDir} is not empty: a restore makes a new instance, in an empty or new folder (stop its server and move it away first)`,
    );

  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (manifest.objects === "folder") await cp(join(from, "objects"), join(dataDir, "objects"), { recursive: true, mode: constants.COPYFILE_FICLONE });
  if (manifest.jwtSecret === "file") {
    await cp(join(from, "jwt-secret"), join(dataDir, "jwt-secret"));
    await chmod(join(dataDir, "jwt-secret"), 0o600);
  }
  const staging = join(dataDir, ".pg-restoring");
  await cp(join(from, "pg"), staging, { recursive: true, mode: constants.COPYFILE_FICLONE });
  const { openPglite } = await import("../../infra/db/pglite.ts");
  const db = await openPglite(staging);
  let migrations: number;
  try {
    migrations = (await db.client.query<{ n: number }>("select count(*)::int as n from public.__migrations")).rows[0]?.n ?? 0;
  } finally {
    await db.close();
  }
  await rename(staging, join(dataDir, "pg"));
  out(`restored the backup of ${manifest.createdAt} (shelf ${manifest.version}) into DATA_DIR=${dataDir}`);
  out(`database: opened and shut down cleanly, ${migrations} migrations recorded (a start applies newer ones)`);
  out(
    manifest.objects === "folder"
      ? `objects: ${manifest.objectCount} (${mb(manifest.objectBytes)})`
      : "objects: not in this backup: they are in the S3 bucket it was taken with; set S3_* to that bucket or to a copy of it",
  );
  out(
    manifest.jwtSecret === "file"
      ? "jwt-secret: restored"
      : "JWT_SECRET: not in this backup; set it to the old instance's value, or its sessions and signed URLs are refused",
  );
}
