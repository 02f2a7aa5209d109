// Scopes (SPEC 5.8), shared by API keys and OAuth grants, and the legacy key tiers.
export const SCOPES = ["media.read", "media.write", "media.delete", "kb.read", "kb.write", "account.read", "usage.read"] as const;
export type Scope = (typeof SCOPES)[number];

/** A new key gets every *.read and *.write scope, not media.delete. */
export const DEFAULT_KEY_SCOPES: readonly Scope[] = SCOPES.filter((s) => s !== "media.delete");

const READ: Scope[] = ["media.read", "kb.read", "account.read", "usage.read"];
/** Keys made before scopes existed carry one of three tiers, expanded here. */
export const LEGACY_TIERS: Readonly<Record<string, readonly Scope[]>> = {
  read: READ,
  read_write: [...READ, "media.write", "kb.write"],
  read_write_delete: [...READ, "media.write", "kb.write", "media.delete"],
};

export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

/** Expands legacy tiers and de-duplicates, in SCOPES order; returns the unknown names too. */
export function normalizeScopes(requested: readonly string[]): { scopes: Scope[]; unknown: string[] } {
  const set = new Set<Scope>();
  const unknown: string[] = [];
  for (const name of requested) {
    if (isScope(name)) set.add(name);
    else if (LEGACY_TIERS[name]) for (const s of LEGACY_TIERS[name]) set.add(s);
    else unknown.push(name);
  }
  return { scopes: SCOPES.filter((s) => set.has(s)), unknown };
}
