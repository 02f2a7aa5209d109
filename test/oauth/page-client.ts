// A browser's part in the server-rendered pages, over app.handle: one cookie jar, one
// client address, an Origin on every form post (as browsers send one), the forms' CSRF
// token read from the last page. Every answer is held to the OpenAPI document.
import type { Handler } from "../helpers/contract.ts";
import { expectDocumented } from "../helpers/context.ts";

export interface PageAnswer {
  status: number;
  headers: Headers;
  html: string;
}

/** The value of hidden field `name` in the page (the first one). */
export const fieldOf = (html: string, name: string) => new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html)?.[1];

export function pageClient(app: Handler, opts: { ip: string; base?: string; origin?: string | null }) {
  const base = opts.base ?? "http://shelf.test";
  const jar = new Map<string, string>();
  let last = "";

  function keep(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      if (/max-age=0/i.test(c)) jar.delete(name);
      else jar.set(name, pair!.slice(eq + 1));
    }
  }

  async function send(method: string, path: string, init: { form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<PageAnswer> {
    const headers = new Headers({ "x-forwarded-for": opts.ip, ...init.headers });
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    let body: string | undefined;
    if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      if (opts.origin !== null && !headers.has("origin")) headers.set("origin", opts.origin ?? base);
      body = new URLSearchParams(init.form).toString();
    }
    const res = await app.handle(new Request(`${base}${path}`, { method, headers, body }));
    await expectDocumented(method, path, res.clone());
    keep(res);
    const html = await res.text();
    if (html) last = html;
    return { status: res.status, headers: res.headers, html };
  }

  return {
    jar,
    get: (path: string) => send("GET", path),
    /** Posts `form` with the CSRF token of the last page (unless the form names its own). */
    post: (path: string, form: Record<string, string>, headers?: Record<string, string>) =>
      send("POST", path, { form: { csrf: fieldOf(last, "csrf") ?? "", ...form }, headers }),
    /** Posts exactly `form`: no token added. */
    postRaw: (path: string, form: Record<string, string>, headers?: Record<string, string>) => send("POST", path, { form, headers }),
    /**
     * Signs in on the page at `path`: its GET, then the sign-in form; a success is followed
     * to the page it sends back to (whose forms carry the new page session's token). The
     * sign-in's own answer is returned.
     */
    async signIn(path: string, email: string, password: string) {
      await send("GET", path);
      const res = await send("POST", path, { form: { csrf: fieldOf(last, "csrf") ?? "", action: "sign_in", email, password } });
      if (res.status === 303) await send("GET", new URL(res.headers.get("location")!, `${base}${path}`).pathname);
      return res;
    },
    csrf: () => fieldOf(last, "csrf"),
  };
}
