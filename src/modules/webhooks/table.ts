import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

/** An address a user registered to be sent the events they chose, signed with the endpoint's secret. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    /** 21 characters. */
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** The event types it is sent (events.ts), at least one. */
    events: jsonb("events").$type<string[]>().notNull(),
    /** `whsec_` and the base64 key: shown once, when made or rotated; the deliverer signs with it. */
    secret: text("secret").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** Why it was disabled: by its owner, or after deliveries kept failing. */
    disabledReason: text("disabled_reason"),
    /** Deliveries given up in a row since the last one delivered; at the limit the endpoint is disabled. */
    failureCount: integer("failure_count").notNull().default(0),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [index("webhook_endpoints_owner_idx").on(t.ownerId, t.createdAt.desc(), t.id.desc())],
);
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/**
 * One event for one endpoint: its queue row and its log. The deliverer claims due pending
 * rows (nextAttemptAt moved past a lease, under a claim token), posts, and settles them:
 * delivered, retried after a backoff, or failed when its tries are used up. Each try's
 * answer (status, first KB of the body, duration, or why no answer) is kept on the row.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    ownerId: text("owner_id").notNull(),
    /** The `webhook-id` header: the same on every try, so a receiver can drop a repeat. */
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull(),
    claimToken: text("claim_token"),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    durationMs: integer("duration_ms"),
    /** Why the last try had no 2xx answer: refused address, timeout, a redirect, a status. */
    lastError: text("last_error"),
    createdAt: ts("created_at").notNull(),
    lastAttemptAt: ts("last_attempt_at"),
    deliveredAt: ts("delivered_at"),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt.desc(), t.id.desc()),
  ],
);
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
