// The OpenAPI description of the two browser steps of an OpenID sign-in: they answer
// redirects and, for a refusal, an HTML page, so they are described here rather than by
// route schemas.
import type { OwnPaths } from "../../http/openapi.ts";

const page = (description: string) => ({ description, content: { "text/html": { schema: { type: "string" } } } });
const seeOther = (description: string) => ({ description, headers: { Location: { required: true, schema: { type: "string" } } } });
const query = (name: string, description: string) => ({ name, in: "query", required: false, description, schema: { type: "string" } });

export const oidcPageDocumentation: OwnPaths = {
  paths: {
    "/v1/auth/oidc/start": {
      get: {
        tags: ["auth"],
        "x-html-page": true,
        summary: "Begin signing in through the instance's OpenID provider (OIDC_ISSUER): 303 to the provider",
        description:
          "A browser navigation (the sign-in screens' button). The login is kept 10 minutes in the shared store (state, nonce, PKCE S256 verifier, where to go back to) and bound to this browser by the shelf_oidc cookie. `return` is the consent or device page's path and query the sign-in began on; anything else goes back to the dashboard. 404 when no provider is set up, 502 when its discovery document cannot be read, 429 past 30 starts a minute from one address: a page saying so.",
        parameters: [query("return", "the consent page (/oauth/authorize?...) or device page (/device?...) to come back to; default the dashboard")],
        responses: {
          303: seeOther("to the provider's authorization endpoint; sets the shelf_oidc cookie (Path=/v1/auth/oidc, 10 minutes)"),
          404: page("no provider is set up"),
          429: page("too many sign-ins begun from this address"),
          502: page("the provider cannot be reached"),
          503: page("the shared store cannot be reached"),
        },
      },
    },
    "/v1/auth/oidc/callback": {
      get: {
        tags: ["auth"],
        "x-html-page": true,
        summary: "The provider's answer (its redirect URI): checked, then signed in, and 303 to where the sign-in began",
        description:
          "The library checks the state, the RFC 9207 iss parameter, the code (with the PKCE verifier), the ID token's signature, issuer, audience, expiry and nonce. Then: an identity already linked signs in to its account; else the account with the same address is linked only when the provider says email_verified true; else, with OIDC_SIGNUP on and a verified address, an account is made (without a password). The session is a password sign-in's (the refresh cookie, the pages' tickets, the device cookie, a new-device notice). With two factors on, no session yet: 303 to the dashboard's code screen (CENTER_URL/#/sign-in-code?challenge=...&methods=..., and a passkey's options as passkey, base64url JSON). A refusal is a page: 400 (meta reason state, issuer, check_failed, provider_error, access_denied), 403 (email_unverified, account_unconfirmed, signup_closed, no_email), 502 (the provider away).",
        parameters: [
          query("code", "the provider's authorization code"),
          query("state", "the login's state"),
          query("iss", "the provider's issuer (RFC 9207)"),
          query("error", "the provider's refusal (RFC 6749 section 4.1.2.1)"),
        ],
        responses: {
          303: seeOther("signed in: to the dashboard or the page the sign-in began on, with the session's cookies; or to the dashboard's code screen"),
          400: page("the login is unknown, expired, used, of another browser, or the provider's answer failed a check"),
          403: page("the rules refuse this identity an account"),
          404: page("no provider is set up"),
          429: page("too many sign-ups from this address"),
          502: page("the provider cannot be reached"),
          503: page("the shared store cannot be reached"),
        },
      },
    },
  },
};
