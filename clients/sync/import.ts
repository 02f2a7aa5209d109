// `shelf import <folder>`: brings a folder into an account over the HTTP API, once. A folder
// of photos and media: each image, video and audio file uploaded as its kind's upload route
// takes it (a file the account already has of that kind and name is skipped, so a re-run
// does not duplicate). A vault (`--kb <slug>`): the folder's notes and attachments go into
// that knowledge base, made when missing, through `shelf sync` (which also keeps the folder
// linked to it for later syncs). It prints a line per file and the counts; exit 0 when
// nothing failed, 1 when a file could not be imported, 2 on a usage error.
import { readdir, stat } from "node:fs/promises";
import { basename, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { syncCommand } from "./index.ts";
import { defaultIo, realSleep, type SyncCommandIo } from "./io.ts";

const USAGE = `Usage: shelf import <folder> [--server <url>] [--private]
       shelf import <folder> --kb <slug> [--server <url>]

Brings <folder> into your account, once:
  photos and media  every image (.jpg .jpeg .png .gif .webp .avif .svg), video (.mp4 .mov
                    .m4v .webm .mkv) and audio file (.mp3 .m4a .aac .flac .wav .ogg .opus)
                    in it and its subfolders is uploaded; a file the account already holds
                    of that kind and name is skipped, so a re-run brings only what is new
  a vault (--kb)    the notes (.md .markdown .typ) and attachments go into the knowledge
                    base <slug>, made when missing (this is \`shelf sync <folder> --kb <slug>
                    --create\`: the folder stays linked to it for later syncs)
Dot-folders, dot-files and node_modules/ are left out.

  --private         upload media as private (default: public, as the upload routes)
  --server, --url   the server (default: SHELF_URL, else http://localhost:8080)

Environment:
  SHELF_API_KEY     an API key with the media.read and media.write scopes (and kb.read,
                    kb.write for a vault; a vault may also use \`shelf sync login\`)
  SHELF_URL         the server, when --server is not given
`;

const DEFAULT_SERVER = "http://localhost:8080";
const MAX_RATE_WAITS = 20;

type Kind = "image" | "video" | "audio";
const KIND_OF: Record<string, Kind> = {
  jpg: "image",
  jpeg: "image",
  png: "image",
  gif: "image",
  webp: "image",
  avif: "image",
  svg: "image",
  mp4: "video",
  mov: "video",
  m4v: "video",
  webm: "video",
  mkv: "video",
  mp3: "audio",
  m4a: "audio",
  aac: "audio",
  flac: "audio",
  wav: "audio",
  ogg: "audio",
  opus: "audio",
};
const ROUTE: Record<Kind, string> = { image: "/v1/images", video: "/v1/videos", audio: "/v1/audio" };

/** An answer's envelope, as far as the command reads it. */
interface Envelope {
  data?: { id?: string; items?: { filename: string }[]; nextCursor?: string | null };
  code?: string;
  error?: string;
}

const kindOf = (name: string): Kind | undefined => {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? KIND_OF[name.slice(dot + 1).toLowerCase()] : undefined;
};

/** Every file under `root` (its path relative to it), but for dot-entries and node_modules, in name order. */
async function* filesUnder(root: string, dir = root): AsyncGenerator<string> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith(".") || e.name === "node_modules") continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* filesUnder(root, path);
    else if (e.isFile()) yield relative(root, path);
  }
}

class Api {
  constructor(
    private readonly server: string,
    private readonly key: string,
    private readonly io: SyncCommandIo,
  ) {}

  /** One request; a 429 is waited out as its Retry-After says (the upload tier is per minute). */
  async send(method: string, path: string, body?: () => BodyInit): Promise<{ status: number; json: Envelope | null }> {
    for (let waits = 0; ; waits++) {
      const res = await this.io.send(
        new Request(`${this.server}${path}`, { method, headers: { authorization: `Bearer ${this.key}` }, body: body?.() ?? null }),
      );
      const retry = Number(res.headers.get("retry-after"));
      if (res.status === 429 && waits < MAX_RATE_WAITS && Number.isInteger(retry) && retry > 0 && retry <= 600) {
        await (this.io.sleep ?? realSleep)(retry * 1000);
        continue;
      }
      const text = await res.text();
      let json: Envelope | null = null;
      try {
        json = JSON.parse(text);
      } catch {
        // Not the envelope (a proxy's page): the status says enough.
      }
      return { status: res.status, json };
    }
  }

  /** The names the account's items of a kind already have. */
  async names(kind: Kind): Promise<Set<string>> {
    const names = new Set<string>();
    const base = kind === "image" ? "/v1/images?limit=100" : `/v1/media?type=${kind}&limit=50`;
    let cursor: string | null = null;
    do {
      const page = await this.send("GET", `${base}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      if (page.status !== 200) throw new Error(`listing the account's ${kind} files answered ${page.status}${page.json?.code ? ` ${page.json.code}` : ""}`);
      for (const item of page.json?.data?.items ?? []) names.add(item.filename);
      cursor = page.json?.data?.nextCursor ?? null;
    } while (cursor);
    return names;
  }
}

export async function importCommand(args: string[], io: SyncCommandIo = defaultIo()): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (e) {
    io.err(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    io.out(USAGE);
    return 0;
  }
  if (!parsed.folder) {
    io.err(`a folder is required\n\n${USAGE}`);
    return 2;
  }
  const root = resolve(parsed.folder);
  if (!(await stat(root).catch(() => null))?.isDirectory()) {
    io.err(`${parsed.folder} is not a folder`);
    return 2;
  }
  const server = (parsed.server ?? io.env.SHELF_URL ?? DEFAULT_SERVER).replace(/\/+$/, "");
  if (parsed.kb) return syncCommand([root, "--kb", parsed.kb, "--create", "--server", server], io);
  const key = io.env.SHELF_API_KEY;
  if (!key) {
    io.err("set SHELF_API_KEY to an API key with the media.read and media.write scopes");
    return 2;
  }
  const api = new Api(server, key, io);
  const counts = { imported: 0, skipped: 0, failed: 0 };
  try {
    const held = new Map<Kind, Set<string>>();
    for await (const path of filesUnder(root)) {
      const kind = kindOf(path);
      const name = basename(path);
      if (!kind) {
        counts.skipped++;
        io.out(`skipped   ${path} (not an image, video or audio file)`);
        continue;
      }
      if (!held.has(kind)) held.set(kind, await api.names(kind));
      if (held.get(kind)!.has(name)) {
        counts.skipped++;
        io.out(`skipped   ${path} (the account has a ${kind} of that name)`);
        continue;
      }
      const form = () => {
        const f = new FormData();
        f.append("file", Bun.file(join(root, path)), name);
        if (parsed.private) f.append("isPublic", "false");
        return f;
      };
      const res = await api.send("POST", ROUTE[kind], form);
      if (res.status === 201) {
        counts.imported++;
        held.get(kind)!.add(name);
        io.out(`imported  ${path} (${kind} ${res.json?.data?.id})`);
      } else {
        counts.failed++;
        const why = res.json?.code ? `${res.json.code}: ${res.json.error}` : `answered ${res.status}`;
        io.err(`failed    ${path}: ${why}`);
      }
    }
  } catch (e) {
    io.err(`import failed: ${(e as Error).message}`);
    counts.failed++;
  }
  io.out(`${counts.imported} imported, ${counts.skipped} skipped, ${counts.failed} failed`);
  return counts.failed ? 1 : 0;
}

function parse(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      kb: { type: "string" },
      server: { type: "string" },
      url: { type: "string" },
      private: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (positionals.length > 1) throw new Error(`one folder at a time (got ${positionals.join(", ")})`);
  return { folder: positionals[0], kb: values.kb, server: values.server ?? values.url, private: values.private === true, help: values.help === true };
}
