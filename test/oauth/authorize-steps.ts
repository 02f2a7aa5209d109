// Steps of the authorization code tests: a PKCE pair, an authorization request's query,
// a registered (pending) client, the fields of a page's form.
import { randomBytes } from "node:crypto";
import type { oauthApp } from "./flow.ts";

export const sha256Hex = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");

/** A verifier (random unless given) and its S256 challenge. */
export function pkce(verifier = randomBytes(32).toString("base64url")) {
  return { verifier, challenge: new Bun.CryptoHasher("sha256").update(verifier).digest("base64url") };
}

/** A valid request for shelf-sync with `challenge`; `extra` adds or replaces parameters. */
export const authorizeQuery = (challenge: string, extra: Record<string, string> = {}): Record<string, string> => ({
  response_type: "code",
  client_id: "shelf-sync",
  code_challenge: challenge,
  code_challenge_method: "S256",
  state: "xyz-state",
  ...extra,
});

/** POST /oauth/register: the new (pending) client's id. */
export async function registerClient(o: Awaited<ReturnType<typeof oauthApp>>, metadata: Record<string, unknown>): Promise<string> {
  const res = await o.call("POST", "/oauth/register", { app: o.app, json: metadata, headers: { "x-forwarded-for": o.ip() } });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { client_id: string }).client_id;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#96;": "`" };
const unescapeHtml = (s: string) => s.replace(/&(?:amp|lt|gt|quot|#39|#96);/g, (e) => ENTITIES[e]!);

/** The fields of the page's form `id` (its hidden inputs), as a browser would post them. */
export function formFields(page: string, id: string): Record<string, string> {
  const form = new RegExp(`<form [^>]*id="${id}"[^>]*>([\\s\\S]*?)</form>`).exec(page)?.[1];
  if (!form) throw new Error(`no form ${id} on the page: ${page.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const m of form.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[unescapeHtml(m[1]!)] = unescapeHtml(m[2]!);
  return fields;
}
