// What the backup and restore tests share: `shelf serve` and `shelf admin` as an operator
// runs them (child processes from the checkout), an instance filled through its API with
// one of each kind that stores objects, and what a client sees of it, to compare an instance
// with its restored copy.
import { expect } from "bun:test";
import { join } from "node:path";
import { fixture as audioFixture } from "../audio/fixtures.ts";
import { png } from "../images/fixtures.ts";

const ROOT = join(import.meta.dir, "../..");

export type Env = Record<string, string | undefined>;

/** `shelf serve --role api` on `env`; resolves with its address once it listens. */
export async function startServer(env: Env): Promise<{ base: string; stop(): Promise<number> }> {
  const child = Bun.spawn(["bun", "src/main.ts", "serve", "--role", "api"], { cwd: ROOT, env, stdout: "pipe", stderr: "inherit" });
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  let url: string | undefined;
  while (!url) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the server exited during start:\n${text}`);
    text += decoder.decode(value, { stream: true });
    url = /"msg":"api listening","url":"([^"]+)"/.exec(text)?.[1];
  }
  // Keep draining its log so the pipe never fills and blocks the process.
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return {
    base: url.replace("0.0.0.0", "127.0.0.1").replace(/\/$/, ""),
    stop: async () => {
      child.kill("SIGTERM");
      return child.exited;
    },
  };
}

/** A command run from the checkout, its output collected. */
export async function run(cmd: string[], env: Env): Promise<{ code: number; out: string; err: string }> {
  const child = Bun.spawn(cmd, { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, out, err };
}

export const admin = (env: Env, ...args: string[]) => run(["bun", "src/main.ts", "admin", ...args], env);

/** A command that must succeed; its stdout. */
export async function ok(result: Promise<{ code: number; out: string; err: string }>): Promise<string> {
  const r = await result;
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.out}\n${r.err}`);
  return r.out;
}

async function api(base: string, token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${token}`, ...headers } };
  if (body instanceof FormData || body instanceof Uint8Array) init.body = body as BodyInit;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  const res = await fetch(`${base}${path}`, init);
  const json = (await res.json()) as { data?: any };
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json.data;
}

const form = (bytes: Uint8Array, filename: string) => {
  const f = new FormData();
  f.set("file", new File([bytes as Uint8Array<ArrayBuffer>], filename, { type: "application/octet-stream" }));
  return f;
};

const sha256 = (bytes: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
const V2 = { "service-sync-version": "2" };

/** A new account's access token. */
export async function signup(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/v1/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "a long passphrase" }),
  });
  if (res.status !== 201) throw new Error(`signup answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
}

/** What was made: the account's credentials and the ids a client holds. */
export interface Content {
  email: string;
  accessToken: string;
  apiKey: string;
  imageId: string;
  docId: string;
  kbId: string;
}

/**
 * The first account (signed up), an API key (made by `shelf admin`, through the server), and
 * through the API: an image, a Markdown document whose inline image the service stored, an
 * audio file, and a KB with a note and an attachment it links.
 */
export async function fillInstance(base: string, env: Env): Promise<Content> {
  const email = "owner@example.com";
  const accessToken = await signup(base, email);
  const apiKey = (await ok(admin(env, "apikey", "create", "--email", email, "--name", "backup test"))).trim().split("\n").at(-1)!;

  const image = await api(base, apiKey, "POST", "/v1/images", form(await png(40, 30), "photo.png"));
  const inline = Buffer.from(await png(12, 10)).toString("base64");
  const doc = await api(base, apiKey, "POST", "/v1/docs", {
    filename: "notes.md",
    content: `# Notes\n\nA picture: ![pic](data:image/png;base64,${inline})\n`,
    rewriteImages: true,
  });
  expect(doc.rewrittenCount).toBe(1);
  await api(base, apiKey, "POST", "/v1/audio", form(await audioFixture("mp3"), "tone.mp3"));

  const kb = await api(base, apiKey, "POST", "/v1/kbs", { name: "Vault" });
  const attachment = Uint8Array.from({ length: 3000 }, (_, i) => (i * 31) % 251);
  await api(base, apiKey, "PUT", `/v1/kbs/${kb.id}/files/${sha256(attachment)}`, attachment, { "content-length": String(attachment.length) });
  const note = "# Trip\n\nSee ![[data.bin]].\n";
  const pushed = await api(
    base,
    apiKey,
    "POST",
    `/v1/kbs/${kb.id}/sync`,
    {
      ops: [
        { op: "upsert", relativePath: "trip.md", content: note, sourceHash: sha256(note) },
        { op: "upsert", kind: "file", relativePath: "data.bin", sourceHash: sha256(attachment) },
      ],
    },
    V2,
  );
  expect(pushed.results.map((r: { status: string }) => r.status)).toEqual(["applied", "applied"]);
  return { email, accessToken, apiKey, imageId: image.id, docId: doc.id, kbId: kb.id };
}

/** Every URL of the media edge a listing or a document's text names, by path (the host is PUBLIC_URL's, the same for both). */
function mediaPaths(listings: unknown, text: string): string[] {
  const urls = new Set<string>();
  const found = `${JSON.stringify(listings)}\n${text}`.matchAll(/https?:\/\/[^"\s)\\]+\/media\/[^"\s)\\]+/g);
  for (const [url] of found) urls.add(new URL(url).pathname);
  return [...urls].sort();
}

/** What a client sees: the listings, the KB's manifest, the texts, and the bytes behind every media URL and KB path. */
export async function stateOf(base: string, c: Content) {
  const get = (path: string, headers?: Record<string, string>) => api(base, c.apiKey, "GET", path, undefined, headers);
  const bytes = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${c.apiKey}` } });
    return { status: res.status, sha256: sha256(new Uint8Array(await res.arrayBuffer())) };
  };
  const listings = {
    images: await get("/v1/images"),
    docs: await get("/v1/docs"),
    media: await get("/v1/media"),
    kbs: await get("/v1/kbs"),
    manifest: await get(`/v1/kbs/${c.kbId}/manifest`, V2),
  };
  const docText = await (await fetch(`${base}/v1/docs/${c.docId}/raw`, { headers: { authorization: `Bearer ${c.apiKey}` } })).text();
  const media = Object.fromEntries(await Promise.all(mediaPaths(listings, docText).map(async (p) => [p, await bytes(p)] as const)));
  const kbFiles = {
    "trip.md": await bytes(`/v1/kbs/${c.kbId}/raw?path=trip.md`),
    "data.bin": await bytes(`/v1/kbs/${c.kbId}/raw?path=data.bin`),
  };
  return { listings, docText, media, kbFiles };
}

/** The state holds what fillInstance made: four media URLs (image, inline image, audio... ), all served. */
export function expectWhole(state: Awaited<ReturnType<typeof stateOf>>): void {
  expect(state.listings.images.items).toHaveLength(2);
  expect(state.listings.media.items.length).toBeGreaterThanOrEqual(1);
  expect(Object.keys(state.media).length).toBeGreaterThanOrEqual(3);
  for (const served of [...Object.values(state.media), ...Object.values(state.kbFiles)]) expect(served.status).toBe(200);
}

/** The account as the credential sees it; throws on anything but 200. */
export const me = (base: string, token: string) => api(base, token, "GET", "/v1/user/me");
