// The deliverer: posts queued events to their endpoints, signed as Standard Webhooks says
// (webhook-id, webhook-timestamp, webhook-signature), through safe-fetch: no redirect is
// followed (a 3xx is a failure like a 5xx) and, unless the operator allows them, no private,
// loopback or link-local address is connected to, whatever the name resolves to at the
// moment of the try. Claims work as the notifications outbox does (FOR UPDATE SKIP LOCKED,
// a lease, a claim token that alone may settle the row). A 2xx delivers; anything else is
// tried again after a backoff, and after the last try the delivery fails; after
// FAILURES_TO_DISABLE deliveries failed in a row the endpoint is disabled and its owner told.
import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { Deps } from "../../core/deps.ts";
import { newId } from "../../infra/ids.ts";
import { type SafeFetchOptions, safeFetch, UrlRefused } from "../../infra/safe-fetch.ts";
import { VERSION } from "../../infra/version.ts";
import { notify } from "../notifications/public.ts";
import { webhookDeliveries, type WebhookDeliveryRow, webhookEndpoints } from "./table.ts";

const LEASE_MS = 2 * 60_000;
const BATCH = 10;
/** A receiver should answer at once and do its work later. */
const TIMEOUT_MS = 15_000;
/** What is kept of a receiver's answer. */
const EXCERPT_BYTES = 1024;
/** Tries of one delivery: the waits between them add up to about 17 hours. */
export const MAX_ATTEMPTS = 8;
/** Deliveries given up in a row (none delivered between them) before the endpoint is disabled. */
export const FAILURES_TO_DISABLE = 3;
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 12 * 3_600_000;

/** The wait after the n-th failed try: 5 s, 25 s, 2 min, 10 min, 52 min, 4.3 h, then 12 h. */
export const retryDelayMs = (attempts: number) => Math.min(FIRST_RETRY_MS * 5 ** Math.max(0, attempts - 1), MAX_RETRY_MS);

export type DeliverDeps = Pick<Deps, "db" | "clock" | "config" | "log">;
/** A test's resolver and fetch (safe-fetch's own injection points). */
export type NetOptions = Pick<SafeFetchOptions, "lookup" | "fetchImpl">;

export interface Delivered {
  delivered: number;
  retried: number;
  failed: number;
}

async function claim(deps: DeliverDeps, token: string): Promise<WebhookDeliveryRow[]> {
  const now = deps.clock.now();
  const due = deps.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.nextAttemptAt, now)))
    .orderBy(webhookDeliveries.nextAttemptAt, webhookDeliveries.createdAt)
    .limit(BATCH)
    .for("update", { skipLocked: true });
  return deps.db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + LEASE_MS), claimToken: token })
    .where(inArray(webhookDeliveries.id, due))
    .returning();
}

interface Answer {
  status: number | null;
  body: string | null;
  durationMs: number;
  error: string | null;
}

/** One signed POST, and what came of it. */
async function post(deps: DeliverDeps, to: { url: string; secret: string }, msg: { eventId: string; payload: unknown }, net: NetOptions = {}): Promise<Answer> {
  const body = JSON.stringify(msg.payload);
  const at = deps.clock.now();
  const signature = new Webhook(to.secret.replace(/^whsec_/, "")).sign(msg.eventId, at, body);
  const began = performance.now();
  try {
    const got = await safeFetch(to.url, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "webhook-id": msg.eventId,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": signature,
      },
      maxBytes: EXCERPT_BYTES,
      timeoutMs: TIMEOUT_MS,
      maxRedirects: 0,
      anyAnswer: true,
      allowPrivate: deps.config.WEBHOOKS_ALLOW_PRIVATE,
      userAgent: `shelf/${VERSION} (webhooks)`,
      ...net,
    });
    const ok = got.status >= 200 && got.status <= 299;
    const error = ok ? null : got.status >= 300 && got.status <= 399 ? `answered ${got.status}: redirects are not followed` : `answered ${got.status}`;
    return { status: got.status, body: new TextDecoder().decode(got.bytes), durationMs: Math.round(performance.now() - began), error };
  } catch (e) {
    const error = e instanceof UrlRefused ? e.message : "the request failed";
    return { status: null, body: null, durationMs: Math.round(performance.now() - began), error };
  }
}

async function deliverOne(deps: DeliverDeps, row: WebhookDeliveryRow, token: string, net: NetOptions): Promise<keyof Delivered | null> {
  const [endpoint] = await deps.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, row.endpointId));
  if (!endpoint) return null; // deleted meanwhile: its deliveries went with it
  const held = and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.claimToken, token));
  if (!endpoint.enabled) {
    // Disabled since it was queued: given back untried, kept in the log as failed.
    await deps.db.update(webhookDeliveries).set({ status: "failed", claimToken: null, lastError: "the endpoint is disabled" }).where(held);
    return "failed";
  }
  const answer = await post(deps, endpoint, row, net);
  const now = deps.clock.now();
  const seen = {
    responseStatus: answer.status,
    responseBody: answer.body,
    durationMs: answer.durationMs,
    lastError: answer.error,
    lastAttemptAt: now,
    claimToken: null,
  };
  if (answer.error === null) {
    await deps.db.transaction(async (tx) => {
      await tx
        .update(webhookDeliveries)
        .set({ ...seen, status: "delivered", deliveredAt: now })
        .where(held);
      await tx.update(webhookEndpoints).set({ failureCount: 0 }).where(eq(webhookEndpoints.id, endpoint.id));
    });
    return "delivered";
  }
  if (row.attempts < MAX_ATTEMPTS) {
    await deps.db
      .update(webhookDeliveries)
      .set({ ...seen, nextAttemptAt: new Date(now.getTime() + retryDelayMs(row.attempts)) })
      .where(held);
    deps.log.warn("webhook not delivered; will retry", { deliveryId: row.id, endpointId: endpoint.id, attempts: row.attempts, error: answer.error });
    return "retried";
  }
  await deps.db.transaction(async (tx) => {
    const settled = await tx
      .update(webhookDeliveries)
      .set({ ...seen, status: "failed" })
      .where(held)
      .returning({ id: webhookDeliveries.id });
    if (!settled.length) return;
    const [ep] = await tx
      .update(webhookEndpoints)
      .set({ failureCount: sql`${webhookEndpoints.failureCount} + 1` })
      .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.enabled, true)))
      .returning();
    if (!ep || ep.failureCount < FAILURES_TO_DISABLE) return;
    const reason = `${ep.failureCount} deliveries in a row failed after ${MAX_ATTEMPTS} tries each (the last: ${answer.error})`;
    await tx.update(webhookEndpoints).set({ enabled: false, disabledReason: reason, updatedAt: now }).where(eq(webhookEndpoints.id, ep.id));
    await notify(tx, [{ kind: "webhook_disabled", userId: ep.ownerId, payload: { endpointId: ep.id, url: ep.url, reason } }], now);
    deps.log.warn("webhook endpoint disabled", { endpointId: ep.id, userId: ep.ownerId, failures: ep.failureCount });
  });
  return "failed";
}

/** Sends every delivery due now, batch after batch, until none is left or `signal` aborts. Safe on any number of nodes at once. */
export async function deliverWebhooks(deps: DeliverDeps, o: { signal?: AbortSignal; net?: NetOptions } = {}): Promise<Delivered> {
  const done: Delivered = { delivered: 0, retried: 0, failed: 0 };
  const token = newId();
  while (!o.signal?.aborted) {
    const rows = await claim(deps, token);
    const outcomes = await Promise.all(rows.map((r) => deliverOne(deps, r, token, o.net ?? {})));
    for (const k of outcomes) if (k) done[k]++;
    if (rows.length < BATCH) break;
  }
  return done;
}
