// Scopes, shared by API keys and OAuth grants: what a route requires and a
// principal holds. Which scopes a credential gets is identity's business.
export const SCOPES = ["media.read", "media.write", "media.delete", "kb.read", "kb.write", "account.read", "usage.read"] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

/**
 * What a credential with each scope may do, as a person reads it: the consent page, the
 * device page and the dashboard's key form all show these words (GET /v1/api-keys/scopes).
 */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "media.read": "See your images, videos and audio and their details",
  "media.write": "Upload images, videos and audio, and change their titles and visibility",
  "media.delete": "Delete your images, videos and audio, and empty the trash for good",
  "kb.read": "Read your knowledge bases and documents",
  "kb.write": "Create, change and delete your documents and knowledge bases",
  "account.read": "See your profile: email address, nickname and plan",
  "usage.read": "See your quota and usage",
};
