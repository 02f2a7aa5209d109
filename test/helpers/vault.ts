// A notes vault as an Obsidian user has one, generated (nothing binary is committed) and
// deterministic for a seed: notes with YAML front matter, [[wikilinks]] (with aliases,
// headings and block references), ![[embeds]], relative Markdown links, footnotes, task
// lists, callouts, tables and code; attachments of the usual kinds (PNG and JPEG made with
// sharp, a PDF, an SVG, WAV and MP3 snippets, .canvas and .json and .csv files); a few
// large files; awkward names (spaces, accents, Japanese, mixed case, an upper-case
// extension, punctuation that URLs escape, deep folders); and the folders a sync skips by
// default (.obsidian/ with its settings and plugins, .trash/, a .DS_Store). Sized by
// parameters, so a test makes a few hundred notes and a benchmark 10,000.
import { mkdir, readdir } from "node:fs/promises";
import { dirname, join, posix } from "node:path";
import { sharp } from "../../src/infra/sharp.ts";

export interface VaultOptions {
  /** Notes (.md), default 300. */
  notes?: number;
  /** Attachments of the usual kinds, default 60. */
  attachments?: number;
  /** Large attachments (of `largeBytes` each, give or take), default 3. */
  large?: number;
  largeBytes?: number;
  seed?: number;
}

export interface Vault {
  root: string;
  /** Every file a sync carries, by relative path (NFC, POSIX). */
  notes: string[];
  attachments: string[];
  /** What a sync skips by default: the dot-folders (with a trailing slash) and dot-files. */
  skipped: string[];
  /** Bytes of the files a sync carries. */
  bytes: number;
}

const MB = 1024 * 1024;

/** A small seeded generator (mulberry32): the same seed, the same vault. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  return { next, int, pick };
}

/** `n` bytes that do not compress, from a seed (xorshift32, four bytes a step). */
export function noise(n: number, seed: number): Uint8Array {
  const words = new Uint32Array(Math.ceil(n / 4));
  let x = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  return new Uint8Array(words.buffer, 0, n);
}

const FOLDERS = [
  "",
  "Daily Notes/2024",
  "Daily Notes/2025",
  "Projects/Project Ünïcödé",
  "Projects/shelf sync",
  "日本語/メモ",
  "Mixed CASE/Sub Folder",
  "Café & Crème",
  "deep/a/b/c/d/e/f/g",
  "Archive (old)",
  "Reading List",
] as const;

const TITLES = [
  "Meeting notes",
  "Ideas",
  "Résumé draft",
  "Über die Zeit",
  "日本語のメモ",
  "Weekly Review",
  "TODO",
  "Reading — Dune",
  "Recipes: crème brûlée",
  "100% done",
  "a&b + c",
  "#tags and stuff",
  "Q&A (2024)",
  "it's complicated",
  "naïve café",
  "Straße",
] as const;

const WORDS = "the of and notes vault sync link idea plan draft review café über naïve 日本 résumé data graph task callout footnote embed".split(" ");

const ATTACHMENT_DIRS = ["attachments", "Assets/Images", "Projects/Project Ünïcödé/files", "日本語/画像", "Mixed CASE/Media"] as const;

const ATTACHMENT_NAMES = [
  "Screenshot 2024-01-05 at 10.15.32",
  "Pasted image 20240105101532",
  "café menu",
  "Ünïcödé Résumé",
  "図表",
  "MiXeD CaSe",
  "file with  double  spaces",
  "a&b + c (1)",
  "100% done",
  "#hash",
  "it's here, isn't it",
  "[draft] {v2} ~final~",
] as const;

type Maker = (r: ReturnType<typeof random>, i: number) => Promise<{ ext: string; bytes: Uint8Array | string }>;

const png: Maker = async (r, i) => {
  const width = 16 + r.int(200);
  const height = 16 + r.int(150);
  const raw = noise(width * height * 3, i + 1);
  return {
    ext: "png",
    bytes: new Uint8Array(
      await sharp(raw, { raw: { width, height, channels: 3 } })
        .png()
        .toBuffer(),
    ),
  };
};

const jpeg: Maker = async (r, i) => {
  const width = 32 + r.int(300);
  const height = 32 + r.int(200);
  const raw = noise(width * height * 3, i + 7);
  return {
    ext: "jpg",
    bytes: new Uint8Array(
      await sharp(raw, { raw: { width, height, channels: 3 } })
        .jpeg({ quality: 70 })
        .toBuffer(),
    ),
  };
};

/** An uppercase extension, as cameras and some tools write them. */
const upperPng: Maker = async (r, i) => ({ ...(await png(r, i)), ext: "PNG" });

const svg: Maker = async (r) => ({
  ext: "svg",
  bytes: `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#${r.int(0xffffff).toString(16).padStart(6, "0")}"/><text x="10" y="45">図 ${r.int(100)}</text></svg>\n`,
});

/** A one-page PDF with a line of text, its cross-reference table at the right offsets. */
const pdf: Maker = async (r) => {
  const text = `Hello from page ${r.int(1000)}`;
  const stream = `BT /F1 18 Tf 40 100 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return { ext: "pdf", bytes: out };
};

/** A fraction of a second of a sine, 16-bit mono PCM. */
const wav: Maker = async (r) => {
  const rate = 8000;
  const samples = 800 + r.int(1600);
  const buf = new ArrayBuffer(44 + samples * 2);
  const v = new DataView(buf);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) v.setUint8(at + i, s.charCodeAt(i));
  };
  ascii(0, "RIFF");
  v.setUint32(4, 36 + samples * 2, true);
  ascii(8, "WAVEfmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  ascii(36, "data");
  v.setUint32(40, samples * 2, true);
  const hz = 220 + r.int(660);
  for (let i = 0; i < samples; i++) v.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 8000), true);
  return { ext: "wav", bytes: new Uint8Array(buf) };
};

/** A few MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz) of silence behind an ID3v2 tag. */
const mp3: Maker = async (r) => {
  const frames = 4 + r.int(20);
  const frame = new Uint8Array(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  const id3 = new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  const out = new Uint8Array(id3.length + frames * frame.length);
  out.set(id3);
  for (let i = 0; i < frames; i++) out.set(frame, id3.length + i * frame.length);
  return { ext: "mp3", bytes: out };
};

const canvas: Maker = async (r, i) => ({
  ext: "canvas",
  bytes: `${JSON.stringify(
    {
      nodes: [
        { id: `n${i}a`, type: "text", text: "# Canvas\nWith [[Ideas]]", x: 0, y: 0, width: 250, height: 60 },
        { id: `n${i}b`, type: "file", file: "Ideas.md", x: 300, y: r.int(200), width: 400, height: 400 },
      ],
      edges: [{ id: `e${i}`, fromNode: `n${i}a`, fromSide: "right", toNode: `n${i}b`, toSide: "left" }],
    },
    null,
    "\t",
  )}\n`,
});

const json: Maker = async (r) => ({
  ext: "json",
  bytes: `${JSON.stringify({ values: Array.from({ length: 5 + r.int(20) }, () => r.int(1000)), name: "données" })}\n`,
});

const csv: Maker = async (r) => ({
  ext: "csv",
  bytes: `name,value,note\n${Array.from({ length: 3 + r.int(30) }, (_, i) => `row ${i},${r.int(100)},"quoted, with comma"`).join("\r\n")}\r\n`,
});

const MAKERS: Maker[] = [png, jpeg, png, jpeg, svg, pdf, wav, mp3, canvas, json, csv, upperPng];

const sentence = (r: ReturnType<typeof random>) => {
  const words = Array.from({ length: 6 + r.int(14) }, () => r.pick(WORDS));
  return `${words.join(" ")}.`;
};

/** A note's text: front matter, links and embeds to other notes and attachments, and the usual Markdown of a vault. */
function noteText(
  r: ReturnType<typeof random>,
  i: number,
  title: string,
  names: string[],
  files: string[],
  self: string,
  /** Relative Markdown links from this note to another note's path. */
  relative: () => string,
): string {
  const other = () => r.pick(names);
  const file = () => r.pick(files.length ? files : ["missing.png"]);
  const parts: string[] = [];
  parts.push(
    "---",
    `title: "${title}"`,
    `aliases: [${JSON.stringify(`${title} ${i}`)}]`,
    `tags: [vault, ${r.pick(["project", "daily", "ref", "café"])}]`,
    `date: 2024-${String(1 + r.int(12)).padStart(2, "0")}-${String(1 + r.int(28)).padStart(2, "0")}`,
    `rating: ${r.int(5)}`,
    "---",
    "",
    `# ${title}`,
    "",
    `${sentence(r)} See [[${other()}]] and [[${other()}|an alias]], or [[${other()}#Section]].${r.int(2) ? ` A block: [[${other()}#^blk${r.int(9)}]].` : ""}`,
    "",
    `![[${file()}]]`,
    "",
    `A relative link: [the other note](${relative()}) and an image ![alt](${encodeURI(file())}).`,
    "",
    `Footnoted claim.[^1] Another one.[^note]`,
    "",
    "- [ ] an open task",
    "- [x] a done task ✅ 2024-01-05",
    "  - [ ] a nested task",
    "",
    `> [!${r.pick(["note", "warning", "tip", "quote"])}] A callout`,
    `> ${sentence(r)}`,
    "",
    "| a | b |",
    "|---|---|",
    `| ${r.int(10)} | ${r.pick(WORDS)} |`,
    "",
    "```ts",
    `const x = ${r.int(100)}; // code`,
    "```",
    "",
    `${sentence(r)} ^blk${r.int(9)}`,
    "",
    `Inline math $e^{i\\pi}+1=0$ and a tag #${r.pick(["idea", "todo", "日本"])}. Self: [[${self}]].`,
    "",
    "[^1]: The first footnote.",
    `[^note]: ${sentence(r)}`,
    "",
  );
  for (let p = r.int(4); p > 0; p--) parts.push(sentence(r), "");
  return parts.join("\n");
}

/**
 * Writes a vault into `root` (an empty folder): its notes, attachments, large files and
 * the dot-folders a sync skips. What it wrote, by relative path.
 */
export async function makeVault(root: string, opts: VaultOptions = {}): Promise<Vault> {
  const { notes = 300, attachments = 60, large = 3, largeBytes = 3 * MB, seed = 1 } = opts;
  const r = random(seed);
  const written = new Map<string, Uint8Array | string>();
  const put = (path: string, bytes: Uint8Array | string) => written.set(path, bytes);

  // Names first: a note links to others by name.
  const notePaths: string[] = [];
  const used = new Set<string>();
  for (let i = 0; i < notes; i++) {
    const folder = FOLDERS[i % FOLDERS.length]!;
    let name = i < TITLES.length ? TITLES[i]! : `${r.pick(TITLES)} ${i}`;
    while (used.has(`${folder}/${name}`.toLowerCase())) name = `${name} ${r.int(10)}`;
    used.add(`${folder}/${name}`.toLowerCase());
    notePaths.push(folder ? `${folder}/${name}.md` : `${name}.md`);
  }
  const fileNames: string[] = [];
  for (let i = 0; i < attachments; i++) {
    const make = MAKERS[i % MAKERS.length]!;
    const made = await make(r, i);
    const dir = ATTACHMENT_DIRS[i % ATTACHMENT_DIRS.length]!;
    const base = i < ATTACHMENT_NAMES.length ? ATTACHMENT_NAMES[i]! : `${r.pick(ATTACHMENT_NAMES)} ${i}`;
    const path = `${dir}/${base}.${made.ext}`;
    put(path, made.bytes);
    fileNames.push(path.slice(path.lastIndexOf("/") + 1));
  }
  // An empty attachment (a placeholder some tools leave).
  put("attachments/empty placeholder.txt", new Uint8Array(0));
  for (let i = 0; i < large; i++) {
    const ext = ["mp4", "zip", "pdf", "mov"][i % 4]!;
    const path = `${i % 2 ? "Assets/Large Files" : "attachments"}/big ${["video", "archive", "scan", "clip"][i % 4]} ${i + 1}.${ext}`;
    put(path, noise(largeBytes + r.int(MB), seed * 1000 + i));
  }
  const names = notePaths.map((p) => p.slice(p.lastIndexOf("/") + 1, -3));
  notePaths.forEach((path, i) => {
    const relative = () => encodeURI(posix.relative(posix.dirname(path), r.pick(notePaths)));
    put(path, noteText(r, i, names[i]!, names, fileNames, names[i]!, relative));
  });
  // Notes written elsewhere: Windows line endings, a byte order mark first, and an empty one.
  put("Windows note.md", "# Written on Windows\r\n\r\n- [ ] a task\r\n");
  put("Saved with a BOM.md", "\uFEFF# A byte order mark first\r\n\r\nas some Windows editors save\r\n");
  put("Empty.md", "");
  // A note in Latin-1, as old tools wrote them: not UTF-8, so it goes as a file, byte for byte.
  put("Legacy latin-1.md", new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  notePaths.push("Windows note.md", "Saved with a BOM.md", "Empty.md", "Legacy latin-1.md");
  // Files a sync leaves alone by default.
  const skipped = [".obsidian/", ".trash/", "Projects/.DS_Store"];
  const obsidian: Record<string, string> = {
    ".obsidian/app.json": `${JSON.stringify({ attachmentFolderPath: "attachments", newLinkFormat: "shortest" })}\n`,
    ".obsidian/appearance.json": `${JSON.stringify({ theme: "obsidian" })}\n`,
    ".obsidian/workspace.json": `${JSON.stringify({ main: { id: "abc", type: "split" }, lastOpenFiles: notePaths.slice(0, 5) })}\n`,
    ".obsidian/plugins/dataview/manifest.json": `${JSON.stringify({ id: "dataview", version: "0.5.0" })}\n`,
    ".obsidian/plugins/dataview/main.js": "module.exports = {};\n",
    ".obsidian/snippets/custom.css": ".markdown-preview-view { font-size: 1.1em; }\n",
    ".trash/deleted note.md": "# Deleted\n",
    "Projects/.DS_Store": "\u0000\u0000\u0000\u0001Bud1",
  };

  let bytes = 0;
  for (const [path, content] of written) {
    bytes += typeof content === "string" ? Buffer.byteLength(content) : content.length;
    await mkdir(dirname(join(root, path)), { recursive: true });
    await Bun.write(join(root, path), content);
  }
  for (const [path, content] of Object.entries(obsidian)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await Bun.write(join(root, path), content);
  }
  const attachmentPaths = [...written.keys()].filter((p) => !p.endsWith(".md"));
  return { root, notes: notePaths, attachments: attachmentPaths, skipped, bytes };
}

/** Every file under `root` with its bytes, by relative path (NFC, POSIX), the sync's own state left out. */
export async function treeOf(root: string, leaveOut: (path: string) => boolean = (p) => p === ".shelf-sync.json"): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  const walk = async (dir: string, prefix: string) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const path = (prefix ? `${prefix}/${e.name}` : e.name).normalize("NFC");
      if (e.isDirectory()) await walk(join(dir, e.name), path);
      else if (!leaveOut(path)) out.set(path, await Bun.file(join(dir, e.name)).bytes());
    }
  };
  await walk(root, "");
  return out;
}
