// Export archives as the operator work sees them (usage StoredKind): one object per ready
// export at exports/<owner>/<id>.zip, named by its row. Counted in no quota: an archive is
// a copy of what the account already counts, and it expires. An archive left by a worker
// killed while writing it (or whose delete failed) is no row's, and the orphan sweep
// removes it; on S3 so are the parts of its multipart upload left unfinished.
import { gt, inArray, isNotNull, and } from "drizzle-orm";
import type { StoredKind } from "../usage/public.ts";
import { accountExports } from "./table.ts";

export const storedExports: StoredKind = {
  name: "exports",
  prefix: "exports/",
  async referenced(db, keys) {
    if (!keys.length) return new Set();
    const rows = await db
      .select({ k: accountExports.objectKey })
      .from(accountExports)
      .where(inArray(accountExports.objectKey, [...keys]));
    return new Set(rows.flatMap((r) => (r.k ? [r.k] : [])));
  },
  async namedKeys(db, after, limit) {
    const rows = await db
      .select({ k: accountExports.objectKey })
      .from(accountExports)
      .where(and(isNotNull(accountExports.objectKey), after === null ? undefined : gt(accountExports.objectKey, after)))
      .orderBy(accountExports.objectKey)
      .limit(limit);
    const keys = rows.flatMap((r) => (r.k ? [r.k] : []));
    return { keys, next: keys.length === limit ? keys.at(-1)! : null };
  },
  recount: async () => new Map(),
};
