// The events a webhook endpoint may be sent, and their emission: in the transaction of the
// change they report (so an event is queued exactly when the change commits), one delivery
// row per enabled endpoint of the owner subscribed to its type. An owner without endpoints
// costs one lookup on the owner index per transaction: a sync batch of 200 documents looks
// once, and its transaction keeps the answer.
import { and, eq, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import { newId } from "../../infra/ids.ts";
import { webhookDeliveries, webhookEndpoints } from "./table.ts";

export const EVENT_TYPES = ["upload.completed", "video.ready", "video.failed", "document.changed", "kb.conflict", "quota.threshold"] as const;
type EventType = (typeof EVENT_TYPES)[number];
/** Sent by POST /v1/webhooks/endpoints/{id}/test only; no endpoint subscribes to it. */
export const TEST_EVENT = "webhook.test";

export interface WebhookEvent {
  ownerId: string;
  type: EventType;
  data: Record<string, unknown>;
}

/** The body every receiver is posted: `{ type, timestamp, data }`. */
export const envelopeOf = (type: string, data: Record<string, unknown>, now: Date) => ({ type, timestamp: now.toISOString(), data });

type Subscribed = { id: string; events: string[] }[];
/** The endpoints each owner had when a transaction first looked; dropped with the transaction. */
const seenIn = new WeakMap<object, Map<string, Subscribed>>();

// Asked in every write transaction of media and documents: prepared, as the hot queries are.
const enabledOfOwner = (db: DbOrTx) =>
  db
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.ownerId, sql.placeholder("ownerId")), eq(webhookEndpoints.enabled, true)))
    .prepare("webhook_endpoints_enabled_of_owner");

async function endpointsOf(db: DbOrTx, ownerId: string): Promise<Subscribed> {
  const memo = db instanceof PgTransaction ? (seenIn.get(db) ?? seenIn.set(db, new Map()).get(db)!) : undefined;
  const known = memo?.get(ownerId);
  if (known) return known;
  const found = await prepared(db, "webhook_endpoints_enabled_of_owner", enabledOfOwner).execute({ ownerId });
  memo?.set(ownerId, found);
  return found;
}

/** Queues each event for its owner's enabled endpoints subscribed to its type, in the caller's transaction. */
export async function emitEvents(db: DbOrTx, events: readonly WebhookEvent[], now: Date): Promise<void> {
  const owners = [...new Set(events.map((e) => e.ownerId))];
  const rows: (typeof webhookDeliveries.$inferInsert)[] = [];
  for (const ownerId of owners) {
    const endpoints = await endpointsOf(db, ownerId);
    if (!endpoints.length) continue;
    for (const e of events) {
      if (e.ownerId !== ownerId) continue;
      const eventId = `msg_${newId()}`;
      const payload = envelopeOf(e.type, e.data, now);
      for (const ep of endpoints) {
        if (!ep.events.includes(e.type)) continue;
        rows.push({ id: newId(), endpointId: ep.id, ownerId, eventId, type: e.type, payload, nextAttemptAt: now, createdAt: now });
      }
    }
  }
  if (rows.length) await db.insert(webhookDeliveries).values(rows);
}

/** One event; see emitEvents. */
export const emitEvent = (db: DbOrTx, event: WebhookEvent, now: Date) => emitEvents(db, [event], now);
