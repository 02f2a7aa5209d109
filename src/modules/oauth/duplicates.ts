// Registrations that repeat an earlier one. Each registration is a client of its own (RFC
// 7591 gives every request a new client_id, and the registrant needs the one it got), so a
// client that registers again on every start (a test run, an app that lost its client_id)
// adds an entry identical to one the administrator already has to decide on. The queue
// names the earliest such client that is not rejected, so the copies can be told apart
// from new apps and refused.
import { and, inArray, ne } from "drizzle-orm";
import type { DbOrTx } from "../../infra/db/index.ts";
import { iso } from "../../infra/clock.ts";
import { oauthClients } from "./table.ts";

type Row = typeof oauthClients.$inferSelect;
type Registration = Pick<Row, "id" | "name" | "redirectUris" | "grantTypes" | "scopes" | "status" | "createdAt">;

/** The earlier client a registration repeats, as the queue shows it. */
export interface DuplicateOf {
  id: string;
  status: "pending" | "approved";
  createdAt: string;
}

/**
 * Everything the registration said, as one comparable value: the same name, redirect URIs,
 * grant types and scopes, each list in any order. What an administrator sees of two such
 * clients is the same, so refusing one of them loses nothing.
 */
const said = (r: Registration) =>
  JSON.stringify([r.name, [...new Set(r.redirectUris)].sort(), [...new Set(r.grantTypes)].sort(), [...new Set(r.scopes)].sort()]);

/** Registration order, compared here rather than by the database's collation of ids. */
const before = (a: Registration, b: Registration) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** For each of `rows` that repeats an earlier client that is not rejected, the earliest one. */
export async function duplicatesOf(db: DbOrTx, rows: readonly Registration[]): Promise<Map<string, DuplicateOf>> {
  const found = new Map<string, DuplicateOf>();
  if (rows.length === 0) return found;
  const candidates: Registration[] = await db
    .select({
      id: oauthClients.id,
      name: oauthClients.name,
      redirectUris: oauthClients.redirectUris,
      grantTypes: oauthClients.grantTypes,
      scopes: oauthClients.scopes,
      status: oauthClients.status,
      createdAt: oauthClients.createdAt,
    })
    .from(oauthClients)
    .where(and(inArray(oauthClients.name, [...new Set(rows.map((r) => r.name))]), ne(oauthClients.status, "rejected")));
  const earliest = new Map<string, Registration>();
  for (const c of candidates.sort(before)) if (!earliest.has(said(c))) earliest.set(said(c), c);
  for (const r of rows) {
    const first = earliest.get(said(r));
    if (first && before(first, r) < 0)
      found.set(r.id, { id: first.id, status: first.status === "approved" ? "approved" : "pending", createdAt: iso(first.createdAt) });
  }
  return found;
}
