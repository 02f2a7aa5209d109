// Who may start a flow: the first-party clients of the config, and registered clients
// that have not been rejected (a pending one may, users are shown it is unverified).
import { eq } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { isScope, SCOPES, type Scope } from "../../core/scopes.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { OAuthError } from "./errors.ts";
import { oauthClients } from "./table.ts";

export const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
/** First-party clients may start every flow the provider serves. */
const FIRST_PARTY_GRANTS = [DEVICE_GRANT, "authorization_code", "refresh_token"];

export interface Client {
  id: string;
  name: string;
  scopes: readonly Scope[];
  /** The grants it registered for (RFC 7591 grant_types). */
  grantTypes: readonly string[];
  /** Where the authorization code flow may return. */
  redirectUris: readonly string[];
  firstParty: boolean;
  /** A registered client not yet approved by an administrator. */
  unverified: boolean;
}

const CLIENT_ID_MAX = 128;

/** The client of `clientId` when it may use the provider, else undefined. */
export async function findClient(deps: Pick<Deps, "config">, db: DbOrTx, clientId: string): Promise<Client | undefined> {
  const first = deps.config.oauthClients.find((c) => c.id === clientId);
  if (first)
    return {
      id: first.id,
      name: first.name,
      scopes: first.scopes,
      grantTypes: FIRST_PARTY_GRANTS,
      redirectUris: first.redirectUris,
      firstParty: true,
      unverified: false,
    };
  // Not a registered id (ours are nanoids), and text the database cannot compare (NUL) never reaches it.
  if (clientId.length > CLIENT_ID_MAX || /\p{Cc}/u.test(clientId)) return undefined;
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, clientId));
  if (!row || row.status === "rejected") return undefined;
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes.filter(isScope),
    grantTypes: row.grantTypes,
    redirectUris: row.redirectUris,
    firstParty: false,
    unverified: row.status === "pending",
  };
}

/** 401 invalid_client unless `clientId` names a client that may use the provider. */
export async function requireClient(deps: Pick<Deps, "config" | "db">, clientId: string | undefined): Promise<Client> {
  if (!clientId) throw new OAuthError("invalid_request", "client_id is required");
  const client = await findClient(deps, deps.db, clientId);
  if (!client) throw new OAuthError("invalid_client", "unknown client");
  return client;
}

/**
 * 400 unauthorized_client unless the client registered for the grant that starts a flow.
 * A refresh token is usable by whichever client it was issued to, so refresh_token is not asked.
 */
export function assertGrantType(client: Client, grantType: string): void {
  if (!client.grantTypes.includes(grantType)) throw new OAuthError("unauthorized_client", `this client did not register for ${grantType}`);
}

/**
 * The scopes a request asks for (space-separated, RFC 6749 section 3.3), each one the
 * client may ask for; the client's own scopes when none are named. 400 invalid_scope else.
 */
export function requestedScopes(client: Pick<Client, "scopes">, scope: string | undefined, within: readonly string[] = client.scopes): Scope[] {
  if (scope === undefined || scope.trim() === "") return SCOPES.filter((s) => within.includes(s));
  const names = scope.split(" ").filter(Boolean);
  const bad = names.filter((n) => !isScope(n) || !within.includes(n));
  if (bad.length) throw new OAuthError("invalid_scope", `not available to this client: ${bad.slice(0, 5).join(" ").slice(0, 200)}`);
  return SCOPES.filter((s) => names.includes(s));
}

/**
 * A client as a listing shows it: its name, and whether it is unverified (a grant outlives a
 * client rejected or removed from the config: then its id, and unverified).
 */
export async function shownClient(deps: Pick<Deps, "config" | "db">, clientId: string): Promise<{ clientName: string; unverified: boolean }> {
  const client = await findClient(deps, deps.db, clientId);
  return { clientName: client?.name ?? clientId, unverified: client?.unverified ?? true };
}
