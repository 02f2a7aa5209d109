// The operator's allow-list of CDN hosts (DOC_INVALID_PATTERN): images a document
// links on these hosts are expected, so they are counted without a warning.
import { asc } from "drizzle-orm";
import type { Deps } from "../../../core/deps.ts";
import { AppError } from "../../../core/errors.ts";
import type { DbOrTx } from "../../../infra/db/index.ts";
import { docCdnHosts } from "./table.ts";

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
/** A bare hostname, exact, or with a leading dot for it and its subdomains. */
const PATTERN = new RegExp(`^\\.?${LABEL}(?:\\.${LABEL})*$`);

/** `host` is on the list: an exact entry, or a ".suffix" entry it ends with (or equals without the dot). */
export function hostAllowed(host: string, patterns: readonly string[]): boolean {
  for (const p of patterns) {
    if (p.startsWith(".") ? host === p.slice(1) || host.endsWith(p) : host === p) return true;
  }
  return false;
}

/** The patterns, lower-cased and without repeats; 422 DOC_INVALID_PATTERN for the first bad one. */
function checkPatterns(patterns: readonly string[]): string[] {
  const out = new Set<string>();
  for (const [index, raw] of patterns.entries()) {
    const p = raw.trim().toLowerCase();
    if (p.length > 253 || !PATTERN.test(p)) {
      throw new AppError(
        "DOC_INVALID_PATTERN",
        "a CDN host must be a bare hostname (example.com), or one with a leading dot for its subdomains (.example.com): no protocol, port or path",
        {
          index,
          pattern: raw,
        },
      );
    }
    out.add(p);
  }
  return [...out].sort();
}

export async function listCdnHosts(db: DbOrTx): Promise<string[]> {
  const rows = await db.select().from(docCdnHosts).orderBy(asc(docCdnHosts.pattern));
  return rows.map((r) => r.pattern);
}

export async function replaceCdnHosts(deps: Deps, patterns: readonly string[]): Promise<string[]> {
  const list = checkPatterns(patterns);
  await deps.db.transaction(async (tx) => {
    await tx.delete(docCdnHosts);
    if (list.length) await tx.insert(docCdnHosts).values(list.map((pattern) => ({ pattern })));
  });
  return list;
}
