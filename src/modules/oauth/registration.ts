// Dynamic client registration (RFC 7591) and the approval queue. A registered client is
// pending until an administrator decides: a pending client may start flows (users are
// told it is unverified), a rejected one may not, and rejecting revokes its grants. The
// queue names the earlier client a registration repeats (duplicates.ts).
import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { keysetPage } from "../../core/cursor.ts";
import { AppError, notFound } from "../../core/errors.ts";
import { isScope, SCOPES, type Scope } from "../../core/scopes.ts";
import { hasInvisibleInIdentifier, mixesScripts } from "../../core/text.ts";
import { iso, isoOrNull } from "../../infra/clock.ts";
import { newId } from "../../infra/ids.ts";
import { DEVICE_GRANT } from "./clients.ts";
import { type DuplicateOf, duplicatesOf } from "./duplicates.ts";
import { OAuthError } from "./errors.ts";
import { revokeClientGrants } from "./service.ts";
import { oauthClients } from "./table.ts";

const MAX_REDIRECT_URIS = 10;
const MAX_REDIRECT_URI_LENGTH = 2000;
const MAX_NAME_LENGTH = 100;
/** Registrations per client address and hour. */
const REGISTRATIONS_PER_IP_HOUR = 10;
const REGISTRATION_WINDOW_MS = 3_600_000;

const GRANT_TYPES = ["authorization_code", "refresh_token", DEVICE_GRANT] as const;
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

const metadataError = (description: string) => new OAuthError("invalid_client_metadata", description);
const redirectError = (description: string) => new OAuthError("invalid_redirect_uri", description);

/** https anywhere, http only on the loopback (RFC 8252 section 7.3), never a fragment. */
function checkRedirectUri(uri: unknown, i: number): string {
  if (typeof uri !== "string") throw redirectError(`redirect_uris[${i}] must be a string`);
  if (uri.length > MAX_REDIRECT_URI_LENGTH) throw redirectError(`redirect_uris[${i}] is longer than ${MAX_REDIRECT_URI_LENGTH} characters`);
  // Compared character for character at the authorization endpoint: no spaces or controls the parser would quietly drop.
  if (/[\s\p{Cc}]/u.test(uri)) throw redirectError(`redirect_uris[${i}] may not hold spaces or control characters`);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw redirectError(`redirect_uris[${i}] is not an absolute URI`);
  }
  if (uri.includes("#")) throw redirectError(`redirect_uris[${i}] may not have a fragment`);
  if (url.protocol === "https:") return uri;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return uri;
  throw redirectError(`redirect_uris[${i}] must be https, or http on the loopback (127.0.0.1, [::1], localhost)`);
}

export interface RegistrationInput {
  clientName: string;
  redirectUris: string[];
  grantTypes: string[];
  scopes: Scope[];
}

/** The RFC 7591 metadata of a request body, checked; OAuthError invalid_client_metadata or invalid_redirect_uri else. */
export function parseRegistration(body: unknown): RegistrationInput {
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw metadataError("the body must be a JSON object of client metadata");
  const m = body as Record<string, unknown>;
  const name = m.client_name;
  if (typeof name !== "string" || !name.trim() || name.length > MAX_NAME_LENGTH || hasInvisibleInIdentifier(name)) {
    // The name is shown to users on the consent and device pages, where they decide whom
    // to trust: a bidi control or an invisible character there would make "Notes App" read
    // as something else, or two names read the same, as in any other name (text.ts).
    throw metadataError(`client_name is required: 1 to ${MAX_NAME_LENGTH} characters, no control, bidi control or invisible characters`);
  }
  // A look-alike of a known name: "Shеlf Sync" with a Cyrillic е.
  if (mixesScripts(name)) {
    throw metadataError("client_name may not mix scripts: its letters come from one script, or Latin with Han, Hiragana, Katakana, Bopomofo or Hangul");
  }
  const grantTypes = m.grant_types ?? ["authorization_code", "refresh_token"];
  if (!Array.isArray(grantTypes) || !grantTypes.length || grantTypes.some((g) => !(GRANT_TYPES as readonly unknown[]).includes(g))) {
    throw metadataError(`grant_types must be a list of: ${GRANT_TYPES.join(", ")}`);
  }
  const uris = m.redirect_uris ?? [];
  if (!Array.isArray(uris)) throw redirectError("redirect_uris must be a list");
  if (uris.length > MAX_REDIRECT_URIS) throw redirectError(`at most ${MAX_REDIRECT_URIS} redirect_uris`);
  const redirectUris = uris.map(checkRedirectUri);
  if (grantTypes.includes("authorization_code") && !redirectUris.length) throw redirectError("the authorization_code grant needs at least one redirect URI");
  if (m.token_endpoint_auth_method !== undefined && m.token_endpoint_auth_method !== "none") {
    throw metadataError("token_endpoint_auth_method must be none: clients are public, with no secret");
  }
  let scopes: Scope[] = SCOPES.filter((s) => s !== "media.delete");
  if (m.scope !== undefined) {
    if (typeof m.scope !== "string") throw metadataError("scope must be a space-separated string");
    const names = m.scope.split(" ").filter(Boolean);
    const unknown = names.filter((n) => !isScope(n));
    if (!names.length || unknown.length) throw metadataError(`scope must name known scopes: ${SCOPES.join(" ")}`);
    scopes = SCOPES.filter((s) => names.includes(s));
  }
  return { clientName: name.trim(), redirectUris: [...new Set(redirectUris)], grantTypes: [...new Set(grantTypes as string[])], scopes };
}

/** Counts a registration from `ip`; 429 OAUTH_CLIENT_RATE_LIMITED over the hourly limit, 503 when it cannot count. */
export async function countRegistration(deps: Deps, ip: string): Promise<void> {
  let n: number;
  try {
    n = await deps.kv.incr(`oauth-register:ip:${ip}`, 1, REGISTRATION_WINDOW_MS);
  } catch {
    throw new OAuthError("temporarily_unavailable", "registration is briefly unavailable; try again shortly", 503, "SERVICE_UNAVAILABLE", {
      "retry-after": "30",
    });
  }
  if (n > REGISTRATIONS_PER_IP_HOUR) {
    throw new OAuthError(
      "temporarily_unavailable",
      `at most ${REGISTRATIONS_PER_IP_HOUR} registrations per address and hour`,
      429,
      "OAUTH_CLIENT_RATE_LIMITED",
      { "retry-after": String(REGISTRATION_WINDOW_MS / 1000) },
    );
  }
}

export async function registerClient(deps: Deps, input: RegistrationInput) {
  const now = deps.clock.now();
  const id = newId();
  await deps.db.insert(oauthClients).values({
    id,
    name: input.clientName,
    redirectUris: input.redirectUris,
    grantTypes: input.grantTypes,
    scopes: input.scopes,
    status: "pending",
    createdAt: now,
  });
  return {
    client_id: id,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    client_name: input.clientName,
    redirect_uris: input.redirectUris,
    grant_types: input.grantTypes,
    token_endpoint_auth_method: "none" as const,
    scope: input.scopes.join(" "),
    approval_status: "pending" as const,
  };
}

type Row = typeof oauthClients.$inferSelect;
const toAdminItem = (r: Row, duplicateOf: DuplicateOf | undefined) => ({
  id: r.id,
  name: r.name,
  redirectUris: r.redirectUris,
  grantTypes: r.grantTypes,
  scopes: r.scopes.filter(isScope),
  status: r.status,
  createdAt: iso(r.createdAt),
  decidedAt: isoOrNull(r.decidedAt),
  duplicateOf: duplicateOf ?? null,
});

/** Clients as the queue shows them: each with the earlier client it repeats, if any (duplicates.ts). */
async function adminItems(deps: Deps, rows: Row[]) {
  const duplicates = await duplicatesOf(deps.db, rows);
  return rows.map((r) => toAdminItem(r, duplicates.get(r.id)));
}

/** The approval queue: registered clients of one status, newest first. */
export async function listClients(deps: Deps, q: { status: Row["status"]; cursor?: string; limit: number }) {
  const page = await keysetPage(
    deps.db,
    {
      from: oauthClients,
      shape: "status",
      where: () => eq(oauthClients.status, sql.placeholder("status")),
      params: { status: q.status },
      sort: ["createdAt", "id"],
      cursor: q.cursor,
      limit: q.limit,
    },
    (r: Row) => r,
  );
  return { items: await adminItems(deps, page.items), nextCursor: page.nextCursor };
}

/** An administrator approves or rejects a pending client; rejecting an approved one withdraws it (and its grants). */
export async function decideClient(deps: Deps, id: string, status: "approved" | "rejected") {
  const [row] = await deps.db.select().from(oauthClients).where(eq(oauthClients.id, id));
  if (!row) throw notFound("oauth_client");
  if (row.status === status) return (await adminItems(deps, [row]))[0]!;
  if (row.status === "rejected") throw new AppError("CONFLICT", "a rejected client stays rejected; it may register again", { reason: "rejected" });
  const [updated] = await deps.db
    .update(oauthClients)
    .set({ status, decidedAt: deps.clock.now() })
    .where(and(eq(oauthClients.id, id), eq(oauthClients.status, row.status)))
    .returning();
  if (!updated) throw new AppError("CONFLICT", "the client was decided meanwhile", { reason: "decided" });
  if (status === "rejected") await revokeClientGrants(deps, id);
  return (await adminItems(deps, [updated]))[0]!;
}
