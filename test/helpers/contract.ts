// The OpenAPI document as a contract every response of the suite is held to: the status
// must be documented for its path and method, a JSON body must match the schema of that
// status, a documented body-less answer must have no body, and the headers the document
// requires must be there. A path the document does not have may only get the router's 404.
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Json = Record<string, any>;

export interface Handler {
  handle(request: Request): Promise<Response> | Response;
}

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  op: Json;
}

/**
 * The paths that serve the document itself and its reference page's files, and the
 * dashboard's page, files and embeddable player pages at CENTER_URL (the root here):
 * pages, not part of the API.
 */
const UNDOCUMENTED = new Set(["/swagger", "/swagger/json", "/"]);
const UNDOCUMENTED_UNDER = ["/swagger/assets/", "/_center/", "/embed/"];

const pointer = (...segments: string[]) => `doc#/${segments.map((s) => encodeURIComponent(s.replaceAll("~", "~0").replaceAll("/", "~1"))).join("/")}`;

class Contract {
  private readonly ajv = addFormats(new Ajv2020({ strict: false, allErrors: false }));
  private readonly headerAjv = new Ajv2020({ strict: false, coerceTypes: true });
  private readonly operations: Operation[] = [];
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly headerValidators = new Map<Json, ValidateFunction>();

  constructor(private readonly doc: Json) {
    this.ajv.addFormat("binary", true);
    this.ajv.addSchema(doc, "doc");
    for (const [template, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        if (method === "servers" || method === "parameters") continue;
        const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
        this.operations.push({ method: method.toUpperCase(), template, pattern: new RegExp(`^${source}$`), params: template.split("{").length - 1, op });
      }
    }
    // A path of its own wins over a template that also matches it.
    this.operations.sort((a, b) => a.params - b.params);
  }

  private resolve(node: Json): Json {
    let n = node;
    while (n?.$ref) {
      const path = (n.$ref as string)
        .slice(2)
        .split("/")
        .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
      n = path.reduce((at: Json, key) => at?.[key], this.doc);
    }
    return n;
  }

  private validator(key: string, ref: string): ValidateFunction {
    let v = this.validators.get(key);
    if (!v) this.validators.set(key, (v = this.ajv.compile({ $ref: ref })));
    return v;
  }

  /** The first way `res` breaks the document, or null when it keeps to it. */
  async violation(method: string, path: string, res: Response): Promise<string | null> {
    const pathname = new URL(path, "http://shelf.test").pathname;
    if (UNDOCUMENTED.has(pathname) || (UNDOCUMENTED_UNDER.some((p) => pathname.startsWith(p)) && res.status === 200)) return null;
    const found = this.operations.find((o) => o.method === method && o.pattern.test(pathname));
    if (!found) {
      if (res.status === 404) {
        const body = await bodyOf(res);
        if (body.json?.code === "NOT_FOUND") return this.checkBody(`${method} ${pathname}`, "error", pointer("components", "schemas", "Error"), body);
      }
      return `${method} ${pathname} is in no path of the document, yet it answered ${res.status} (only the router's 404 NOT_FOUND may answer there)`;
    }
    const route = `${method} ${found.template}`;
    const status = String(res.status);
    const responses = found.op.responses as Json;
    const key = status in responses ? status : `${status[0]}XX` in responses ? `${status[0]}XX` : "default" in responses ? "default" : null;
    if (!key) {
      const code = (await bodyOf(res)).json?.code;
      return `${route} answered ${status}${code ? ` ${code}` : ""}, which the document does not list for it (it lists ${Object.keys(responses).join(", ")})`;
    }
    const documented = this.resolve(responses[key]);

    for (const [name, h] of Object.entries((documented.headers ?? {}) as Json)) {
      const spec = this.resolve(h);
      const value = res.headers.get(name);
      if (value === null) {
        if (spec.required) return `${route} ${status}: the required header ${name} is missing`;
        continue;
      }
      let check = this.headerValidators.get(spec);
      // Header values are text: an integer header is checked as the number it spells.
      if (!check) this.headerValidators.set(spec, (check = this.headerAjv.compile({ type: "object", properties: { value: spec.schema ?? {} } })));
      if (!check({ value })) return `${route} ${status}: header ${name}: ${JSON.stringify(value)} ${check.errors?.[0]?.message}`;
    }

    if (method === "HEAD") return null;
    const content = documented.content as Json | undefined;
    if (!content) {
      const text = await res.clone().text();
      return text.length ? `${route} ${status}: the document says no body, the response has ${text.length} bytes: ${text.slice(0, 120)}` : null;
    }
    const type = (res.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
    const media = type in content ? type : `${type.split("/")[0]}/*` in content ? `${type.split("/")[0]}/*` : "*/*" in content ? "*/*" : null;
    if (!media) return `${route} ${status}: a body of type ${type || "(none)"}, the document says ${Object.keys(content).join(", ")}`;
    if (!/^application\/(?:[\w.+-]+\+)?json$/.test(type) || !content[media].schema) return null;
    const schemaAt = responses[key].$ref
      ? [...(responses[key].$ref as string).slice(2).split("/"), "content", media, "schema"]
      : ["paths", found.template, method.toLowerCase(), "responses", key, "content", media, "schema"];
    return this.checkBody(route, status, pointer(...schemaAt), await bodyOf(res));
  }

  private checkBody(route: string, status: string, ref: string, body: { text: string; json?: any; error?: string }): string | null {
    if (body.error) return `${route} ${status}: the body is not JSON (${body.error}): ${body.text.slice(0, 120)}`;
    const validate = this.validator(ref, ref);
    if (validate(body.json)) return null;
    const e = validate.errors![0]!;
    return `${route} ${status}: body${e.instancePath} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ""}: ${body.text.slice(0, 200)}`;
  }
}

async function bodyOf(res: Response): Promise<{ text: string; json?: any; error?: string }> {
  const text = await res.clone().text();
  try {
    return { text, json: JSON.parse(text) };
  } catch (e) {
    return { text, error: (e as Error).message };
  }
}

let contract: Promise<Contract> | undefined;

/** The contract of `app`'s document (the shared app's: every app the tests build has the same routes). */
export function contractOf(app: Handler): Promise<Contract> {
  contract ??= (async () => {
    const res = await app.handle(new Request("http://shelf.test/swagger/json"));
    if (res.status !== 200) throw new Error(`GET /swagger/json answered ${res.status}`);
    return new Contract((await res.json()) as Json);
  })();
  return contract;
}
