// A folder and every folder in it watched, one fs.watch each. Not fs.watch's `recursive`:
// on Linux, Bun registers a recursive watch's subfolders in a task of its own after the
// call returns, and not at all for a folder made later, so a note saved soon after the
// start, or into a new folder, could go unreported. Here every folder that exists has its
// watch when watchTree returns, and a new folder gets its own when its creation is
// reported; a note written into it before that is found by the sync the creation starts.
import { type Dirent, type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import { join, relative } from "node:path";

export interface TreeWatch {
  close(): void;
}

/**
 * Calls `onChange` with the path (relative to `root`) of whatever changed; `onError` when
 * the root itself can no longer be watched (a subfolder that goes away just stops being
 * watched). `walks`: whether a folder (by its path relative to `root`) is watched at all.
 */
export function watchTree(
  root: string,
  onChange: (relativePath: string) => void,
  onError: (e: Error) => void,
  walks: (relativeDir: string) => boolean,
): TreeWatch {
  const watchers = new Map<string, FSWatcher>();

  const unwatch = (dir: string) => {
    for (const [path, w] of watchers) {
      if (path === dir || path.startsWith(`${dir}/`)) {
        w.close();
        watchers.delete(path);
      }
    }
  };

  const isFolder = (path: string) => {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  };

  function add(dir: string): void {
    if (watchers.has(dir)) return;
    let w: FSWatcher;
    try {
      w = watch(dir, (_event, name) => {
        if (name === null) return onChange(relative(root, dir));
        const path = join(dir, String(name));
        if (isFolder(path)) {
          if (walks(relative(root, path))) addTree(path);
        } else if (watchers.has(path)) unwatch(path);
        onChange(relative(root, path));
      });
    } catch (e) {
      if (dir === root) throw e;
      return; // gone before it could be watched: its parent reported it
    }
    w.on("error", (e) => {
      if (dir === root) onError(e);
      else unwatch(dir);
    });
    watchers.set(dir, w);
  }

  function addTree(dir: string): void {
    add(dir);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) if (entry.isDirectory() && walks(relative(root, join(dir, entry.name)))) addTree(join(dir, entry.name));
  }

  addTree(root);
  return {
    close() {
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
