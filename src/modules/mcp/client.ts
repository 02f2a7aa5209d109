// The MCP tools speak to shelf through its HTTP API, the same calls a script makes: the
// hosted server sends them into this node's app in process (with a credential that stands
// for the caller's OAuth token for the life of one MCP request), `shelf mcp` sends them to
// SHELF_URL with an API key. So a tool is one definition whatever the transport, and every
// rule (scopes, rate limits, quotas, tenancy) is the API's own.

export type Send = (request: Request) => Promise<Response>;

/** A refusal a tool reports to the agent (a tool error, not a protocol error): the API's code and words. */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly status?: number,
    /** The API's meta, for a tool that words a refusal itself (a sync op's conflict reason). */
    readonly meta?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

interface Envelope {
  success?: boolean;
  data?: unknown;
  error?: string;
  code?: string;
  meta?: Record<string, unknown>;
}

type Query = Record<string, string | number | undefined>;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** The words an agent gets for an API refusal: a missing scope is named as such. */
function refusal(status: number, body: Envelope | undefined): ToolError {
  const required = body?.meta?.required;
  if (status === 403 && typeof required === "string" && (body?.code === "FORBIDDEN" || body?.code === "OAUTH_SCOPE_INSUFFICIENT")) {
    return new ToolError(`this needs the ${required} scope, which this credential was not granted`, "INSUFFICIENT_SCOPE", status);
  }
  const words = body?.error ?? `the server answered ${status}`;
  return new ToolError(body?.code ? `${words} (${body.code})` : words, body?.code, status, body?.meta);
}

/** An API refusal read from its text (a non-JSON route's refusal is the JSON envelope all the same). */
function refusalOf(status: number, text: string): ToolError {
  let body: Envelope | undefined;
  try {
    body = JSON.parse(text) as Envelope;
  } catch {
    body = undefined;
  }
  return refusal(status, body);
}

export class ShelfClient {
  constructor(
    private readonly baseUrl: string,
    private readonly send: Send,
    private readonly authorization: () => string,
  ) {}

  private url(path: string, query: Query = {}): string {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.href;
  }

  private async request(method: string, path: string, opts: { query?: Query; json?: unknown; form?: FormData; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { authorization: this.authorization(), ...opts.headers };
    let body: BodyInit | undefined;
    if (opts.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(opts.json);
    } else if (opts.form) body = opts.form;
    return this.send(new Request(this.url(path, opts.query), { method, headers, body }));
  }

  /** A JSON API call: the envelope's data, or a ToolError with the API's words. */
  async call<T>(method: string, path: string, opts: { query?: Query; json?: unknown; form?: FormData; headers?: Record<string, string> } = {}): Promise<T> {
    const res = await this.request(method, path, opts);
    let body: Envelope | undefined;
    try {
      body = (await res.json()) as Envelope;
    } catch {
      body = undefined;
    }
    if (!res.ok) throw refusal(res.status, body);
    if (body?.success === false) throw refusal(res.status, body);
    return body?.data as T;
  }

  /** A call answered with text (a document's raw content): its status, headers and text. */
  async text(path: string, query: Query = {}): Promise<Answer> {
    const res = await this.request("GET", path, { query });
    const text = await res.text();
    if (!res.ok) throw refusalOf(res.status, text);
    return { status: res.status, headers: res.headers, text };
  }

  /**
   * A call answered with bytes (a KB file): its headers, its size, and its bytes when they
   * are at most `maxBytes` (null past that: they are counted as they pass, never kept, so a
   * large file costs no memory).
   */
  async bytes(path: string, query: Query, maxBytes: number): Promise<{ headers: Headers; sizeBytes: number; bytes: Uint8Array | null }> {
    const res = await this.request("GET", path, { query });
    if (!res.ok) throw refusalOf(res.status, await res.text());
    const kept: Uint8Array[] = [];
    let size = 0;
    if (res.body) {
      for await (const chunk of res.body) {
        size += chunk.byteLength;
        if (size <= maxBytes) kept.push(chunk);
        else kept.length = 0;
      }
    }
    return { headers: res.headers, sizeBytes: size, bytes: size <= maxBytes ? Buffer.concat(kept) : null };
  }
}
