// The first-party OAuth clients: pre-approved, no registration. Operators may rename them
// or change their ids, scopes and redirect URIs with OAUTH_FIRST_PARTY_CLIENTS. `agent` is
// the one an MCP client is configured with when it should not wait for an administrator to
// approve its dynamic registration (a pre-registered client, in the MCP specification's words).
// They are desktop apps: their code flow returns to a loopback listener (RFC 8252 section
// 7.3), whose port the authorization endpoint lets the app pick at each request.
// src/config.ts reads this file at load (OAUTH_FIRST_PARTY_CLIENTS), so it imports no other
// file of the module.
import { Type as T } from "@sinclair/typebox";
import { SCOPES, type Scope } from "../../core/scopes.ts";

export interface FirstPartyClient {
  id: string;
  name: string;
  scopes: readonly Scope[];
  /** Where the authorization code flow may return (exact match; any port on a loopback IP). */
  redirectUris: readonly string[];
}

const LOOPBACK_REDIRECTS = ["http://127.0.0.1/oauth/callback", "http://[::1]/oauth/callback"];

const DEFAULT_FIRST_PARTY_CLIENTS = {
  sync: { id: "shelf-sync", name: "Shelf Sync", scopes: ["media.read", "media.write", "kb.read", "kb.write"], redirectUris: LOOPBACK_REDIRECTS },
  media: { id: "shelf-media", name: "Shelf Media", scopes: ["media.read", "media.write"], redirectUris: LOOPBACK_REDIRECTS },
  agent: {
    id: "shelf-agent",
    name: "Shelf Agent",
    scopes: ["kb.read", "kb.write", "media.read", "media.write", "usage.read"],
    redirectUris: LOOPBACK_REDIRECTS,
  },
} as const satisfies Record<string, FirstPartyClient>;
type Slot = keyof typeof DEFAULT_FIRST_PARTY_CLIENTS;

const Override = T.Object(
  {
    id: T.Optional(T.String({ pattern: "^[A-Za-z0-9._-]{1,64}$" })),
    name: T.Optional(T.String({ minLength: 1, maxLength: 100 })),
    scopes: T.Optional(T.Array(T.Union(SCOPES.map((s) => T.Literal(s))), { minItems: 1, uniqueItems: true })),
    // https, or http on the loopback; no fragment, no spaces (the rules of registration).
    redirectUris: T.Optional(
      T.Array(T.String({ maxLength: 2000, pattern: "^(https://[^/?#\\s]+|http://(127\\.0\\.0\\.1|\\[::1\\]|localhost)(:[0-9]{1,5})?)(/[^#\\s]*)?$" }), {
        maxItems: 10,
        uniqueItems: true,
      }),
    ),
  },
  { additionalProperties: false },
);
export const FirstPartyClientsSchema = T.Partial(T.Object({ sync: Override, media: Override, agent: Override }), { additionalProperties: false });

/** The defaults with the overrides of OAUTH_FIRST_PARTY_CLIENTS (already validated) on top; throws when two share an id. */
export function buildFirstPartyClients(overrides: Partial<Record<Slot, Partial<FirstPartyClient>>> = {}): readonly FirstPartyClient[] {
  const clients = (Object.keys(DEFAULT_FIRST_PARTY_CLIENTS) as Slot[]).map((slot) => ({ ...DEFAULT_FIRST_PARTY_CLIENTS[slot], ...overrides[slot] }));
  if (new Set(clients.map((c) => c.id)).size !== clients.length) throw new Error("the first-party clients need different ids");
  return Object.freeze(clients.map((c) => Object.freeze({ ...c, scopes: Object.freeze([...c.scopes]), redirectUris: Object.freeze([...c.redirectUris]) })));
}
