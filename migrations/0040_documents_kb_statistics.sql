-- The planner takes a document's owner and its KB as independent: asked for one KB's documents
-- of one owner, it guesses one row in a million where the KB holds a thousand, and then sorts
-- the whole KB for each page of its list, its manifest and its v2 pull instead of walking an
-- index in the asked order. A KB has one owner; these statistics tell the planner so.
CREATE STATISTICS IF NOT EXISTS "documents_owner_kb_stats" (dependencies, ndistinct) ON "owner_id", "kb_id" FROM "documents";--> statement-breakpoint
ANALYZE "documents";
