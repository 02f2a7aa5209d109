// /v1/webhooks: the caller's outbound webhook endpoints and their delivery logs. Reading
// needs account.read; registering, changing, rotating, testing and deleting need a
// signed-in session (API keys cannot), since an endpoint is sent events about everything
// the account does. The inbound callbacks of video providers are /webhooks/{provider}
// (the videos module), a different thing.
import { Elysia } from "elysia";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import type { RouteServices } from "../../wiring/services.ts";
import {
  CreateEndpointBody,
  EndpointParams,
  ListQuery,
  UpdateEndpointBody,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointPage,
  WebhookEndpointWithSecret,
} from "./model.ts";
import { createEndpoint, deleteEndpoint, getEndpoint, listDeliveries, listEndpoints, rotateSecret, sendTest, updateEndpoint } from "./service.ts";

const read = { scope: "account.read", tier: "read" } as const;
const write = { scope: "session", tier: "mutation" } as const;

export const webhooksModule = ({ deps, guard }: RouteServices) =>
  new Elysia({ name: "webhooks", detail: { tags: ["webhooks"] } })
    .use(sharedModels)
    .use(guard)
    .post("/v1/webhooks/endpoints", async ({ principal, body, status }) => status(201, ok(await createEndpoint(deps, principal.userId, body))), {
      auth: write,
      body: CreateEndpointBody,
      response: { 201: Ok(WebhookEndpointWithSecret), 409: "Error", 422: "Error" },
      detail: {
        summary: "Register a webhook endpoint for some event types; its signing secret is in this answer only",
        description:
          "422 VALIDATION_ERROR for an address that is not http(s), carries credentials, or (unless the operator allows it) is a private, loopback or link-local literal; 409 CONFLICT past 20 endpoints.",
      },
    })
    .get(
      "/v1/webhooks/endpoints",
      async ({ principal, query }) => ok(await listEndpoints(deps, principal.userId, { cursor: query.cursor, limit: query.limit ?? 20 })),
      {
        auth: read,
        query: ListQuery,
        response: { 200: Ok(WebhookEndpointPage), 400: "Error" },
        detail: { summary: "List webhook endpoints, newest first" },
      },
    )
    .get("/v1/webhooks/endpoints/:id", async ({ principal, params }) => ok(await getEndpoint(deps, principal.userId, params.id)), {
      auth: read,
      params: EndpointParams,
      response: { 200: Ok(WebhookEndpoint), 404: "Error" },
      detail: { summary: "One webhook endpoint" },
    })
    .patch("/v1/webhooks/endpoints/:id", async ({ principal, params, body }) => ok(await updateEndpoint(deps, principal.userId, params.id, body)), {
      auth: write,
      params: EndpointParams,
      body: UpdateEndpointBody,
      response: { 200: Ok(WebhookEndpoint), 404: "Error", 422: "Error" },
      detail: { summary: "Change an endpoint's address or events, or disable or enable it (enabling clears its failure count)" },
    })
    .delete(
      "/v1/webhooks/endpoints/:id",
      async ({ principal, params, set }) => {
        await deleteEndpoint(deps, principal.userId, params.id);
        set.status = 204;
      },
      {
        auth: write,
        params: EndpointParams,
        response: { 204: NoContent, 404: "Error" },
        detail: { summary: "Delete an endpoint and its delivery log" },
      },
    )
    .post("/v1/webhooks/endpoints/:id/rotate-secret", async ({ principal, params }) => ok(await rotateSecret(deps, principal.userId, params.id)), {
      auth: write,
      params: EndpointParams,
      response: { 200: Ok(WebhookEndpointWithSecret), 404: "Error" },
      detail: { summary: "Replace the endpoint's signing secret; the new one is in this answer only, and the old one signs nothing more" },
    })
    .get(
      "/v1/webhooks/endpoints/:id/deliveries",
      async ({ principal, params, query }) => ok(await listDeliveries(deps, principal.userId, params.id, { cursor: query.cursor, limit: query.limit ?? 20 })),
      {
        auth: read,
        params: EndpointParams,
        query: ListQuery,
        response: { 200: Ok(WebhookDeliveryPage), 400: "Error", 404: "Error" },
        detail: {
          summary: "The endpoint's deliveries, newest first, each with its status, tries and the last answer (status, first KB of the body, duration)",
        },
      },
    )
    .post("/v1/webhooks/endpoints/:id/test", async ({ principal, params, status }) => status(202, ok(await sendTest(deps, principal.userId, params.id))), {
      auth: write,
      params: EndpointParams,
      response: { 202: Ok(WebhookDelivery), 404: "Error", 409: "Error" },
      detail: {
        summary: "Queue a webhook.test event for this endpoint; its delivery shows in the log",
        description: "409 CONFLICT while the endpoint is disabled.",
      },
    });
