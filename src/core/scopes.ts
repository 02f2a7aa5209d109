// Scopes, shared by API keys and OAuth grants: what a route requires and a
// principal holds. Which scopes a credential gets is identity's business.
export const SCOPES = ["media.read", "media.write", "media.delete", "kb.read", "kb.write", "account.read", "usage.read"] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);
