// The embedded object store: one file per key under DATA_DIR/objects. Writes go to a
// temporary file first and are renamed into place, so a crashed write leaves no object.
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { randomUUID } from "node:crypto";
import { withOutages } from "./outages.ts";
import { assertKey, assertPrefix, type Body, type Storage } from "./types.ts";

export async function createFsStorage(root: string): Promise<Storage> {
  const tmpDir = join(root, ".tmp");
  await mkdir(tmpDir, { recursive: true });
  // A snapshot is removed by the backup that made it; one left behind was a backup's that died.
  for (const name of await readdir(tmpDir)) if (name.startsWith(SNAPSHOT)) await rm(join(tmpDir, name), { recursive: true, force: true });
  const pathOf = (key: string) => join(root, assertKey(key));

  async function* walk(dir: string): AsyncGenerator<string> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => null);
    if (!entries) return;
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (p !== tmpDir) yield* walk(p);
      } else yield p;
    }
  }

  return withOutages({
    kind: "fs",
    async put(key, body: Body) {
      const dest = pathOf(key);
      const tmp = join(tmpDir, randomUUID());
      try {
        const size = body instanceof ReadableStream ? await Bun.write(tmp, new Response(body)) : await Bun.write(tmp, body);
        await mkdir(dirname(dest), { recursive: true });
        await rename(tmp, dest);
        return { size };
      } catch (e) {
        await rm(tmp, { force: true });
        throw e;
      }
    },
    async read(key) {
      try {
        return await Bun.file(pathOf(key)).bytes();
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw e;
      }
    },
    async get(key, range) {
      const file = Bun.file(pathOf(key));
      if (!(await file.exists())) return null;
      return (range ? file.slice(range.start, range.end + 1) : file).stream();
    },
    file(key) {
      const path = pathOf(key);
      const file = Bun.file(path);
      // Reading the size stats the file (synchronously, once); it is 0 when there is none.
      return file.size > 0 || existsSync(path) ? file : null;
    },
    async head(key) {
      try {
        const s = await stat(pathOf(key));
        return s.isFile() ? { key, size: s.size, lastModified: s.mtime } : null;
      } catch {
        return null;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async *list(prefix) {
      assertPrefix(prefix);
      // Walk only the deepest folder the prefix names, then filter on the rest.
      const base = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
      for await (const p of walk(join(root, base))) {
        const key = relative(root, p).split(sep).join("/");
        if (!key.startsWith(prefix)) continue;
        const s = await stat(p).catch(() => null);
        if (s) yield { key, size: s.size, lastModified: s.mtime };
      }
    },
    async openAt(key, offset) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // "a+" would make it but ignore positions; "r+" keeps it but needs it to exist.
      const fh = await open(path, existsSync(path) ? "r+" : "w+");
      try {
        await fh.truncate(offset);
      } catch (e) {
        await fh.close();
        throw e;
      }
      let at = offset;
      return {
        async write(chunk) {
          for (let done = 0; done < chunk.length; ) {
            const { bytesWritten } = await fh.write(chunk, done, chunk.length - done, at);
            done += bytesWritten;
            at += bytesWritten;
          }
        },
        close: () => fh.close(),
      };
    },
    async move(from, to) {
      const dest = pathOf(to);
      await mkdir(dirname(dest), { recursive: true });
      await rename(pathOf(from), dest);
      return true;
    },
    snapshot() {
      const dir = join(tmpDir, `${SNAPSHOT}${randomUUID()}`);
      mkdirSync(dir);
      return { dir, objects: linkTree(root, dir, tmpDir), remove: () => rm(dir, { recursive: true, force: true }) };
    },
    async ping() {
      await stat(root);
    },
  });
}

const SNAPSHOT = "snapshot-";

/**
 * Hard-links every file below `from` (but `skip`) into `to`, keeping the layout; returns
 * how many. An object is never written in place once it is stored (put renames a new file
 * over it, delete unlinks it), so a link keeps its bytes as they are now, for a link's
 * cost: the server waits for nothing but one call per object. A resumable upload's file
 * grows in place (openAt) past the offset its row records, which is harmless. Where links
 * are refused, a copy.
 */
function linkTree(from: string, to: string, skip: string): number {
  let count = 0;
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, e.name);
    const target = join(to, e.name);
    if (source === skip) continue;
    if (e.isDirectory()) {
      mkdirSync(target);
      count += linkTree(source, target, skip);
    } else if (e.isFile()) {
      try {
        linkSync(source, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") continue; // deleted meanwhile
        copyFileSync(source, target);
      }
      count++;
    }
  }
  return count;
}
