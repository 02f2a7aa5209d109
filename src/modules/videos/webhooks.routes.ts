// POST /webhooks/{provider}: a video provider's completion callback. The raw body
// is what the signature covers, so it is read as text, never parsed first. A bad
// signature or a stale timestamp is 401; a replayed event is acknowledged and ignored. The
// body is read within MAX_CALLBACK_BYTES as it arrives (413 the moment it passes it).
import { Elysia, t } from "elysia";
import { Enum, Ok, ok, sharedModels } from "../../http/envelope.ts";
import { readBody } from "../../http/body-limit.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { createProviders } from "./providers/index.ts";
import { applyProviderEvent } from "./state.ts";
import { VIDEO_PROVIDERS } from "./table.ts";

const MAX_CALLBACK_BYTES = 1024 * 1024;

const CallbackAnswer = t.Object({ received: t.Boolean(), outcome: Enum(["applied", "replayed", "stale", "ignored"]) }, { title: "VideoCallbackAnswer" });

export const videoWebhooks = ({ deps }: RouteServices) => {
  const providers = createProviders(deps);
  return new Elysia({ name: "video-webhooks", detail: { tags: ["webhooks"] } }).use(sharedModels).post(
    "/webhooks/:provider",
    async ({ params, request }) => {
      const raw = new TextDecoder().decode(await readBody(request, MAX_CALLBACK_BYTES));
      const provider = providers[params.provider];
      const event = provider.parseCallback(raw, request.headers, deps.clock.now());
      if (!event) return ok({ received: true, outcome: "ignored" as const });
      return ok({ received: true, outcome: await applyProviderEvent(deps, provider.name, event) });
    },
    {
      params: t.Object({ provider: Enum(VIDEO_PROVIDERS) }),
      parse: "none",
      response: { 200: Ok(CallbackAnswer), 400: "Error", 401: "Error", 413: "Error", 422: "Error" },
      detail: {
        summary: 'A video provider\'s signed callback (local: Shelf-Signature; mux: Mux-Signature), t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">',
      },
    },
  );
};
