// POST /v1/videos/:id/sign: a signed playback URL of one of the caller's videos, which a
// private video needs on every playback request (sign.ts).
import { depsAt } from "../../http/addresses.ts";
import { Elysia, t } from "elysia";
import { Ok, ok, sharedModels } from "../../http/envelope.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { SignBody, SignedPlayback, SignParams } from "./sign.model.ts";
import { createPlaybackSigner, SIGN_TTL_DEFAULT_S, signPlayback } from "./sign.ts";

export const signRoutes = ({ deps, guard }: RouteServices) => {
  const signer = createPlaybackSigner(deps.config.JWT_SECRET);
  return new Elysia({ name: "video-sign", detail: { tags: ["videos"] } })
    .use(sharedModels)
    .use(guard)
    .post(
      "/v1/videos/:id/sign",
      async ({ principal, params, body, request }) =>
        ok(await signPlayback(depsAt(deps, request), signer, principal.userId, params.id, body?.ttlSeconds ?? SIGN_TTL_DEFAULT_S)),
      {
        auth: { scope: "media.read", tier: "read" },
        params: SignParams,
        body: t.Optional(SignBody),
        response: { 200: Ok(SignedPlayback), 404: "Error", 422: "Error" },
        detail: {
          summary: "A signed playback URL of a video (a private one plays only through one)",
          description: `Body \`{ ttlSeconds? }\`: 1 to 86400, default ${SIGN_TTL_DEFAULT_S}. The signature covers the video's id and the expiry, so it opens that video only.`,
        },
      },
    );
};
