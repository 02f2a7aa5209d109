// The oidc module's table: which account each identity at the instance's OpenID provider
// signs in to. Other modules reach it through the module's routes only.
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

/** One identity (issuer and subject) linked to one account; an account may have several. */
export const oidcIdentities = pgTable(
  "oidc_identities",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    /** The address the provider gave when the identity was linked, to tell identities apart in a list. */
    email: text("email"),
    createdAt: ts("created_at").notNull(),
    lastUsedAt: ts("last_used_at"),
  },
  (t) => [uniqueIndex("oidc_identities_subject_uq").on(t.issuer, t.subject), index("oidc_identities_user_idx").on(t.userId, t.createdAt.desc(), t.id.desc())],
);
