// The "never a 500" sweep's parts: every operation of the generated OpenAPI document, a
// caller per operation with resources of its own to aim at, and the one check every answer
// to a bad input must pass (below 500; an error is the envelope of docs/api.md).
import { expect } from "bun:test";
import { newId } from "../../src/infra/ids.ts";
import { ERROR_CODES } from "../../src/core/errors.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { doc, type Json, METHODS, resolve } from "../helpers/openapi-doc.ts";
import { makeKey, makeUser, type TestUser } from "../helpers/factories.ts";
import { addPasskey } from "../helpers/webauthn.ts";
import { uploadedDoc } from "../documents/fixtures.ts";
import { newKb } from "../kbs/fixtures.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { insertVideo } from "../videos/fixtures.ts";
import { storedVideo } from "../videos/playback-fixtures.ts";

export type { Json };
export interface Operation {
  method: string;
  path: string;
  op: Json;
}

export const operations: Operation[] = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json)
    .filter(([m]) => METHODS.includes(m))
    .map(([method, op]) => ({ method: method.toUpperCase(), path, op: op as Json })),
);

export { resolve };

/** Percent-encoded values no decoder should turn into a 500: every URL and form sweep sends them. */
export const BAD_ESCAPES: [string, string][] = [
  ["NUL", "%00"],
  ["invalid UTF-8", "%C3%28"],
  ["lone percent", "%"],
  ["bad escape", "%zz"],
];

export const params = (o: Operation, where: string): Json[] => (o.op.parameters ?? []).map(resolve).filter((p: Json) => p.in === where);
/** Routes where a credential is optional (public documents, the media edge): swept without one too. */
export const optionalAuth = (o: Operation) => !o.op.security || (o.op.security as Json[]).some((s) => Object.keys(s).length === 0);

/** One user per operation (an admin for the admin routes) with a resource of each kind the path can name. */
interface Caller {
  user: TestUser;
  target: TestUser;
  ids: Record<string, string>;
  /** Path values taken from a real URL of the caller's media (the edge's files). */
  values: Record<string, string>;
}

/** The values of `template`'s parameters in `url`, when their segments line up. */
function valuesIn(template: string, url: string | undefined): Record<string, string> | undefined {
  if (!url) return undefined;
  const want = template.split("/");
  const got = new URL(url).pathname.replace(/^.*?\/media\//, "/media/").split("/");
  if (want.length !== got.length || want.some((w, i) => !w.startsWith("{") && w !== got[i])) return undefined;
  return Object.fromEntries(want.flatMap((w, i) => (w.startsWith("{") ? [[w.slice(1, -1), got[i]!]] : [])));
}

/** A stored, ready video of the user and its edge paths: master, variant, and signed variant. */
async function videoValues(o: Operation, user: TestUser): Promise<Record<string, string>> {
  const { id } = await storedVideo(user.id);
  const signed = await callJson("POST", `/v1/videos/${id}/sign`, { token: user.jwt, json: {} });
  const signature = (signed.body.data.url as string).split("/").at(-2)!;
  const byPath: Record<string, Record<string, string>> = {
    "/media/v/{id}/{file}": { file: "master.m3u8" },
    "/media/v/{id}/{dir}/{file}": { dir: "720p", file: "index.m3u8" },
    "/media/v/{id}/{signature}/{rendition}/{file}": { signature, rendition: "720p", file: "index.m3u8" },
  };
  return { id, ...byPath[o.path] };
}

/** An uploaded audio file of the user and the edge path (file, or cover) the route serves. */
async function audioValues(o: Operation, user: TestUser): Promise<Record<string, string>> {
  const a = (await uploadAudio(user.jwt, await fixture("mp3-cover"))).body.data;
  return { id: a.id, ...(valuesIn(o.path, a.url) ?? valuesIn(o.path, a.thumbnailUrl)) };
}

export async function newCaller(o: Operation): Promise<Caller> {
  const isAdmin = o.path.startsWith("/v1/admin/");
  // pro: video and audio uploads reach their own checks instead of stopping at the plan.
  const user = await makeUser({ plan: "pro", isAdmin });
  const ids: Record<string, string> = {};
  // Lists get a row too: a filter the database only evaluates against rows is then evaluated.
  const list = o.method === "GET" && !o.path.includes("{");
  if (o.path.startsWith("/v1/docs/{id}") || (list && o.path === "/v1/docs")) ids.doc = (await uploadedDoc(user.jwt)).id;
  if (o.path.startsWith("/v1/kbs/{id}") || (list && o.path === "/v1/kbs")) ids.kb = (await newKb(user.jwt)).id;
  if (o.path.startsWith("/v1/images/{id}") || o.path === "/media/{file}" || (list && o.path === "/v1/images"))
    ids.image = (await uploaded(user.jwt, await png())).id;
  if (o.path.startsWith("/v1/api-keys/{id}")) ids.key = (await makeKey(user)).id;
  if (o.path.startsWith("/v1/user/me/passkeys") || o.path.startsWith("/v1/auth/")) ids.passkey = (await addPasskey(user.jwt)).id;
  if (o.path.startsWith("/v1/videos/{id}") || (list && (o.path === "/v1/videos" || o.path === "/v1/media")))
    ids.video = (await insertVideo(user.id, { status: "ready" })).id;
  if (o.path.startsWith("/v1/collections/{id}") || (list && o.path === "/v1/collections")) {
    const image = (await uploaded(user.jwt, await png())).id;
    const made = await callJson("POST", "/v1/collections", { token: user.jwt, json: { title: "Sweep", items: [{ kind: "image", id: image }] } });
    ids.collection = made.body.data.id;
  }
  let values: Record<string, string> = {};
  if (o.path.startsWith("/media/v/")) values = await videoValues(o, user);
  if (o.path.startsWith("/v1/audio/{id}") || o.path.startsWith("/media/a/")) values = await audioValues(o, user);
  // The admin's PATCH aims at a user of its own, never at the admin or anyone else's test user.
  const target = o.path.startsWith("/v1/admin/users/") ? await makeUser() : user;
  return { user, target, ids, values };
}

/** A well-formed value for each path parameter, naming the caller's own resource where one exists. */
function validPathValue(o: Operation, name: string, c: Caller): string {
  if (c.values[name]) return c.values[name];
  if (name === "id") {
    if (o.path.startsWith("/v1/docs/")) return c.ids.doc!;
    if (o.path.startsWith("/v1/kbs/")) return c.ids.kb!;
    if (o.path.startsWith("/v1/images/")) return c.ids.image!;
    if (o.path.startsWith("/v1/api-keys/")) return c.ids.key!;
    if (o.path.startsWith("/v1/user/me/passkeys/")) return c.ids.passkey!;
    if (o.path.startsWith("/v1/collections/")) return c.ids.collection!;
    if (c.ids.video) return c.ids.video;
    if (o.path.startsWith("/v1/admin/users/")) return c.target.id;
    return newId();
  }
  if (name === "file") return o.path === "/media/{file}" ? `${c.ids.image}.png` : "master.m3u8";
  if (name === "provider") return "mux";
  if (name === "name") return "no-such-job";
  if (name === "rendition") return "720p";
  return newId();
}

export function fillPath(o: Operation, c: Caller, override: Record<string, string> = {}): string {
  return o.path.replace(/\{(\w+)\}/g, (_, name: string) => override[name] ?? validPathValue(o, name, c));
}

export interface BadRequest {
  /** What the request tries, for the failure message. */
  input: string;
  path: string;
  headers?: Record<string, string>;
  body?: BodyInit;
  /** Send it without a credential. */
  anonymous?: boolean;
}

const isEnvelope = (body: unknown): boolean => {
  const b = body as Json;
  return (
    !!b &&
    typeof b === "object" &&
    b.success === false &&
    typeof b.error === "string" &&
    (ERROR_CODES as string[]).includes(b.code) &&
    !!b.meta &&
    typeof b.meta === "object" &&
    !Array.isArray(b.meta)
  );
};

/** RFC 6749 section 5.2 error bodies, the documented answer of the OAuth protocol endpoints. */
const isOAuthError = (body: unknown) => !!body && typeof (body as Json).error === "string" && typeof (body as Json).success === "undefined";
/** The MCP endpoint's refusals: a JSON-RPC error (code and message), as the protocol has them. */
const isJsonRpcError = (body: unknown) =>
  !!body && (body as Json).jsonrpc === "2.0" && typeof (body as Json).error?.code === "number" && typeof (body as Json).error?.message === "string";

/**
 * Sends each request as the operation's caller (a fresh caller when the current one reached
 * its rate tier, so the sweep keeps testing inputs rather than the limiter) and fails with
 * every offending method, path and input at once.
 */
export async function sweep(o: Operation, build: (c: Caller) => BadRequest[]): Promise<number> {
  const { app } = await testContext();
  let caller = await newCaller(o);
  const failures: string[] = [];
  let sent = 0;
  let requests = build(caller);
  for (let i = 0; i < requests.length; i++) {
    const send = () => {
      const r = requests[i]!;
      const headers = new Headers(r.headers);
      if (!r.anonymous) headers.set("authorization", `Bearer ${caller.user.jwt}`);
      return app.handle(new Request(`http://shelf.test${r.path}`, { method: o.method, headers, body: r.body ?? null }));
    };
    let res = await send();
    sent++;
    if (res.status === 429 && !requests[i]!.anonymous) {
      caller = await newCaller(o);
      requests = build(caller);
      res = await send();
      sent++;
    }
    const problem = await judge(o, res);
    const r = requests[i]!;
    if (problem) failures.push(`${o.method} ${o.path} [${r.input}] ${r.path.slice(0, 160)}: ${problem}`);
  }
  expect(failures).toEqual([]);
  return sent;
}

/** Why an answer to a bad input breaks the rule (5xx, or an error outside the envelope); undefined when it keeps it. */
export async function judge(o: Operation, res: Response): Promise<string | undefined> {
  const text = await res.text();
  if (res.status >= 500) return `answered ${res.status}: ${text.slice(0, 300)}`;
  if (res.status < 400 || o.method === "HEAD" || o.op["x-html-page"]) return undefined;
  // An answer the document gives without a body (the edge's 416 Range Not Satisfiable).
  const documented = o.op.responses?.[String(res.status)];
  if (documented && !resolve(documented).content && text === "") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `answered ${res.status} with non-JSON: ${text.slice(0, 200)}`;
  }
  if (isEnvelope(body) || (o.op["x-rfc6749-errors"] && isOAuthError(body)) || (o.op["x-jsonrpc"] && isJsonRpcError(body))) return undefined;
  return `answered ${res.status} without the error envelope: ${text.slice(0, 300)}`;
}

/** A value the schema accepts, as far as a generic reading of it goes (enum, const, type, bounds). */
export function sample(schema: Json | undefined, name = ""): unknown {
  const s = resolve(schema ?? {});
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return sample(alt.find((a: Json) => resolve(a).type !== "null") ?? alt[0], name);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  switch (type) {
    case "string":
      if (s.format === "email") return "sweep@example.test";
      if (s.format === "uri") return "https://example.test/";
      if (s.format === "date-time") return "2026-01-01T00:00:00.000Z";
      return sampleString(s, name);
    case "integer":
    case "number":
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case "boolean":
      return true;
    case "array":
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items, name));
    case "object": {
      const out: Json = {};
      for (const name of (s.required as string[] | undefined) ?? []) out[name] = sample(s.properties?.[name], name);
      return out;
    }
    default:
      return null;
  }
}

/** The first candidate within the string's bounds and pattern: a file name where one is asked for, an id, a word. */
function sampleString(s: Json, name: string): string {
  const min = s.minLength ?? 1;
  const word = "ab".repeat(Math.ceil(min / 2)).slice(0, Math.max(1, min));
  const candidates = [name === "filename" ? "note.md" : undefined, "abcdefghijklmnopqrstu", word, "kb-sweep", "a"];
  const fits = (c: string) => c.length >= min && c.length <= (s.maxLength ?? Infinity) && (!s.pattern || new RegExp(s.pattern, "u").test(c));
  return candidates.find((c): c is string => c !== undefined && fits(c)) ?? word;
}
