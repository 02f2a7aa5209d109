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
  return new ToolError(body?.code ? `${words} (${body.code})` : words, body?.code, status);
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
    if (!res.ok) {
      let body: Envelope | undefined;
      try {
        body = JSON.parse(text) as Envelope;
      } catch {
        body = undefined;
      }
      throw refusal(res.status, body);
    }
    return { status: res.status, headers: res.headers, text };
  }
}
