// The OAuth 2.1 provider over HTTP: metadata (RFC 8414), device authorization (RFC 8628),
// the token endpoint, revocation (RFC 7009), and the user's side: approving a device code
// and listing or revoking authorized apps. Protocol endpoints answer in RFC 6749's form.
import { Elysia } from "elysia";
import { addressesOf, depsAt } from "../../http/addresses.ts";
import { clientIp } from "../../http/client-ip.ts";
import { outageError, requestIdOf } from "../../http/core.ts";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import { OWN_PATHS } from "../../http/openapi.ts";
import { SCOPES } from "../../core/scopes.ts";
import type { Log } from "../../infra/log.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { AUTHORIZATION_CODE_GRANT, redeemAuthorizationCode } from "./authorize.ts";
import { assertGrantType, DEVICE_GRANT, requireClient } from "./clients.ts";
import { decideDevice, redeemDeviceCode, startDeviceAuthorization } from "./device.ts";
import { OAuthError, invalidRequest } from "./errors.ts";
import { oauthParams } from "./form.ts";
import { consentPageDocumentation, createConsentPage } from "./pages/consent.ts";
import { createDevicePage } from "./pages/device.ts";
import { devicePageDocumentation } from "./pages/docs.ts";
import {
  AdminClient,
  AdminClientDecision,
  AdminClientListQuery,
  AdminClientPage,
  AuthorizationServerMetadata,
  DeviceVerified,
  DeviceVerifyBody,
  GrantListQuery,
  GrantPage,
  GrantParams,
  protocolDocumentation,
} from "./model.ts";
import { countRegistration, decideClient, listClients, parseRegistration, registerClient } from "./registration.ts";
import { listGrants, refreshGrant, revokeToken, revokeUserGrant } from "./service.ts";

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

type Set = { status?: number | string; headers: Record<string, string | number> };

/**
 * Runs a protocol endpoint: its answer, or its OAuthError in RFC 6749 form; never cached.
 * The database away is answered as everywhere (503, Retry-After, logged once: outageError),
 * in the protocol's form, so an OAuth client reads `temporarily_unavailable`.
 */
async function protocol(ctx: { set: Set; request: Request }, log: Log, run: () => Promise<unknown>): Promise<unknown> {
  const { set, request } = ctx;
  Object.assign(set.headers, NO_STORE);
  try {
    return await run();
  } catch (e) {
    const down = e instanceof OAuthError ? undefined : outageError(e, request, requestIdOf(request), log);
    const err = down ? new OAuthError("temporarily_unavailable", down.message, down.status, down.code, down.headers) : e;
    if (!(err instanceof OAuthError)) throw e;
    set.status = err.status;
    Object.assign(set.headers, err.headers);
    return err.body();
  }
}

const protocolController = ({ deps }: RouteServices) => {
  // Each protocol route is documented with the others (model.ts): bodies are forms.
  const own = { hide: true, [OWN_PATHS]: protocolDocumentation };
  const hidden = { hide: true };
  // The issuer is the address the client discovered it at (PUBLIC_URL when set).
  const metadataAt = (base: string): typeof AuthorizationServerMetadata.static => ({
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    device_authorization_endpoint: `${base}/v1/oauth/device_authorization`,
    revocation_endpoint: `${base}/oauth/revoke`,
    registration_endpoint: `${base}/oauth/register`,
    scopes_supported: [...SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: [AUTHORIZATION_CODE_GRANT, DEVICE_GRANT, "refresh_token"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/swagger`,
  });
  const fixed = deps.config.addressesFromRequest.length === 0 ? metadataAt(deps.config.PUBLIC_URL) : null;
  const metadata = ({ request }: { request: Request }) => fixed ?? metadataAt(addressesOf(deps.config, request).PUBLIC_URL);
  // The generator leaves out a path under /.well-known: it is documented with the others.
  // The metadata is also served where OpenID Connect discovery looks (openid-client's
  // default), so a client that only discovers there finds the same endpoints. No ID tokens
  // are issued, so nothing OpenID-specific is claimed (docs/api.md, "OAuth provider").
  const discovery = { response: { 200: AuthorizationServerMetadata }, detail: hidden };
  return new Elysia({ name: "oauth-protocol", detail: { tags: ["oauth"] } })
    .get("/.well-known/oauth-authorization-server", metadata, discovery)
    .get("/.well-known/openid-configuration", metadata, discovery)
    .post(
      "/v1/oauth/device_authorization",
      ({ request, server, set }) =>
        protocol({ set, request }, deps.log, async () => {
          const p = await oauthParams(request);
          return startDeviceAuthorization(depsAt(deps, request), {
            clientId: p.client_id,
            scope: p.scope,
            resource: p.resource,
            ip: clientIp(request, server, deps.config.TRUST_PROXY),
          });
        }),
      { parse: "none", detail: own },
    )
    .post(
      "/oauth/token",
      ({ request, set }) =>
        protocol({ set, request }, deps.log, async () => {
          const p = await oauthParams(request);
          if (!p.grant_type) throw invalidRequest("grant_type is required");
          if (p.grant_type !== DEVICE_GRANT && p.grant_type !== "refresh_token" && p.grant_type !== AUTHORIZATION_CODE_GRANT) {
            throw new OAuthError("unsupported_grant_type", "supported: authorization_code, urn:ietf:params:oauth:grant-type:device_code, refresh_token");
          }
          const client = await requireClient(deps, p.client_id);
          const here = depsAt(deps, request);
          if (p.grant_type === AUTHORIZATION_CODE_GRANT) {
            assertGrantType(client, AUTHORIZATION_CODE_GRANT);
            return redeemAuthorizationCode(here, {
              clientId: client.id,
              code: p.code,
              redirectUri: p.redirect_uri,
              codeVerifier: p.code_verifier,
              resource: p.resource,
            });
          }
          if (p.grant_type === DEVICE_GRANT) {
            assertGrantType(client, DEVICE_GRANT);
            if (!p.device_code) throw invalidRequest("device_code is required");
            return redeemDeviceCode(here, { clientId: client.id, deviceCode: p.device_code, resource: p.resource });
          }
          if (!p.refresh_token) throw invalidRequest("refresh_token is required");
          return refreshGrant(here, { clientId: client.id, refreshToken: p.refresh_token, scope: p.scope, resource: p.resource });
        }),
      { parse: "none", detail: hidden },
    )
    .post(
      "/oauth/register",
      ({ request, body, server, set }) =>
        protocol({ set, request }, deps.log, async () => {
          let metadata: unknown;
          try {
            // A body the JSON parser refused (another type, not JSON) throws when read.
            metadata = body !== null && typeof body === "object" && !Array.isArray(body) ? { ...body } : body;
          } catch {
            throw new OAuthError("invalid_client_metadata", "the body must be a JSON object of client metadata");
          }
          const input = parseRegistration(metadata);
          await countRegistration(deps, clientIp(request, server, deps.config.TRUST_PROXY));
          set.status = 201;
          return registerClient(deps, input);
        }),
      { detail: hidden },
    )
    .post(
      "/oauth/revoke",
      ({ request, set }) =>
        protocol({ set, request }, deps.log, async () => {
          const p = await oauthParams(request);
          if (!p.token) throw invalidRequest("token is required");
          await revokeToken(deps, { token: p.token, clientId: p.client_id });
          return new Response(null, { status: 200, headers: NO_STORE });
        }),
      { parse: "none", detail: hidden },
    );
};

const userController = ({ deps, guard }: RouteServices) =>
  new Elysia({ name: "oauth-user", detail: { tags: ["oauth"] } })
    .use(sharedModels)
    .use(guard)
    .post(
      "/v1/oauth/device/verify",
      async ({ principal, body, request, server }) =>
        ok(await decideDevice(deps, { userId: principal.userId, ip: clientIp(request, server, deps.config.TRUST_PROXY), ...body })),
      {
        auth: { scope: "session", tier: "mutation" },
        body: DeviceVerifyBody,
        response: { 200: Ok(DeviceVerified), 404: "Error", 409: "Error", 503: "Error" },
        detail: {
          summary: "Approve or deny a device's user code (signed-in session only: an API key or OAuth token may not)",
          description:
            "404 NOT_FOUND (meta.entity user_code) for a code that does not exist, and with meta.reason expired for one older than 10 minutes; 409 CONFLICT for one already approved or denied. Codes that do not exist are limited to 10 per user and 50 per address in 15 minutes (429), counted before the code is looked at; when the count cannot be kept, 503.",
        },
      },
    )
    .get(
      "/v1/user/me/oauth-grants",
      async ({ principal, query }) => ok(await listGrants(deps, principal.userId, { cursor: query.cursor, limit: query.limit ?? 20 })),
      {
        auth: { scope: "account.read", tier: "read" },
        query: GrantListQuery,
        response: { 200: Ok(GrantPage) },
        detail: { tags: ["account"], summary: "Apps the user has authorized (live OAuth grants), newest first" },
      },
    )
    .delete(
      "/v1/user/me/oauth-grants/:id",
      async ({ principal, params, set }) => {
        await revokeUserGrant(deps, principal.userId, params.id);
        set.status = 204;
      },
      {
        auth: { scope: "account.read", tier: "mutation" },
        params: GrantParams,
        response: { 204: NoContent, 404: "Error" },
        detail: { tags: ["account"], summary: "Revoke an app's authorization: every token of it is refused everywhere within 5 s" },
      },
    );

const adminController = ({ deps, guard }: RouteServices) =>
  new Elysia({ name: "oauth-admin", detail: { tags: ["admin"] } })
    .use(sharedModels)
    .use(guard)
    .get(
      "/v1/admin/oauth-clients",
      async ({ query }) => ok(await listClients(deps, { status: query.status ?? "pending", cursor: query.cursor, limit: query.limit ?? 20 })),
      {
        auth: { scope: "admin", tier: "read" },
        query: AdminClientListQuery,
        response: { 200: Ok(AdminClientPage), 400: "Error" },
        detail: { summary: "Registered OAuth clients of one status (default: the pending queue), newest first" },
      },
    )
    .patch("/v1/admin/oauth-clients/:id", async ({ params, body }) => ok(await decideClient(deps, params.id, body.status)), {
      auth: { scope: "admin", session: true, tier: "mutation" },
      params: GrantParams,
      body: AdminClientDecision,
      response: { 200: Ok(AdminClient), 404: "Error", 409: "Error" },
      detail: {
        summary: "Approve or reject a registered client",
        description:
          "A pending client may be approved or rejected, an approved one rejected (withdrawn); rejecting revokes every grant of the client. A rejected client stays rejected (409).",
      },
    });

/** The server-rendered pages (pages/): plain functions of the request, mounted here. */
const pagesController = (services: RouteServices) => {
  const device = createDevicePage(services);
  const consent = createConsentPage(services);
  const trustProxy = services.deps.config.TRUST_PROXY;
  const own = { hide: true, [OWN_PATHS]: devicePageDocumentation };
  const consentDoc = { hide: true, [OWN_PATHS]: consentPageDocumentation };
  return new Elysia({ name: "oauth-pages" })
    .get("/device", ({ request }) => device.get(request), { detail: own })
    .post("/device", ({ request, server }) => device.post(request, clientIp(request, server, trustProxy)), { parse: "none", detail: { hide: true } })
    .get("/oauth/authorize", ({ request }) => consent.get(request), { detail: consentDoc })
    .post("/oauth/authorize", ({ request, server }) => consent.post(request, clientIp(request, server, trustProxy)), { parse: "none", detail: { hide: true } });
};

export const oauthModule = (services: RouteServices) =>
  new Elysia({ name: "oauth" }).use(protocolController(services)).use(userController(services)).use(adminController(services)).use(pagesController(services));
