// PGlite's file bundle, pglite.data: share/postgresql (time zones, text search data,
// initdb's files), its libraries and ICU collation data, one blob that every start copies
// into PGlite's in-memory file system file by file. The list of files (name, start, end
// in the blob) and the blob's size are a literal in PGlite's JavaScript (Emscripten's
// file packager); PGlite refuses a blob whose size is not that one. `make build`
// (scripts/build.ts) makes a smaller blob with the files a shelf database needs and
// rewrites the literal in the bundle to match, so that both stay one pair.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const LITERAL = /\(\{files:\[(\{filename:"[^"]*",start:\d+,end:\d+\},?)*\],remote_package_size:\d+\}\)/;
const ENTRY = /\{filename:"([^"]*)",start:(\d+),end:(\d+)\}/g;

export interface FsBundleFile {
  filename: string;
  start: number;
  end: number;
}

/** The file list of the bundle literal in `js`, or null when `js` holds none. */
export function fsBundleFiles(js: string): FsBundleFile[] | null {
  const literal = LITERAL.exec(js)?.[0];
  if (!literal) return null;
  return [...literal.matchAll(ENTRY)].map((m) => ({ filename: m[1] as string, start: Number(m[2]), end: Number(m[3]) }));
}

/**
 * The files of `data` that `keep` accepts, packed again, and `js` with its literal
 * describing them. Throws when `js` has no literal or it does not describe `data`.
 */
function trimFsBundle(
  js: string,
  data: Uint8Array,
  keep: (filename: string) => boolean,
): { js: string; data: Uint8Array<ArrayBuffer>; kept: number; of: number } {
  const files = fsBundleFiles(js);
  if (!files) throw new Error("no file bundle literal found in PGlite's JavaScript: its layout changed");
  const size = Number(/remote_package_size:(\d+)/.exec(LITERAL.exec(js)?.[0] ?? "")?.[1]);
  if (size !== data.byteLength) throw new Error(`PGlite's file bundle is ${data.byteLength} bytes, its JavaScript says ${size}`);
  const kept = files.filter((f) => keep(f.filename));
  const out = new Uint8Array(kept.reduce((n, f) => n + f.end - f.start, 0));
  const entries: string[] = [];
  let at = 0;
  for (const f of kept) {
    out.set(data.subarray(f.start, f.end), at);
    entries.push(`{filename:${JSON.stringify(f.filename)},start:${at},end:${at + f.end - f.start}}`);
    at += f.end - f.start;
  }
  const literal = `({files:[${entries.join(",")}],remote_package_size:${out.byteLength}})`;
  return { js: js.replace(LITERAL, () => literal), data: out, kept: kept.length, of: files.length };
}

const TIMEZONES = "/pglite/share/postgresql/timezone/";
// The database runs in UTC (PGlite sets TZ and PGTZ, initdb wrote timezone = UTC) and
// shelf's queries name no other zone; these are UTC's names. The 590 other zone files
// were most of the bundle's files, each one created at every start.
const UTC_NAMES = new Set(["UTC", "UCT", "Universal", "Zulu", "GMT", "Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "Etc/GMT"]);

/**
 * The files a shelf database needs from the bundle: everything but the zones other than
 * UTC and the makefiles for building extensions (pgxs). The abbreviation lists
 * (timezonesets) stay: Postgres reads one at start.
 */
export function shelfNeeds(filename: string): boolean {
  if (filename.startsWith(TIMEZONES)) return UTC_NAMES.has(filename.slice(TIMEZONES.length));
  return !filename.startsWith("/pglite/lib/postgresql/pgxs/");
}

/**
 * PGlite's bundle in its `dist` folder trimmed to what shelf needs: the smaller blob and
 * the JavaScript chunk (`chunk`, its path) rewritten to describe it.
 */
export function trimmedPgliteBundle(distDir: string): { chunk: string; js: string; data: Uint8Array<ArrayBuffer>; kept: number; of: number } {
  const chunks = readdirSync(distDir)
    .filter((f) => f.startsWith("chunk-") && f.endsWith(".js"))
    .map((f) => join(distDir, f))
    .filter((f) => readFileSync(f, "utf8").includes("remote_package_size:"));
  if (chunks.length !== 1) throw new Error(`expected one PGlite chunk with the file bundle's list, found ${chunks.length}: PGlite's layout changed`);
  const chunk = chunks[0] as string;
  return { chunk, ...trimFsBundle(readFileSync(chunk, "utf8"), readFileSync(join(distDir, "pglite.data")), shelfNeeds) };
}
