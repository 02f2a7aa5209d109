// The OpenAPI document at GET /swagger/json. The plugin builds it from the route schemas;
// completeDocument (openapi-document.ts) then adds, in one place, what those schemas cannot
// say: the answers every route shares and the headers that come with them. The reference
// page at /swagger is ours (api-reference.ts): the plugin's loads its UI from a CDN.
import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { VERSION } from "../infra/version.ts";
import { apiReference, REFERENCE_PATH } from "./api-reference.ts";
import { completeDocument, FORM_BODY_SCHEMA, type Json, OWN_PATHS, type OwnPaths, TOUCHES_NO_PART } from "./openapi-document.ts";

export { FORM_BODY_SCHEMA, OWN_PATHS, type OwnPaths, TOUCHES_NO_PART };
/** Documents headers a response always carries: withHeaders(Ok(Model), { "Set-Cookie": t.String() }). */
export { withHeaders } from "@elysiajs/openapi";
const SPEC_PATH = "/swagger/json";

interface DocumentedRoute {
  hooks?: { detail?: Record<string, unknown> };
}

/**
 * `publicUrl`: PUBLIC_URL; `fromRequest`: it is unset, and the API is wherever the document
 * was fetched from, which a relative server URL says (OpenAPI resolves it against the
 * document's own address).
 */
export const openapiPlugin = (publicUrl: string, fromRequest: boolean) => {
  const docs = new Elysia({ name: "openapi-document" });
  // Every route of the app, hidden ones too (their own paths). The plugin reads them the
  // same way; once this instance is mounted the call reaches the root's routes.
  const routes = () => (docs as unknown as { getGlobalRoutes(): DocumentedRoute[] }).getGlobalRoutes();
  // The plugin hands out the same object until routes are added: complete each one once.
  const completed = new WeakMap<object, Json>();
  return (
    docs
      // Local to this instance, so it runs for the plugin's two routes only, never for the API's.
      .onAfterHandle(({ route, responseValue }) => {
        if (route !== SPEC_PATH || !responseValue || typeof responseValue !== "object" || responseValue instanceof Response) return;
        let doc = completed.get(responseValue);
        if (!doc) {
          const own = routes().flatMap((r) => (r.hooks?.detail?.[OWN_PATHS] as OwnPaths | undefined) ?? []);
          doc = completeDocument(responseValue as Json, own);
          completed.set(responseValue, doc);
        }
        return doc;
      })
      .use(
        openapi({
          path: REFERENCE_PATH,
          specPath: SPEC_PATH,
          provider: null,
          exclude: { paths: [SPEC_PATH] },
          documentation: {
            info: {
              title: "shelf",
              version: VERSION,
              description: "Self-hostable hosting and library service: images, videos, audio, documents and knowledge bases.",
            },
            servers: [{ url: fromRequest ? "/" : publicUrl }],
            components: {
              securitySchemes: {
                bearer: { type: "http", scheme: "bearer", description: "An API key (sk_live_...), a JWT access token or an OAuth token" },
              },
            },
          },
        }),
      )
      .use(apiReference(publicUrl, SPEC_PATH))
  );
};
