// Passkeys over HTTP: an account's passkeys (/v1/user/me/passkeys, signed-in sessions only,
// as the two-factor routes) and signing in with one alone (/v1/auth/passkey). The second
// step of a password sign-in with a passkey is POST /v1/auth/login/2fa (index.ts).
import { Elysia, t } from "elysia";
import { addressesOf } from "../../http/addresses.ts";
import { clientIp } from "../../http/client-ip.ts";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import { withHeaders } from "../../http/openapi.ts";
import { ownSiteGuard } from "../../http/own-site.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { DEVICE_COOKIE, deviceCookie } from "./device-proof.ts";
import {
  KeyListQuery,
  PasskeyAdd,
  PasskeyAdded,
  PasskeyCreationOptions,
  PasskeyItem,
  PasskeyPage,
  PasskeyRename,
  PasskeyRequestOptions,
  PasskeySignIn,
  SessionGrant as SessionGrantModel,
  SetsSignInCookies,
  TwoFactorOff,
} from "./model.ts";
import { relyingPartyOf } from "./passkey-ceremony.ts";
import { addPasskey, listPasskeys, registrationOptions, removePasskey, renamePasskey } from "./passkeys.ts";
import { REFRESH_COOKIE } from "./session-cookies.ts";
import { sessionAnswers } from "./session-answer.ts";
import { passkeySignInOptions, signInWithPasskey } from "./sign-in.ts";

const PasskeyParams = t.Object({ id: t.String({ pattern: ID_PATTERN }) });

export const passkeyController = ({ deps, identity, guard, notify }: RouteServices) => {
  const rpOf = (request: Request) => relyingPartyOf(deps.config, addressesOf(deps.config, request));
  const { secureAt, grantBody, withSession } = sessionAnswers(deps);

  return new Elysia({ name: "passkeys", detail: { tags: ["account"] } })
    .use(sharedModels)
    .use(guard)
    .use(ownSiteGuard(deps.config))
    .post("/v1/user/me/passkeys/options", async ({ principal, request }) => ok(await registrationOptions(deps, rpOf(request), principal.userId)), {
      auth: { scope: "session", tier: "mutation" },
      response: { 200: Ok(PasskeyCreationOptions), 404: "Error", 409: "Error", 503: "Error" },
      detail: {
        summary: "Begin adding a passkey: the options for navigator.credentials.create()",
        description:
          "Signed-in sessions only (an API key or OAuth token gets 403). A discoverable credential (resident key) for the relying party PASSKEY_RP_ID (default CENTER_URL's host), the account's own passkeys excluded. The challenge works once, within 5 minutes, on any api node. 409 CONFLICT at 20 passkeys.",
      },
    })
    .post(
      "/v1/user/me/passkeys",
      async ({ principal, body, request, status }) => status(201, ok(await addPasskey(deps, rpOf(request), principal.userId, body as never, notify))),
      {
        auth: { scope: "session", tier: "mutation" },
        body: PasskeyAdd,
        response: { 201: Ok(PasskeyAdded), 404: "Error", 409: "Error", 422: "Error", 503: "Error" },
        detail: {
          summary: "Add a passkey: the authenticator's answer to the options, checked, and a name for it",
          description:
            "422 PASSKEY_INVALID (meta.reason: challenge, origin, rp_id, signature, malformed) when the answer is not for a challenge of this account issued by POST /v1/user/me/passkeys/options and not yet used, or was made at another origin than CENTER_URL's or PUBLIC_URL's, or for another RP ID. 409 CONFLICT for a passkey added already. From now on a password sign-in asks for a second step (a passkey counts as a second factor), and the passkey signs in alone (POST /v1/auth/passkey). The first factor an account adds brings 10 recovery codes, answered this once. The owner is told (passkey_added).",
        },
      },
    )
    .get(
      "/v1/user/me/passkeys",
      async ({ principal, query }) => ok(await listPasskeys(deps, principal.userId, { cursor: query.cursor, limit: query.limit ?? 20 })),
      {
        auth: { scope: "session", tier: "read" },
        query: KeyListQuery,
        response: { 200: Ok(PasskeyPage) },
        detail: { summary: "The account's passkeys, newest first: name, kind (synced or of one device), when added and last used" },
      },
    )
    .patch("/v1/user/me/passkeys/:id", async ({ principal, params, body }) => ok(await renamePasskey(deps, principal.userId, params.id, body.name)), {
      auth: { scope: "session", tier: "mutation" },
      params: PasskeyParams,
      body: PasskeyRename,
      response: { 200: Ok(PasskeyItem), 404: "Error", 422: "Error" },
      detail: { summary: "Rename a passkey" },
    })
    .delete(
      "/v1/user/me/passkeys/:id",
      async ({ principal, params, body, status }) => {
        await removePasskey(deps, principal.userId, params.id, body, notify);
        return status(204, undefined);
      },
      {
        auth: { scope: "session", tier: "mutation" },
        params: PasskeyParams,
        body: TwoFactorOff,
        response: { 204: NoContent, 401: "Error", 404: "Error", 422: "Error", 429: "Error" },
        detail: {
          summary: "Remove a passkey, with the password or a current authenticator code",
          description:
            "401 UNAUTHORIZED for a wrong password, 422 VALIDATION_ERROR for a wrong code (429 past 5 in 15 minutes). The owner is told (passkey_removed). When it was the account's last second factor (no other passkey, no authenticator app), the recovery codes go with it and the password alone signs in again.",
        },
      },
    )
    .post(
      "/v1/auth/passkey/options",
      async ({ request, server, set }) => {
        set.headers["cache-control"] = "no-store";
        return ok(await passkeySignInOptions(deps, rpOf(request), clientIp(request, server, deps.config.TRUST_PROXY)));
      },
      {
        ownSite: true,
        response: { 200: Ok(PasskeyRequestOptions), 429: "Error", 503: "Error" },
        detail: {
          tags: ["auth"],
          summary: "Begin signing in with a passkey (no credential): the options for navigator.credentials.get()",
          description:
            "No allow list: any passkey of this relying party may answer, so the browser can offer them in the email field's autofill (mediation conditional). The challenge works once, within 5 minutes, on any api node. 429 RATE_LIMITED past 30 a minute from one address.",
        },
      },
    )
    .post(
      "/v1/auth/passkey",
      async ({ body, cookie, request, server }) => {
        const ip = clientIp(request, server, deps.config.TRUST_PROXY);
        const userAgent = request.headers.get("user-agent") ?? undefined;
        const grant = await signInWithPasskey(
          deps,
          identity.signer,
          { response: body.response as never, ip, userAgent, deviceProof: cookie[DEVICE_COOKIE]!.value, rp: rpOf(request) },
          notify,
        );
        return withSession(request, 200, ok(grantBody(grant)), grant, [deviceCookie(grant.deviceProof, "/v1/auth/login", secureAt(request))]);
      },
      {
        body: PasskeySignIn,
        cookie: t.Cookie({ [REFRESH_COOKIE]: t.Optional(t.String({ maxLength: 512 })), [DEVICE_COOKIE]: t.Optional(t.String()) }),
        ownSite: true,
        response: { 200: withHeaders(Ok(SessionGrantModel), SetsSignInCookies), 403: "Error", 422: "Error", 429: "Error", 503: "Error" },
        detail: {
          tags: ["auth"],
          summary: "Sign in with a passkey alone; sets the login's cookies",
          description:
            "The answer of navigator.credentials.get() to POST /v1/auth/passkey/options, made with user verification (a PIN, a fingerprint): it stands for both factors, so no second step follows. The same session, cookies, new-device notice and login limits as POST /v1/auth/login (429 RATE_LIMITED). 422 PASSKEY_INVALID (meta.reason: credential, challenge, origin, rp_id, signature, counter, user_verification, malformed) for a passkey this server does not know, a challenge unknown, expired or used, another origin or RP ID, a bad signature, or a signature counter that did not move forward (a cloned authenticator). 403 EMAIL_NOT_VERIFIED as the login.",
        },
      },
    );
};
