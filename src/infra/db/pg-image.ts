// The database image: the folder PGlite keeps in DATA_DIR/pg, as initdb and every
// migration leave it, shut down cleanly, packed as a zstd-compressed tar. `make build`
// (scripts/build.ts) makes one and embeds it in the binary (src/infra/db/pg-image-file.ts);
// the first start of the binary unpacks it instead of running initdb in WebAssembly, which
// took seconds. Migrations then run as on every start, and find nothing new unless the
// database was created by an older binary.
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";

const BLOCK = 512;
/** Postgres' page size: runs of all-zero pages are left as holes (the WAL segment is mostly zeros). */
const PAGE = 8192;

/** Packs `dir` (files and folders; paths under 100 bytes, as in a Postgres data folder). */
export function packImage(dir: string, skip: (name: string) => boolean = () => false): Uint8Array {
  const parts: Uint8Array[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      if (skip(path)) continue;
      const st = statSync(join(dir, path));
      if (st.isDirectory()) {
        parts.push(header(`${path}/`, 0, "5"));
        walk(path);
      } else if (st.isFile()) {
        const data = readFileSync(join(dir, path));
        parts.push(header(path, data.length, "0"), data, new Uint8Array((BLOCK - (data.length % BLOCK)) % BLOCK));
      }
    }
  };
  walk("");
  parts.push(new Uint8Array(BLOCK * 2));
  return Bun.zstdCompressSync(Buffer.concat(parts), { level: 19 });
}

function header(path: string, size: number, type: "0" | "5"): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const enc = new TextEncoder();
  if (enc.encode(path).length >= 100) throw new Error(`path too long for the image: ${path}`);
  const field = (offset: number, text: string) => h.set(enc.encode(text), offset);
  field(0, path);
  field(100, type === "5" ? "0000700\0" : "0000600\0");
  field(108, "0000000\0");
  field(116, "0000000\0");
  field(124, `${size.toString(8).padStart(11, "0")}\0`);
  field(136, "00000000000\0");
  h[156] = type.charCodeAt(0);
  field(257, "ustar\0");
  field(263, "00");
  field(148, "        ");
  const sum = h.reduce((a, b) => a + b, 0);
  field(148, `${sum.toString(8).padStart(6, "0")}\0 `);
  return h;
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
  const tar = Bun.zstdDecompressSync(image);
  const dec = new TextDecoder();
  const str = (a: number, b: number) => {
    const s = dec.decode(tar.subarray(a, b));
    const nul = s.indexOf("\0");
    return nul < 0 ? s : s.slice(0, nul);
  };
  const top = new Set<string>();
  for (let off = 0; off + BLOCK <= tar.length && tar[off] !== 0; ) {
    const path = str(off, off + 100).replace(/\/$/, "");
    const size = Number.parseInt(str(off + 124, off + 136).trim() || "0", 8);
    const type = String.fromCharCode(tar[off + 156]!);
    off += BLOCK;
    if (path.split("/").includes("..") || path.startsWith("/")) throw new Error(`bad path in the database image: ${path}`);
    top.add(path.split("/")[0]!);
    const target = join(staging, path);
    if (type === "5") mkdirSync(target, { recursive: true });
    else if (type === "0" || type === "\0") writeSparse(target, tar.subarray(off, off + size));
    off += Math.ceil(size / BLOCK) * BLOCK;
  }
  const names = [...top].filter((n) => n !== "PG_VERSION");
  if (!top.has("PG_VERSION")) throw new Error("the database image has no PG_VERSION");
  for (const name of [...names, "PG_VERSION"]) {
    rmSync(join(dir, name), { recursive: true, force: true });
    renameSync(join(staging, name), join(dir, name));
  }
  rmSync(staging, { recursive: true, force: true });
}

/** Writes `data` leaving all-zero pages as holes: the same bytes when read, fewer written. */
function writeSparse(path: string, data: Uint8Array): void {
  const fd = openSync(path, "w", 0o600);
  try {
    ftruncateSync(fd, data.length);
    let run = -1; // start of the current run of pages with data
    for (let p = 0; p < data.length; p += PAGE) {
      const end = Math.min(p + PAGE, data.length);
      const zero = Buffer.compare(data.subarray(p, end), ZERO_PAGE.subarray(0, end - p)) === 0;
      if (!zero && run < 0) run = p;
      if (zero && run >= 0) {
        writeSync(fd, data, run, p - run, run);
        run = -1;
      }
    }
    if (run >= 0) writeSync(fd, data, run, data.length - run, run);
  } finally {
    closeSync(fd);
  }
}

const ZERO_PAGE = new Uint8Array(PAGE);

/** True when `dir` holds a database (PGlite's own test). */
export const hasDatabase = (dir: string) => existsSync(join(dir, "PG_VERSION"));
