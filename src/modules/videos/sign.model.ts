// The schemas of POST /v1/videos/:id/sign (shelf's own shape).
import { t } from "elysia";
import { Int } from "../../http/envelope.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import { SIGN_TTL_DEFAULT_S, SIGN_TTL_MAX_S } from "./sign.ts";

export const SignParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });

export const SignBody = t.Object({
  ttlSeconds: t.Optional(Int({ minimum: 1, maximum: SIGN_TTL_MAX_S, description: `seconds the URL plays; default ${SIGN_TTL_DEFAULT_S}` })),
});

export const SignedPlayback = t.Object(
  {
    url: t.String({
      description:
        "the master playlist, signed: MEDIA_URL/v/<id>/s.<expiry>.<mac>/master.m3u8; its variants and segments carry the signature by their relative URIs",
    }),
    expiresAt: t.String({ format: "date-time", description: "when the URL stops playing" }),
  },
  { title: "SignedPlayback" },
);
