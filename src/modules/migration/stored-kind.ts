// Import archives as the operator work sees them (usage StoredKind): one object per import
// waiting or running, at migrations/<owner>/<id>.zip, named by its row until the import
// ends and removes it. Counted in no quota. One a worker left behind (killed between its
// end and the delete), and a video staged for its pipeline by a worker killed meanwhile,
// are no row's, and the orphan sweep removes them.
import { and, gt, inArray, isNotNull } from "drizzle-orm";
import type { StoredKind } from "../usage/public.ts";
import { migrations } from "./table.ts";

export const storedMigrations: StoredKind = {
  name: "migrations",
  prefix: "migrations/",
  async referenced(db, keys) {
    if (!keys.length) return new Set();
    const rows = await db
      .select({ k: migrations.objectKey })
      .from(migrations)
      .where(inArray(migrations.objectKey, [...keys]));
    return new Set(rows.flatMap((r) => (r.k ? [r.k] : [])));
  },
  async namedKeys(db, after, limit) {
    const rows = await db
      .select({ k: migrations.objectKey })
      .from(migrations)
      .where(and(isNotNull(migrations.objectKey), after === null ? undefined : gt(migrations.objectKey, after)))
      .orderBy(migrations.objectKey)
      .limit(limit);
    const keys = rows.flatMap((r) => (r.k ? [r.k] : []));
    return { keys, next: keys.length === limit ? keys.at(-1)! : null };
  },
  recount: async () => new Map(),
};
