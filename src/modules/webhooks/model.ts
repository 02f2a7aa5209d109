// The shapes of /v1/webhooks: an endpoint (its secret only in the answer that made or
// rotated it), a delivery with the answer its last try got, and the bodies that make and
// change an endpoint.
import { t } from "elysia";
import { Enum, Int, Page } from "../../http/envelope.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import { EVENT_TYPES, TEST_EVENT } from "./events.ts";

const Instant = t.String({ format: "date-time" });
/** Enough for any real receiver's address; a longer one is refused (422). */
const URL_MAX = 2048;
export const ENDPOINTS_PER_ACCOUNT = 20;
const EndpointUrl = t.String({
  minLength: 8,
  maxLength: URL_MAX,
  pattern: "^https?://[^\\s]+$",
  description: "http or https address the events are posted to",
});
const Events = t.Array(Enum(EVENT_TYPES), { minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true, description: "the event types it is sent" });

export const WebhookEndpoint = t.Object(
  {
    id: t.String({ pattern: ID_PATTERN }),
    url: t.String(),
    events: t.Array(t.String()),
    enabled: t.Boolean(),
    disabledReason: t.Nullable(t.String({ description: "why it is disabled: by its owner, or after deliveries kept failing" })),
    failureCount: Int({ description: "deliveries given up in a row since the last one delivered" }),
    createdAt: Instant,
    updatedAt: Instant,
  },
  { title: "WebhookEndpoint" },
);
export type WebhookEndpoint = typeof WebhookEndpoint.static;

export const WebhookEndpointWithSecret = t.Composite(
  [
    WebhookEndpoint,
    t.Object({ secret: t.String({ description: "whsec_ and a base64 key: shown this once; verify each delivery's webhook-signature with it" }) }),
  ],
  { title: "WebhookEndpointWithSecret" },
);

export const WebhookEndpointPage = Page(WebhookEndpoint);

export const WebhookDelivery = t.Object(
  {
    id: t.String({ pattern: ID_PATTERN }),
    eventId: t.String({ description: "the webhook-id header, the same on every try" }),
    type: t.String({ description: `an event type, or ${TEST_EVENT}` }),
    status: Enum(["pending", "delivered", "failed"] as const),
    attempts: Int(),
    nextAttemptAt: t.Nullable(Instant),
    responseStatus: t.Nullable(Int({ description: "the HTTP status of the last try; null when it got no answer" })),
    responseBody: t.Nullable(t.String({ description: "the first KB of the last answer's body" })),
    durationMs: t.Nullable(Int()),
    error: t.Nullable(t.String({ description: "why the last try was not delivered" })),
    payload: t.Unknown({ description: "the body posted: { type, timestamp, data }" }),
    createdAt: Instant,
    lastAttemptAt: t.Nullable(Instant),
    deliveredAt: t.Nullable(Instant),
  },
  { title: "WebhookDelivery" },
);
export type WebhookDelivery = typeof WebhookDelivery.static;
export const WebhookDeliveryPage = Page(WebhookDelivery);

export const CreateEndpointBody = t.Object({ url: EndpointUrl, events: Events }, { additionalProperties: false });
export type CreateEndpointBody = typeof CreateEndpointBody.static;

export const UpdateEndpointBody = t.Object(
  {
    url: t.Optional(EndpointUrl),
    events: t.Optional(Events),
    enabled: t.Optional(t.Boolean({ description: "true enables it again and clears its failure count" })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateEndpointBody = typeof UpdateEndpointBody.static;

export const EndpointParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });
export const ListQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
});
