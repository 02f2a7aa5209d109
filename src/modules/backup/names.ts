// Member names of an archive: readable (the names people gave their things), safe to unpack
// anywhere (no folder from a name, no control characters, no name Windows refuses), and
// unique. A clash is resolved by the order items are written in, which is the order they
// were made: the first keeps the name, the next ones get " (2)", " (3)"... before the
// extension. Compared case-folded, as a case-insensitive disk would unpack them.

const MAX_NAME = 180;
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/** One path segment made from a person's name for a thing: no separators, controls or trailing dots. */
export function safeSegment(name: string, fallback: string): string {
  let s = name
    .normalize("NFC")
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, "_")
    .trim()
    .replace(/[. ]+$/, "");
  if (s === "" || s === "." || s === "..") s = fallback;
  if (RESERVED.test(s.split(".")[0]!)) s = `_${s}`;
  // Cut by characters, keeping the extension-less part short enough for any file system.
  if ([...s].length > MAX_NAME) s = [...s].slice(0, MAX_NAME).join("");
  return s;
}

/** `name` with extension `ext`, unless it already ends with it (case-insensitively). */
export function withExt(name: string, ext: string): string {
  if (!ext) return name;
  return name.toLowerCase().endsWith(`.${ext.toLowerCase()}`) ? name : `${name}.${ext}`;
}

export class MemberNames {
  private readonly taken = new Set<string>();

  /** Takes `folder/name` or, when taken, the first free `folder/stem (n).ext`. */
  claim(folder: string, name: string): string {
    const dot = name.lastIndexOf(".");
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
    for (let n = 1; ; n++) {
      const path = `${folder}/${n === 1 ? name : `${stem} (${n})${ext}`}`;
      const key = path.toLowerCase();
      if (!this.taken.has(key)) {
        this.taken.add(key);
        return path;
      }
    }
  }

  /** Takes a path known to be unique among its kind (a KB path), so no other member gets it. */
  reserve(path: string): string {
    this.taken.add(path.toLowerCase());
    return path;
  }
}
