// The OpenAPI document is built from the route schemas; this adds what is shared: the
// error envelope, the common error responses and the bearer security scheme.
import { openapi } from "@elysiajs/openapi";
import { VERSION } from "../version.ts";

const errorRef = { $ref: "#/components/schemas/Error" };
const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: errorRef } } });

export const sharedErrorResponses = {
  BadRequest: errorResponse("400: malformed request (BAD_REQUEST, INVALID_CURSOR, ...)"),
  Unauthorized: errorResponse("401: missing or invalid credentials (UNAUTHORIZED, TOKEN_EXPIRED, API_KEY_REVOKED)"),
  Forbidden: errorResponse("403: FORBIDDEN, QUOTA_EXCEEDED, OAUTH_SCOPE_INSUFFICIENT, ..."),
  NotFound: errorResponse("404: NOT_FOUND (also for another user's resource)"),
  PayloadTooLarge: errorResponse("413: FILE_TOO_LARGE"),
  ValidationError: errorResponse("422: VALIDATION_ERROR with meta.path and meta.issues"),
  RateLimited: errorResponse("429: RATE_LIMITED with Retry-After and RateLimit-* headers"),
  Internal: errorResponse("500: INTERNAL; the body never carries a stack, SQL or path"),
};

export const openapiPlugin = (publicUrl: string) =>
  openapi({
    path: "/swagger",
    specPath: "/swagger/json",
    provider: "swagger-ui",
    exclude: { paths: ["/swagger", "/swagger/json"] },
    documentation: {
      info: {
        title: "shelf",
        version: VERSION,
        description: "Self-hostable hosting and library service: images, videos, audio, documents and knowledge bases.",
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", description: "An API key (sk_live_...), a JWT access token or an OAuth token" },
        },
        responses: sharedErrorResponses,
      },
    },
  });
