// A document's change as the webhooks' document.changed event, queued in the transaction of
// the change: every path that creates, replaces, moves or deletes a document row comes
// through row-changes.ts, kb-documents.ts, create.ts or trash.ts, which call it.
import type { DbOrTx } from "../../../infra/db/index.ts";
import { emitEvent } from "../../webhooks/public.ts";
import type { DocumentRow } from "./table.ts";

export type DocumentChange = "created" | "updated" | "moved" | "deleted";

type Described = Pick<DocumentRow, "id" | "ownerId" | "title" | "filename" | "format" | "kbId" | "relativePath">;

export async function documentChanged(tx: DbOrTx, doc: Described, change: DocumentChange, now: Date, extra: Record<string, unknown> = {}): Promise<void> {
  const data = { change, documentId: doc.id, title: doc.title, filename: doc.filename, format: doc.format, kbId: doc.kbId, path: doc.relativePath, ...extra };
  await emitEvent(tx, { ownerId: doc.ownerId, type: "document.changed", data }, now);
}
