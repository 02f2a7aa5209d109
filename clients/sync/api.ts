// The few calls `shelf sync` makes, spoken in sync protocol v2 with an API key or the
// OAuth sign-in of `shelf sync login` (login.ts). Every request goes through one `send`,
// so the client can run against a listening server or, in tests, straight into an app's
// handler; `requests` counts them (a no-change sync should cost one conditional manifest
// request).

export type Send = (request: Request) => Promise<Response>;
type Sleep = (ms: number) => Promise<void>;

/** How often one request waits out a 429, and the longest wait it takes. */
const MAX_RATE_WAITS = 20;
const MAX_RATE_WAIT_S = 600;

/** The wait a 429 asks for (its Retry-After), when it is one to wait out. */
function rateWaitMs(res: Response): number | undefined {
  if (res.status !== 429) return undefined;
  const s = Number(res.headers.get("retry-after"));
  return Number.isInteger(s) && s > 0 && s <= MAX_RATE_WAIT_S ? s * 1000 : undefined;
}

/** An answer the client cannot go on from: its status and the error envelope's code. */
export class SyncClientError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export interface ManifestItem {
  relativePath: string;
  docId?: string;
  /** A note (document) or an attachment (file); a server without attachments names none. */
  kind?: "document" | "file";
  sourceHash: string | null;
  updatedAt: string | null;
  deletedAt: string | null;
  hasPendingBranches?: boolean;
}

interface Tombstone {
  docId: string;
  relativePath: string;
  sourceHash: string;
  deletedAt: string;
}

export interface ManifestPage {
  items: ManifestItem[];
  tombstones: Tombstone[];
  nextCursor: string | null;
  sinceCursor?: string | null;
  tombstoneCursorExpired?: boolean;
}

/** One op's outcome in a v2 push (v2 additions). */
export interface OpResult {
  opIndex: number;
  status: string;
  docId?: string | null;
  relativePath?: string;
  updatedAt?: string;
  sourceHash?: string | null;
  branchId?: string;
  currentMasterHash?: string | null;
  currentMasterUpdatedAt?: string | null;
  reason?: string;
  message?: string;
  meta?: Record<string, unknown>;
}

export type PushOp =
  | { op: "upsert"; relativePath: string; content: string; sourceHash: string; baseUpdatedAt?: string; baseHash?: string }
  /** An attachment: its bytes are uploaded first (putFile), the op links them at the path. */
  | { op: "upsert"; kind: "file"; relativePath: string; sourceHash: string; baseUpdatedAt?: string; baseHash?: string }
  | { op: "delete"; relativePath: string; baseUpdatedAt: string; baseHash: string }
  | { op: "move"; fromPath: string; toPath: string; baseUpdatedAt: string; sourceHash: string }
  | { op: "rename"; docId: string; newName: string; baseUpdatedAt: string; sourceHash: string };

export interface Master {
  content: string;
  sourceHash: string;
  updatedAt: string;
}

/** A pending conflict branch (GET /v1/kbs/:id/conflicts). */
export interface Branch {
  branchId: string;
  docId: string;
  relativePath: string;
}

/** An upload's outcome: stored (new or already held), or refused with its status, code, message and the limit a 413 names. */
export type Upload = { ok: true } | { ok: false; status: number; code?: string; message: string; limit?: number };

/** Where the bearer token comes from: an API key as it is, or an OAuth sign-in that renews itself. */
export interface Auth {
  token(): Promise<string>;
  /** The server refused `token` (401): get a new one, once, for a retry. Absent: a refusal is final. */
  renew?(refused: string): Promise<void>;
}

export const apiKeyAuth = (key: string): Auth => ({ token: async () => key });

export class SyncApi {
  requests = 0;

  constructor(
    private readonly base: string,
    private readonly auth: Auth,
    private readonly send: Send,
    private readonly sleep: Sleep,
  ) {}

  private async call(method: string, path: string, init: { json?: unknown; headers?: Record<string, string>; body?: () => BodyInit } = {}): Promise<Response> {
    const json = init.json === undefined ? undefined : JSON.stringify(init.json);
    let renewed = false;
    for (let waits = 0; ; ) {
      const token = await this.auth.token();
      const headers = new Headers(init.headers);
      headers.set("authorization", `Bearer ${token}`);
      headers.set("service-sync-version", "2");
      if (json !== undefined) headers.set("content-type", "application/json");
      this.requests++;
      const res = await this.send(new Request(`${this.base}${path}`, { method, headers, body: json ?? init.body?.() }));
      // An access token that expired (or was refused) between two requests: renew it once and retry.
      if (res.status === 401 && !renewed && this.auth.renew) {
        await res.body?.cancel();
        await this.auth.renew(token);
        renewed = true;
        continue;
      }
      // Over a rate tier or a token bucket (a large first push spends the sync-op bucket):
      // nothing was done, and Retry-After says when the same request will pass.
      const wait = waits < MAX_RATE_WAITS ? rateWaitMs(res) : undefined;
      if (wait === undefined) return res;
      await res.body?.cancel();
      waits++;
      await this.sleep(wait);
    }
  }

  /** The body of a successful JSON answer (its `data`), or the error it carries. */
  private async data<T>(res: Response, what: string): Promise<T> {
    const text = await res.text();
    let json: { data?: T; error?: string; code?: string } | undefined;
    try {
      json = JSON.parse(text);
    } catch {
      throw new SyncClientError(`${what}: the server answered ${res.status} with something that is not JSON`, res.status, undefined);
    }
    if (!res.ok) {
      // The error envelope: { success: false, error: <message>, code, meta }.
      const code = json?.code;
      throw new SyncClientError(`${what}: ${res.status} ${code ?? ""} ${json?.error ?? ""}`.trim(), res.status, code);
    }
    return json!.data as T;
  }

  /** The id of the caller's KB with this slug. */
  async kbIdBySlug(slug: string): Promise<string> {
    let cursor: string | null = null;
    do {
      const query: string = `limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page: { items: { id: string; slug: string }[]; nextCursor: string | null } = await this.data(
        await this.call("GET", `/v1/kbs?${query}`),
        "listing knowledge bases",
      );
      const kb = page.items.find((k) => k.slug === slug);
      if (kb) return kb.id;
      cursor = page.nextCursor;
    } while (cursor);
    throw new SyncClientError(`no knowledge base with the slug "${slug}" (add --create to create it)`, 404, "NOT_FOUND");
  }

  /** Creates the KB `slug` (named by its slug; the name can be changed later): its id. */
  async createKb(slug: string): Promise<string> {
    const kb = await this.data<{ id: string }>(await this.call("POST", "/v1/kbs", { json: { name: slug, slug } }), `creating the knowledge base ${slug}`);
    return kb.id;
  }

  /**
   * One manifest page of changes since `since` (all documents without it), tombstones
   * included. With `etag` on the first page, null means 304: nothing changed.
   */
  async manifestPage(kbId: string, opts: { since?: string; cursor?: string; etag?: string }): Promise<{ page: ManifestPage; etag: string | null } | null> {
    const query = new URLSearchParams({ limit: "1000", include: "tombstones" });
    if (opts.since) query.set("since", opts.since);
    if (opts.cursor) query.set("cursor", opts.cursor);
    const res = await this.call("GET", `/v1/kbs/${kbId}/manifest?${query}`, { headers: opts.etag ? { "if-none-match": opts.etag } : {} });
    if (res.status === 304) return null;
    const etag = res.headers.get("etag");
    const page = await this.data<ManifestPage>(res, "reading the manifest");
    return { page: { ...page, tombstones: page.tombstones ?? [] }, etag };
  }

  /** The master text at a path (GET /v1/kbs/:id/raw). */
  async raw(kbId: string, relativePath: string): Promise<Master> {
    const res = await this.call("GET", `/v1/kbs/${kbId}/raw?path=${encodeURIComponent(relativePath)}`);
    if (!res.ok) await this.data(res, `fetching ${relativePath}`);
    return {
      // Not res.text(): it drops a leading byte order mark, which is part of the note.
      content: new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer()),
      sourceHash: res.headers.get("x-source-hash") ?? "",
      updatedAt: res.headers.get("x-updated-at") ?? "",
    };
  }

  /** Up to 50 documents' text by id (POST /v1/docs/raw:batch); those it could not read are left out. */
  async rawBatch(ids: string[]): Promise<Map<string, Master>> {
    const data = await this.data<{ docs: { id: string; content: string; sourceHash: string; updatedAt: string }[] }>(
      await this.call("POST", "/v1/docs/raw:batch", { json: { ids } }),
      "fetching documents",
    );
    return new Map(data.docs.map((d) => [d.id, { content: d.content, sourceHash: d.sourceHash, updatedAt: d.updatedAt }]));
  }

  /**
   * One push with conflicts kept as branches. A 409 SYNC_CONFLICT still carries every
   * op's outcome (meta.results); it is read like a 200.
   */
  async push(kbId: string, ops: PushOp[]): Promise<OpResult[]> {
    const res = await this.call("POST", `/v1/kbs/${kbId}/sync?conflictResolution=preserve_both`, { json: { ops } });
    if (res.status === 409) {
      const body = (await res.json()) as { code?: string; error?: string; meta?: { results?: OpResult[] } };
      if (body.code === "SYNC_CONFLICT" && body.meta?.results) return body.meta.results;
      throw new SyncClientError(`pushing changes: 409 ${body.code ?? ""} ${body.error ?? ""}`.trim(), 409, body.code);
    }
    const data = await this.data<{ results: OpResult[] }>(res, "pushing changes");
    return data.results;
  }

  /** Uploads a file's bytes under their SHA-256 (PUT /v1/kbs/:id/files/:sha256), read from disk as sent. */
  async putFile(kbId: string, sha256: string, file: string, size: number): Promise<Upload> {
    const res = await this.call("PUT", `/v1/kbs/${kbId}/files/${sha256}`, {
      headers: { "content-type": "application/octet-stream", "content-length": String(size) },
      body: () => Bun.file(file),
    });
    if (res.ok) {
      await res.body?.cancel();
      return { ok: true };
    }
    const text = await res.text();
    let body: { code?: string; error?: string; meta?: { limit?: unknown } } = {};
    try {
      body = JSON.parse(text);
    } catch {}
    const limit = typeof body.meta?.limit === "number" ? body.meta.limit : undefined;
    return {
      ok: false,
      status: res.status,
      code: body.code,
      message: body.error ?? `the server answered ${res.status}`,
      ...(limit !== undefined && { limit }),
    };
  }

  /**
   * An attachment's bytes at a path (GET /v1/kbs/:id/raw), written to `dest` as they
   * arrive; its hash and version as the server names them.
   */
  async rawFile(kbId: string, relativePath: string, dest: string): Promise<{ sourceHash: string; updatedAt: string }> {
    const res = await this.call("GET", `/v1/kbs/${kbId}/raw?path=${encodeURIComponent(relativePath)}`);
    if (!res.ok) await this.data(res, `fetching ${relativePath}`);
    const sourceHash = res.headers.get("x-source-hash") ?? "";
    const updatedAt = res.headers.get("x-updated-at") ?? "";
    await Bun.write(dest, res);
    return { sourceHash, updatedAt };
  }

  /** The KB's pending conflict branches, every page. */
  async conflicts(kbId: string): Promise<Branch[]> {
    const all: Branch[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page: { items: Branch[]; nextCursor: string | null } = await this.data(
        await this.call("GET", `/v1/kbs/${kbId}/conflicts?${query}`),
        "listing conflicts",
      );
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return all;
  }
}
