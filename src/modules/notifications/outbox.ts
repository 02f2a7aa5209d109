// Writing to the outbox: a message is a row in the caller's transaction, so it is queued
// exactly when what it reports is committed.
import type { DbOrTx } from "../../infra/db/index.ts";
import { newId } from "../../infra/ids.ts";
import { outbox } from "./table.ts";

interface Message {
  kind: string;
  userId: string;
  payload: Record<string, unknown>;
}

/** Queues messages for delivery, in the transaction of the change they report. */
export async function enqueue(db: DbOrTx, messages: readonly Message[], now: Date): Promise<void> {
  if (!messages.length) return;
  await db.insert(outbox).values(messages.map((m) => ({ id: newId(), kind: m.kind, userId: m.userId, payload: m.payload, createdAt: now })));
}
