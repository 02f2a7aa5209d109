// The rules of webhook endpoints: register (the secret shown once), list, read, change
// (enabling again clears the failure count), rotate the secret, delete, list deliveries,
// and send a test event. An endpoint's address is checked when registered as well as at
// each delivery: a private, loopback or link-local literal is refused at once unless the
// operator allows such addresses (WEBHOOKS_ALLOW_PRIVATE); a name is checked when each
// delivery resolves it (deliver.ts), since what it resolves to may change.
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { and, count, eq, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { keysetPage } from "../../core/cursor.ts";
import { AppError, notFound, validationError } from "../../core/errors.ts";
import { iso, isoOrNull } from "../../infra/clock.ts";
import { newId } from "../../infra/ids.ts";
import { forbiddenRange } from "../../infra/safe-fetch.ts";
import { envelopeOf, TEST_EVENT } from "./events.ts";
import { type CreateEndpointBody, ENDPOINTS_PER_ACCOUNT, type UpdateEndpointBody, type WebhookDelivery, type WebhookEndpoint } from "./model.ts";
import { webhookDeliveries, type WebhookDeliveryRow, webhookEndpoints, type WebhookEndpointRow } from "./table.ts";

type ServiceDeps = Pick<Deps, "db" | "clock" | "config">;

const owned = (userId: string, id: string) => and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.ownerId, userId));

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

function view(r: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    events: r.events,
    enabled: r.enabled,
    disabledReason: r.disabledReason,
    failureCount: r.failureCount,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

function deliveryView(r: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    eventId: r.eventId,
    type: r.type,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.status === "pending" ? iso(r.nextAttemptAt) : null,
    responseStatus: r.responseStatus,
    responseBody: r.responseBody,
    durationMs: r.durationMs,
    error: r.lastError,
    payload: r.payload,
    createdAt: iso(r.createdAt),
    lastAttemptAt: isoOrNull(r.lastAttemptAt),
    deliveredAt: isoOrNull(r.deliveredAt),
  };
}

/** Refuses an address no delivery could be sent to: a bad URL, credentials in it, or (unless allowed) a non-public literal address. */
function checkUrl(deps: ServiceDeps, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationError("/url", "not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw validationError("/url", "only http and https addresses can receive webhooks");
  if (url.username || url.password) throw validationError("/url", "an address with a user name or password in it is not accepted");
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (!deps.config.WEBHOOKS_ALLOW_PRIVATE && isIP(host) !== 0) {
    const why = forbiddenRange(host);
    if (why !== null) throw validationError("/url", `the address ${host} is ${why}, not a public address`);
  }
  url.hash = "";
  return url.href;
}

async function ownRow(deps: ServiceDeps, userId: string, id: string): Promise<WebhookEndpointRow> {
  const [row] = await deps.db.select().from(webhookEndpoints).where(owned(userId, id));
  if (!row) throw notFound("webhook endpoint");
  return row;
}

export async function createEndpoint(deps: ServiceDeps, userId: string, body: CreateEndpointBody) {
  const url = checkUrl(deps, body.url);
  const row = await deps.db.transaction(async (tx) => {
    // Creates of one account take turns, so the count is exact.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhooks:${userId}`}))`);
    const [{ n }] = (await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.ownerId, userId))) as [{ n: number }];
    if (n >= ENDPOINTS_PER_ACCOUNT)
      throw new AppError("CONFLICT", `an account may have ${ENDPOINTS_PER_ACCOUNT} webhook endpoints`, { limit: ENDPOINTS_PER_ACCOUNT });
    const now = deps.clock.now();
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({ id: newId(), ownerId: userId, url, events: [...body.events], secret: newSecret(), createdAt: now, updatedAt: now })
      .returning();
    return created!;
  });
  return { ...view(row), secret: row.secret };
}

export async function listEndpoints(deps: ServiceDeps, userId: string, q: { cursor?: string; limit: number }) {
  return keysetPage(
    deps.db,
    {
      from: webhookEndpoints,
      shape: "owned",
      where: () => eq(webhookEndpoints.ownerId, sql.placeholder("userId")),
      params: { userId },
      sort: ["createdAt", "id"],
      cursor: q.cursor,
      limit: q.limit,
    },
    (r) => view(r as WebhookEndpointRow),
  );
}

export async function getEndpoint(deps: ServiceDeps, userId: string, id: string): Promise<WebhookEndpoint> {
  return view(await ownRow(deps, userId, id));
}

export async function updateEndpoint(deps: ServiceDeps, userId: string, id: string, body: UpdateEndpointBody): Promise<WebhookEndpoint> {
  const url = body.url === undefined ? undefined : checkUrl(deps, body.url);
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({
      ...(url !== undefined && { url }),
      ...(body.events !== undefined && { events: [...body.events] }),
      ...(body.enabled === true && { enabled: true, disabledReason: null, failureCount: 0 }),
      ...(body.enabled === false && { enabled: false, disabledReason: "disabled by its owner" }),
      updatedAt: deps.clock.now(),
    })
    .where(owned(userId, id))
    .returning();
  if (!row) throw notFound("webhook endpoint");
  return view(row);
}

export async function rotateSecret(deps: ServiceDeps, userId: string, id: string) {
  const [row] = await deps.db.update(webhookEndpoints).set({ secret: newSecret(), updatedAt: deps.clock.now() }).where(owned(userId, id)).returning();
  if (!row) throw notFound("webhook endpoint");
  return { ...view(row), secret: row.secret };
}

/** Deletes the endpoint and its delivery log; a delivery in flight is not settled. */
export async function deleteEndpoint(deps: ServiceDeps, userId: string, id: string): Promise<void> {
  const gone = await deps.db.delete(webhookEndpoints).where(owned(userId, id)).returning({ id: webhookEndpoints.id });
  if (!gone.length) throw notFound("webhook endpoint");
}

export async function listDeliveries(deps: ServiceDeps, userId: string, id: string, q: { cursor?: string; limit: number }) {
  await ownRow(deps, userId, id);
  return keysetPage(
    deps.db,
    {
      from: webhookDeliveries,
      shape: "endpoint",
      where: () => and(eq(webhookDeliveries.endpointId, sql.placeholder("endpointId")), eq(webhookDeliveries.ownerId, sql.placeholder("userId"))),
      params: { endpointId: id, userId },
      sort: ["createdAt", "id"],
      cursor: q.cursor,
      limit: q.limit,
    },
    (r) => deliveryView(r as WebhookDeliveryRow),
  );
}

/** Queues a webhook.test event for this endpoint alone (even a disabled one is not sent it: enable it first). */
export async function sendTest(deps: ServiceDeps, userId: string, id: string): Promise<WebhookDelivery> {
  const ep = await ownRow(deps, userId, id);
  if (!ep.enabled) throw new AppError("CONFLICT", "the endpoint is disabled; enable it first", { enabled: false });
  const now = deps.clock.now();
  const [row] = await deps.db
    .insert(webhookDeliveries)
    .values({
      id: newId(),
      endpointId: ep.id,
      ownerId: userId,
      eventId: `msg_${newId()}`,
      type: TEST_EVENT,
      payload: envelopeOf(TEST_EVENT, { endpointId: ep.id }, now),
      nextAttemptAt: now,
      createdAt: now,
    })
    .returning();
  return deliveryView(row!);
}
