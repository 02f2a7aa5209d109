// The PGlite client drizzle is given: PGlite itself, except that `query` (and a
// transaction's `query`) runs each distinct SQL text as a named prepared statement, in one
// call into the engine.
//
// PGlite's own `query` parses and plans the text again on every call and makes six calls
// into WebAssembly for it (parse, describe, bind, describe, execute, sync), each with its
// own message parsing: ~0.6-1.3 ms for a 20-row page on this machine. Here the statement
// is parsed once per text (Parse + Describe on first use, kept), and every later call is
// one message (Bind, Describe, Execute, Sync): ~0.3 ms for the same page. Results are
// parsed by PGlite's own functions, with the same parsers and serializers, so rows, errors
// (DatabaseError with its code) and transactions behave as with PGlite's `query`.
import {
  messages as pgMessages,
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
  types as pgTypes,
} from "@electric-sql/pglite";

const { serialize } = protocol;

/** Prepared statements kept per database; the oldest is closed beyond this many. */
const MAX_STATEMENTS = 500;

/** The parts of PGlite this uses that its types do not show (public, underscored). */
interface PGliteInternals {
  parsers: Record<number, (value: string, typeId?: number) => unknown>;
  serializers: Record<number, (value: unknown) => string>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

interface Statement {
  name: string;
  paramTypes: number[];
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

type Parser = (value: string, typeId: number) => unknown;

// A value that begins with U+FEFF keeps it: the default decoder drops a leading byte order
// mark, which would change the text a client stored (and no longer match its hash).
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The backend messages of one Bind/Describe/Execute/Sync round, read straight from the
 * bytes the engine writes: the kinds that carry results (RowDescription, DataRow,
 * CommandComplete; the rest are skipped). PGlite's own parser (pg-protocol) copies every
 * message and field first: a third of the database's share of a list request. An error
 * is handed to that parser, so that it is the same DatabaseError PGlite throws.
 */
function readMessages(data: Uint8Array): Message[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const out: Message[] = [];
  let offset = 0;
  while (offset + 5 <= data.length) {
    const type = data[offset]!;
    const end = offset + 1 + view.getInt32(offset + 1);
    const start = offset + 5;
    if (type === 0x45 /* E */) throw databaseError(data);
    if (type === 0x54 /* T */) {
      const count = view.getInt16(start);
      const fields: { name: string; dataTypeID: number }[] = [];
      let p = start + 2;
      for (let i = 0; i < count; i++) {
        const nul = data.indexOf(0, p);
        const name = utf8.decode(data.subarray(p, nul));
        // table oid (4), column (2), type oid (4), size (2), modifier (4), format (2)
        fields.push({ name, dataTypeID: view.getInt32(nul + 7) });
        p = nul + 19;
      }
      out.push({ name: "rowDescription", fields });
    } else if (type === 0x44 /* D */) {
      const count = view.getInt16(start);
      const fields: (string | null)[] = new Array(count);
      let p = start + 2;
      for (let i = 0; i < count; i++) {
        const len = view.getInt32(p);
        p += 4;
        if (len < 0) fields[i] = null;
        else {
          fields[i] = utf8.decode(data.subarray(p, p + len));
          p += len;
        }
      }
      out.push({ name: "dataRow", fields });
    } else if (type === 0x43 /* C */) {
      out.push({ name: "commandComplete", text: utf8.decode(data.subarray(start, end - 1)) });
    }
    offset = end;
  }
  return out;
}

function databaseError(data: Uint8Array): Error {
  let error: Error | undefined;
  new protocol.Parser().parse(data, (message: unknown) => {
    if (!error && message instanceof pgMessages.DatabaseError) error = message;
  });
  return error ?? new Error("the embedded database answered with an error that could not be read");
}
interface Message {
  name: string;
  fields?: unknown[];
  text?: string;
}

/**
 * The first result set of `messages`, as PGlite's parseResults makes it (rows as arrays or
 * objects, affectedRows, command, rowCount), without its per-call copy of every parser
 * (it spreads PGlite's parsers, one per array type too, into a new object on each query
 * that brings parsers, as drizzle's always do: 18% of a list request's CPU). Each
 * column's parser is looked up once per result.
 */
function toResults<T>(messages: Message[], defaults: Record<number, Parser>, options: QueryOptions | undefined): Results<T> {
  const own = options?.parsers as Record<number, Parser> | undefined;
  const asArrays = options?.rowMode === "array";
  let fields: { name: string; dataTypeID: number }[] = [];
  let columnParsers: (Parser | undefined)[] = [];
  const rows: unknown[] = [];
  for (const message of messages) {
    if (message.name === "rowDescription") {
      fields = (message.fields as { name: string; dataTypeID: number }[]).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
      columnParsers = fields.map((f) => own?.[f.dataTypeID] ?? defaults[f.dataTypeID] ?? (pgTypes.parsers as Record<number, Parser>)[f.dataTypeID]);
    } else if (message.name === "dataRow") {
      const values = message.fields as (string | null)[];
      const parsed = values.map((v, i) => {
        if (v === null) return null;
        const parser = columnParsers[i];
        return parser ? parser(v, fields[i]!.dataTypeID) : v;
      });
      if (asArrays) rows.push(parsed);
      else {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < fields.length; i++) row[fields[i]!.name] = parsed[i];
        rows.push(row);
      }
    } else if (message.name === "commandComplete") {
      const parts = (message.text ?? "").split(" ");
      const command = parts[0]!;
      const rowCount = Number.parseInt(parts[parts.length - 1]!, 10);
      const counts = command === "INSERT" || command === "UPDATE" || command === "DELETE" || command === "COPY" || command === "MERGE";
      const result: Results<T> = { rows: rows as T[], fields, command, affectedRows: counts ? rowCount : 0 };
      if (!Number.isNaN(rowCount)) (result as { rowCount?: number }).rowCount = rowCount;
      return result;
    }
  }
  return { rows: rows as T[], fields, affectedRows: 0 };
}

export function preparedClient(pg: PGlite): PGlite {
  const internals = pg as unknown as PGliteInternals;
  const statements = new Map<string, Statement>();
  let counter = 0;

  /** Runs one statement; the caller holds the transaction mutex (or is inside a transaction). */
  const run = <T>(text: string, params: unknown[] = [], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> =>
    internals._runExclusiveQuery(async () => {
      try {
        let statement = statements.get(text);
        if (!statement) {
          const name = `shelf_${++counter}`;
          const parts = [serialize.parse({ name, text, types: options?.paramTypes }), serialize.describe({ type: "S", name }), serialize.sync()];
          let evicted: string | undefined;
          if (statements.size >= MAX_STATEMENTS) {
            const [oldestText, oldest] = statements.entries().next().value as [string, Statement];
            statements.delete(oldestText);
            evicted = oldest.name;
            parts.unshift(serialize.close({ type: "S", name: evicted }));
          }
          const { messages } = await pg.execProtocol(concat(parts), { syncToFs: false });
          statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
          statements.set(text, statement);
        }
        const types = statement.paramTypes;
        const values = params.map((param, i) => {
          if (param === null || param === undefined) return null;
          const oid = types[i]!;
          const serializer = options?.serializers?.[oid] ?? internals.serializers[oid];
          return serializer ? serializer(param) : String(param);
        });
        // The streaming call hands over the engine's output as it is written; execProtocolRaw
        // would also run it through pg-protocol's parser (copying every message) first.
        const chunks: Uint8Array[] = [];
        await pg.execProtocolRawStream(
          concat([
            serialize.bind({ statement: statement.name, values: values as string[] }),
            serialize.describe({ type: "P" }),
            serialize.execute({}),
            serialize.sync(),
          ]),
          { syncToFs: !inTransaction, onRawData: (bytes: Uint8Array) => void chunks.push(bytes.slice()) },
        );
        return toResults<T>(readMessages(chunks.length === 1 ? chunks[0]! : concat(chunks)), internals.parsers, options);
      } catch (e) {
        // As PGlite's own query: the error says which query and parameters failed.
        if (e && typeof e === "object" && "code" in e) Object.assign(e, { query: text, params, queryOptions: options });
        throw e;
      }
    });

  // Outside a transaction, a statement waits for any transaction in progress (as PGlite's).
  const query = <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> =>
    internals._runExclusiveTransaction(() => run<T>(text, params, options, false));

  const transaction = <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> =>
    pg.transaction((tx) =>
      callback(
        new Proxy(tx, {
          get(target, prop, receiver) {
            if (prop === "query")
              return <R>(text: string, params?: unknown[], options?: QueryOptions) => {
                if (target.closed) throw new Error("Transaction is closed");
                return run<R>(text, params, options, true);
              };
            return Reflect.get(target, prop, receiver);
          },
        }),
      ),
    );

  return new Proxy(pg, {
    get(target, prop) {
      if (prop === "query") return query;
      if (prop === "transaction") return transaction;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
