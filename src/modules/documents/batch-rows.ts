// Rows of the documents table written many at a time, in one statement whatever their
// number: the rows travel as one JSON parameter, read back by jsonb_to_recordset with the
// table's own column types. A sync batch writes its new rows and its replaced contents
// this way; a multi-row insert built by the query builder cost more to build than to
// run, and an update per row is a round trip per row. The text never changes, so the
// driver prepares it once.
import { getTableColumns, sql } from "drizzle-orm";
import type { Tx } from "../../infra/db/index.ts";
import { type DocumentRow, documents } from "./table.ts";

type Key = keyof DocumentRow;
const columns = Object.entries(getTableColumns(documents)).map(([key, c]) => ({ key: key as Key, name: `"${c.name}"`, type: c.getSQLType() }));
const record = `jsonb_to_recordset($1::jsonb) as r(${columns.map((c) => `${c.name} ${c.type}`).join(", ")})`;
const names = columns.map((c) => c.name).join(", ");

/** `$1` is where the rows go: the statement's text split around it, for drizzle's sql template. */
const statement = (text: string) => {
  const [head, tail] = text.split("$1");
  return (rows: DocumentRow[]) => sql`${sql.raw(head!)}${JSON.stringify(rows.map(asRecord))}${sql.raw(tail!)}`;
};
const asRecord = (row: DocumentRow) => Object.fromEntries(columns.map((c) => [c.name.slice(1, -1), row[c.key]]));

const insert = statement(`insert into documents (${names}) select ${names} from ${record}`);

/** New rows, every column given. */
export async function insertRows(tx: Tx, rows: DocumentRow[]): Promise<void> {
  if (rows.length) await tx.execute(insert(rows));
}

const updates = new Map<string, ReturnType<typeof statement>>();

/** Rows that exist, each set to the given values of `set` (by id). */
export async function updateRows(tx: Tx, rows: DocumentRow[], set: readonly Key[]): Promise<void> {
  if (!rows.length) return;
  const id = set.join();
  let update = updates.get(id);
  if (!update) {
    const assign = columns.filter((c) => set.includes(c.key)).map((c) => `${c.name} = r.${c.name}`);
    updates.set(id, (update = statement(`update documents d set ${assign.join(", ")} from ${record} where d.id = r.id`)));
  }
  await tx.execute(update(rows));
}
