// The typebox models of the oidc module's JSON routes.
import { t } from "elysia";
import { Page } from "../../http/envelope.ts";

const LinkedIdentity = t.Object({
  id: t.String(),
  issuer: t.String({ description: "the provider (OIDC_ISSUER when it was linked)" }),
  subject: t.String({ description: "the account's identifier at the provider (the ID token's sub)" }),
  email: t.Nullable(t.String({ description: "the address the provider gave when it was linked" })),
  createdAt: t.String({ format: "date-time", description: "when it was linked" }),
  lastUsedAt: t.Nullable(t.String({ format: "date-time", description: "its latest sign-in" })),
});

export const IdentityPage = Page(LinkedIdentity);

export const IdentityListQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
});
