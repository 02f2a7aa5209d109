// The pages in the OpenAPI document: HTML for browsers, not an API, but on the same
// server, so listed with what they answer.
import type { OwnPaths } from "../../../http/openapi.ts";

/** Every page reads the database (its page session): while it is away, a page saying so (src/http/core.ts). */
export const DATABASE_AWAY = "the database does not answer (Retry-After)";
const page = (description: string) => ({ description, content: { "text/html": { schema: { type: "string" } } } });
const seeOther = {
  description: "See Other: back to the page (after signing in or out)",
  headers: { Location: { required: true, schema: { type: "string" } } },
};

export const devicePageDocumentation: OwnPaths = {
  paths: {
    "/device": {
      get: {
        tags: ["oauth"],
        // HTML for browsers: bad input is said on the page, never a 422 envelope.
        "x-html-page": true,
        summary: "The device page (RFC 8628 section 3.3): a sign-in form, or the code form prefilled from ?user_code=",
        parameters: [{ name: "user_code", in: "query", required: false, schema: { type: "string" } }],
        responses: { 200: page("the page"), 503: page(DATABASE_AWAY) },
      },
      post: {
        tags: ["oauth"],
        "x-html-page": true,
        summary: "The device page's forms: sign in or out, look a user code up, approve or deny it",
        description:
          "application/x-www-form-urlencoded with the page's csrf token: action=sign_in (email, password), action=sign_in_passkey (passkey: the JSON of a passkey's answer to the form's data-passkey options), action=sign_in_code (challenge and code, recovery_code or passkey), action=sign_out, user_code (shows the app and its scopes), user_code with decision=approve|deny. A missing or wrong token, or another Origin, is 403 and changes nothing.",
        requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: { type: "object" } } } },
        responses: {
          200: page("the next step, or the outcome"),
          303: seeOther,
          400: page("not a form"),
          401: page("the sign-in form again: wrong email or password, or not signed in"),
          403: page("the form did not come from this page of this page session"),
          404: page("the code form again: no such code, or it has expired"),
          409: page("the code form again: the code was already used"),
          422: page("the sign-in form (or the second step) again: a passkey's answer not accepted"),
          429: page("too many wrong codes or sign-in attempts, or the mutation rate tier"),
          503: page(`the limits cannot be counted: nothing is tried; or ${DATABASE_AWAY}`),
        },
      },
    },
  },
};
