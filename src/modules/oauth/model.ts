// The OAuth provider's models: the RFC-shaped answers of the protocol endpoints (metadata,
// device authorization, token, revocation), documented by hand because their bodies are
// forms, and the JSON models of the user-facing routes (device verification, grants).
import { t } from "elysia";
import { Enum, Int, Page } from "../../http/envelope.ts";
import { type OwnPaths, TOUCHES_NO_PART } from "../../http/openapi.ts";
import { SCOPES } from "../../core/scopes.ts";
import { ID_PATTERN } from "../../infra/ids.ts";

const ScopeEnum = Enum(SCOPES);

export const AuthorizationServerMetadata = t.Object(
  {
    issuer: t.String(),
    authorization_endpoint: t.String(),
    token_endpoint: t.String(),
    device_authorization_endpoint: t.String(),
    revocation_endpoint: t.String(),
    registration_endpoint: t.String(),
    scopes_supported: t.Array(ScopeEnum),
    response_types_supported: t.Array(t.String()),
    response_modes_supported: t.Array(t.String()),
    grant_types_supported: t.Array(t.String()),
    token_endpoint_auth_methods_supported: t.Array(t.String()),
    revocation_endpoint_auth_methods_supported: t.Array(t.String()),
    code_challenge_methods_supported: t.Array(t.String()),
    authorization_response_iss_parameter_supported: t.Boolean(),
    service_documentation: t.String(),
  },
  { description: "RFC 8414 authorization server metadata" },
);

export const DeviceVerifyBody = t.Object(
  {
    userCode: t.String({ minLength: 1, maxLength: 32, description: "as the device shows it; case, dashes and spaces are ignored" }),
    decision: Enum(["approve", "deny"]),
  },
  { additionalProperties: false },
);

export const DeviceVerified = t.Object({
  userCode: t.String({ description: "XXXX-XXXX" }),
  decision: Enum(["approve", "deny"]),
  clientId: t.String(),
  clientName: t.String(),
  unverified: t.Boolean({ description: "a registered client no administrator has approved yet" }),
  scopes: t.Array(ScopeEnum),
});

const ClientStatus = Enum(["pending", "approved", "rejected"]);

const AdminClientItem = t.Object({
  id: t.String(),
  name: t.String(),
  redirectUris: t.Array(t.String()),
  grantTypes: t.Array(t.String()),
  scopes: t.Array(ScopeEnum),
  status: ClientStatus,
  createdAt: t.String({ format: "date-time" }),
  decidedAt: t.Nullable(t.String({ format: "date-time" })),
  duplicateOf: t.Nullable(
    t.Object({
      id: t.String(),
      status: Enum(["pending", "approved"]),
      createdAt: t.String({ format: "date-time" }),
    }),
    {
      description:
        "the earliest client, pending or approved, that registered exactly the same (name, redirect URIs, grant types and scopes) before this one; null when this one is the first",
    },
  ),
});
export const AdminClient = AdminClientItem;
export const AdminClientPage = Page(AdminClientItem);

export const AdminClientListQuery = t.Object({
  status: t.Optional(ClientStatus),
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
});

export const AdminClientDecision = t.Object({ status: Enum(["approved", "rejected"]) }, { additionalProperties: false });

const GrantItem = t.Object({
  id: t.String(),
  clientId: t.String(),
  clientName: t.String(),
  unverified: t.Boolean({ description: "a registered client no administrator has approved yet: its name is its developer's word" }),
  scopes: t.Array(ScopeEnum),
  createdAt: t.String({ format: "date-time" }),
});
export const GrantPage = Page(GrantItem);

export const GrantListQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
});

export const GrantParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });

// What the protocol endpoints answer, for the hand-written paths below.
const OAuthErrorBody = t.Object({
  error: t.String({ description: "the RFC 6749 / RFC 8628 error" }),
  error_description: t.String(),
  error_code: t.Optional(t.String({ description: "shelf's error code where it has one: OAUTH_REFRESH_REPLAYED, RATE_LIMITED, SERVICE_UNAVAILABLE" })),
});

const TokenResponse = t.Object({
  access_token: t.String({ description: "valid 15 minutes" }),
  token_type: t.Literal("Bearer"),
  expires_in: Int(),
  refresh_token: t.String({ description: "single use: every refresh returns its successor" }),
  scope: t.String(),
});

const RegisteredClient = t.Object({
  client_id: t.String(),
  client_id_issued_at: Int(),
  client_name: t.String(),
  redirect_uris: t.Array(t.String()),
  grant_types: t.Array(t.String()),
  token_endpoint_auth_method: t.Literal("none"),
  scope: t.String(),
  approval_status: t.Literal("pending"),
});

const DeviceAuthorizationResponse = t.Object({
  device_code: t.String({ minLength: 32, maxLength: 32 }),
  user_code: t.String({ pattern: "^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$" }),
  verification_uri: t.String(),
  verification_uri_complete: t.String(),
  expires_in: Int(),
  interval: Int(),
});

const form = (properties: Record<string, unknown>, required: string[]) => {
  const schema = { type: "object", properties, required };
  return { "application/x-www-form-urlencoded": { schema }, "application/json": { schema } };
};
const text = (description: string) => ({ type: "string", description });
const noStore = { "Cache-Control": { description: "no-store", required: true, schema: { type: "string", const: "no-store" } } };
const oauthError = (description: string, extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { ...noStore, ...extraHeaders },
  content: { "application/json": { schema: OAuthErrorBody } },
});
const retryAfter = { "Retry-After": { description: "seconds to wait", required: true, schema: { type: "integer", minimum: 1 } } };
/** Every protocol endpoint reads the database: while it is away, 503 (src/http/core.ts) in the protocol's form. */
const unavailable = (also = "") =>
  oauthError(`temporarily_unavailable with error_code DEPENDENCY_UNAVAILABLE: the database does not answer${also}`, retryAfter);

export const protocolDocumentation: OwnPaths = {
  paths: {
    "/.well-known/oauth-authorization-server": {
      get: {
        tags: ["oauth"],
        summary: "OAuth authorization server metadata (RFC 8414)",
        [TOUCHES_NO_PART]: true,
        responses: { 200: { description: "OK", content: { "application/json": { schema: AuthorizationServerMetadata } } } },
      },
    },
    "/.well-known/openid-configuration": {
      get: {
        tags: ["oauth"],
        summary: "The same metadata, where OpenID Connect discovery looks (for clients that discover only there, such as openid-client)",
        description: "Equal to /.well-known/oauth-authorization-server. The provider is OAuth 2.1 only: it issues no ID tokens and has no userinfo endpoint.",
        [TOUCHES_NO_PART]: true,
        responses: { 200: { description: "OK", content: { "application/json": { schema: AuthorizationServerMetadata } } } },
      },
    },
    "/v1/oauth/device_authorization": {
      post: {
        tags: ["oauth"],
        "x-rfc6749-errors": true,
        summary: "Start a device authorization (RFC 8628 section 3.1): a device code to poll with and a user code to show",
        description:
          "At most 10 per client_id and client address per minute. `scope` is space-separated; without it the client's default scopes are asked for.",
        requestBody: {
          required: true,
          content: form(
            {
              client_id: text("a first-party or registered client"),
              scope: text("space-separated scopes"),
              resource: text(
                "RFC 8707: the protected resource the tokens are for, PUBLIC_URL (the API, as when left out) or MCP_URL; another is invalid_target",
              ),
            },
            ["client_id"],
          ),
        },
        responses: {
          200: { description: "OK", headers: noStore, content: { "application/json": { schema: DeviceAuthorizationResponse } } },
          400: oauthError(
            "invalid_request (a missing client_id, a body that is not a form or a JSON object), invalid_scope, unauthorized_client (a registered client without the device grant)",
          ),
          401: oauthError("invalid_client: unknown or rejected client"),
          429: oauthError("temporarily_unavailable with error_code RATE_LIMITED: over 10 per client and address per minute", retryAfter),
          503: unavailable("; with error_code SERVICE_UNAVAILABLE: the limit cannot be checked"),
        },
      },
    },
    "/oauth/token": {
      post: {
        tags: ["oauth"],
        "x-rfc6749-errors": true,
        summary: "Token endpoint: the authorization_code, device_code and refresh_token grants (RFC 6749 section 5)",
        description:
          "grant_type=authorization_code with code, client_id, code_verifier (PKCE, RFC 7636: 43 to 128 characters; a missing or malformed one is invalid_request, one that does not match the challenge invalid_grant) and redirect_uri (the one of the authorization request, which must be named when the request named it): a code is valid 60 s and used once; an unknown, expired or used code is invalid_grant, and a used one presented again also revokes the grant its first use gave. grant_type=urn:ietf:params:oauth:grant-type:device_code with device_code and client_id: authorization_pending, slow_down (a poll sooner than the interval; the interval then grows by 5 s), access_denied, expired_token (after 10 minutes), invalid_grant (consumed or unknown). grant_type=refresh_token with refresh_token and client_id (and optionally a narrower scope): every refresh returns a new refresh token; a rotated one presented again revokes the whole grant (401 invalid_grant, error_code OAUTH_REFRESH_REPLAYED), except within 2 s of its rotation, when it is taken for a concurrent refresh and refused with 400 invalid_grant.",
        requestBody: {
          required: true,
          content: form(
            {
              grant_type: text("authorization_code, urn:ietf:params:oauth:grant-type:device_code or refresh_token"),
              client_id: text("the client the code or token was issued to"),
              code: text("authorization_code grant"),
              code_verifier: text("authorization_code grant: the PKCE verifier"),
              redirect_uri: text("authorization_code grant: as in the authorization request"),
              device_code: text("device_code grant"),
              refresh_token: text("refresh_token grant"),
              scope: text("refresh_token grant: fewer scopes for the new access token"),
              resource: text("RFC 8707: when named, the resource the grant was given for (another is invalid_target)"),
            },
            ["grant_type", "client_id"],
          ),
        },
        responses: {
          200: { description: "OK", headers: noStore, content: { "application/json": { schema: TokenResponse } } },
          400: oauthError(
            "invalid_request, unsupported_grant_type, unauthorized_client, invalid_grant, invalid_scope, invalid_target, authorization_pending, slow_down, access_denied, expired_token",
          ),
          401: oauthError("invalid_client: unknown client; invalid_grant with error_code OAUTH_REFRESH_REPLAYED: the grant is revoked"),
          503: unavailable(),
        },
      },
    },
    "/oauth/register": {
      post: {
        tags: ["oauth"],
        "x-rfc6749-errors": true,
        summary: "Register a third-party client (RFC 7591); it waits for an administrator's approval",
        description:
          "JSON client metadata: client_name (required; 1 to 100 characters, no control, bidi control or invisible characters (zero-width, format characters, U+2028, U+2029), letters of one script or of Latin with Han, Hiragana, Katakana, Bopomofo or Hangul), redirect_uris (https, or http on 127.0.0.1, [::1] or localhost; no fragment; at most 10 of at most 2,000 characters; required with the authorization_code grant), grant_types (authorization_code, refresh_token, urn:ietf:params:oauth:grant-type:device_code; default authorization_code and refresh_token), scope (default every scope but media.delete), token_endpoint_auth_method (none only). The client is pending: it may start flows and users are told it is unverified; once rejected it may not. At most 10 registrations per address and hour.",
        requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
        responses: {
          201: { description: "Created", headers: noStore, content: { "application/json": { schema: RegisteredClient } } },
          400: oauthError("invalid_client_metadata (a body that is not a JSON object, a bad name, grant type, scope or auth method), invalid_redirect_uri"),
          // Read by the app's JSON parser, whose refusal of a body over its limit is the envelope.
          413: { $ref: "#/components/responses/PayloadTooLarge" },
          429: oauthError("temporarily_unavailable with error_code OAUTH_CLIENT_RATE_LIMITED: over 10 registrations per address and hour", retryAfter),
          503: unavailable("; with error_code SERVICE_UNAVAILABLE: the limit cannot be checked"),
        },
      },
    },
    "/oauth/revoke": {
      post: {
        tags: ["oauth"],
        "x-rfc6749-errors": true,
        summary: "Revoke a token (RFC 7009): an access or refresh token revokes its whole grant",
        description: "Answers 200 for an unknown token too, or one issued to another client than client_id names (then nothing is revoked).",
        requestBody: {
          required: true,
          content: form({ token: text("an access or refresh token"), token_type_hint: text("ignored"), client_id: text("optional") }, ["token"]),
        },
        responses: {
          200: { description: "OK (no body)", headers: noStore },
          400: oauthError("invalid_request: no token"),
          503: unavailable(),
        },
      },
    },
  },
};
