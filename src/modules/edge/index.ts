// The media edge's routes: MEDIA_URL/<path>, served by the api role (a CDN may sit in
// front); what is served and how is serve.ts. On a listening server Bun routes the edge's
// paths to `routes` without entering Elysia: a cache hit is then a map lookup and one
// Response, with no router, context or lifecycle around it. The Elysia route serves the
// same function to app.handle (the tests).
import { Elysia } from "elysia";
import { OWN_PATHS } from "../../http/openapi.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { edgeDocumentation } from "./openapi.ts";
import { edgeServer } from "./serve.ts";

export const createEdge = (services: RouteServices) => {
  const { config } = services.deps;
  const { prefix, resolvers, route, serverRoute, vouched } = edgeServer(services);
  // Hidden from the generator (a wildcard of every method, answering bytes): it documents GET and HEAD itself.
  const documented = { hide: true, [OWN_PATHS]: edgeDocumentation(config.MEDIA_URL, config.PUBLIC_URL, resolvers) };

  // One wildcard route, so a kind may have paths of several segments (HLS). It takes every
  // method because Elysia answers HEAD on a wildcard GET route by running the GET handler
  // and sending a Content-Length of 0, and OPTIONS is the edge's own (a preflight). It
  // answers through the same route function as the listening server, errors included (so
  // they carry the CORS headers there too); the request id is the one the core set.
  const module = new Elysia({ name: "edge" }).all(`${prefix}/*`, ({ request }) => route(request), { parse: "none", detail: documented });
  return { module, routes: { [`${prefix}/*`]: serverRoute }, vouched };
};
