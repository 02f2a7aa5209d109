// Rows of the documents table written many at a time, in one statement whatever their
// number: the rows travel as one JSON parameter, read back by jsonb_to_recordset with the
// table's own column types. A sync batch writes its new rows and its replaced contents
// this way; a multi-row insert built by the query builder cost more to build than to
// run, and an update per row is a round trip per row. The text never changes, so the
// driver prepares it once.
import { sql } from "drizzle-orm";
import type { Tx } from "../../../infra/db/index.ts";
import { type DocumentRow, docColumns } from "./table.ts";

type Key = keyof DocumentRow;
type Column = { key: Key; name: string; type: string };
// A row's columns: not the generated search vector, which no statement may write.
const columns: Column[] = Object.entries(docColumns).map(([key, c]) => ({ key: key as Key, name: c.name, type: c.getSQLType() }));
const quoted = (cs: readonly Column[]) => cs.map((c) => `"${c.name}"`).join(", ");
const recordOf = (cs: readonly Column[]) => `jsonb_to_recordset($1::jsonb) as r(${cs.map((c) => `"${c.name}" ${c.type}`).join(", ")})`;

/** A statement of the rows' `cs` columns; `$1` in its text is where they go (drizzle's sql template is given the text around it). */
const statement = (cs: readonly Column[], text: string) => {
  const [head, tail] = text.split("$1");
  const asRecord = (row: DocumentRow) => Object.fromEntries(cs.map((c) => [c.name, row[c.key]]));
  return (rows: DocumentRow[]) => sql`${sql.raw(head!)}${JSON.stringify(rows.map(asRecord))}${sql.raw(tail!)}`;
};

const insert = statement(columns, `insert into documents (${quoted(columns)}) select ${quoted(columns)} from ${recordOf(columns)}`);

/** New rows, every column given. */
export async function insertRows(tx: Tx, rows: DocumentRow[]): Promise<void> {
  if (rows.length) await tx.execute(insert(rows));
}

const updates = new Map<string, ReturnType<typeof statement>>();

/** Rows that exist, each set to its values of the columns `set` (by id). */
export async function updateRows(tx: Tx, rows: DocumentRow[], set: readonly Key[]): Promise<void> {
  if (!rows.length) return;
  const name = set.join();
  let update = updates.get(name);
  if (!update) {
    const cs = columns.filter((c) => c.key === "id" || set.includes(c.key));
    const assign = cs.filter((c) => c.key !== "id").map((c) => `"${c.name}" = r."${c.name}"`);
    updates.set(name, (update = statement(cs, `update documents d set ${assign.join(", ")} from ${recordOf(cs)} where d.id = r.id`)));
  }
  await tx.execute(update(rows));
}
