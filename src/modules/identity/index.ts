// Identity over HTTP: accounts and sessions (/v1/auth/*, /v1/user/me) and API keys
// (/v1/api-keys), two controllers mounted as one module.
import { Elysia, t } from "elysia";
import { clientIp } from "../../http/client-ip.ts";
import { NoContent, Ok, ok, sharedModels } from "../../http/envelope.ts";
import { AppError, validationError } from "../../core/errors.ts";
import { withHeaders } from "../../http/openapi.ts";
import { ownSiteGuard } from "../../http/own-site.ts";
import { addressesOf } from "../../http/addresses.ts";
import { ID_PATTERN } from "../../infra/ids.ts";
import type { RouteServices } from "../../wiring/services.ts";
import { changePassword, patchMe } from "./account-settings.ts";
import { createApiKey, DEFAULT_KEY_SCOPES, listApiKeys, revokeApiKey } from "./api-keys.ts";
import { SCOPE_DESCRIPTIONS, SCOPES } from "../../core/scopes.ts";
import { DEVICE_COOKIE, deviceCookie } from "./device-proof.ts";
import { endSession, endSessionsBut, listSessions } from "./devices.ts";
import { askPasswordReset, resetPassword } from "./password-reset.ts";
import { askEmailChange, askVerifyLink, confirmEmailChange, signupToVerify, verifyEmail } from "./email-address.ts";
import { createLoginLimiter } from "./login-limit.ts";
import {
  CreatedKey,
  CreateKeyBody,
  Credentials,
  KeyListQuery,
  KeyPage,
  Me,
  MePatch,
  RecoveryCodes,
  SecondFactor,
  TotpCodeBody,
  TotpEnrolment,
  TwoFactorOff,
  PasswordChange,
  EmailChangeAsk,
  LinkToken,
  ResetAsk,
  SignupHeld,
  ResetAsked,
  ResetConfirm,
  ScopeCatalog,
  SessionGrant as SessionGrantModel,
  SessionPage,
  SessionsEnded,
  SetsRefreshCookie,
  SetsSignInCookies,
  SetupState,
  SignupBody,
  SignupGrant,
} from "./model.ts";
import { assertPasswordAcceptable } from "./password.ts";
import { login, logout, refresh, signup } from "./sessions.ts";
import { setupState } from "./setup.ts";
import { completeSignIn, signInWithPassword } from "./sign-in.ts";
import { confirmTotp, disableTwoFactor, enrolTotp, regenerateRecoveryCodes } from "./two-factor.ts";
import { REFRESH_COOKIE, REFRESH_PATH } from "./session-cookies.ts";
import { requireUser, toMe } from "./users.ts";
import { sessionAnswers } from "./session-answer.ts";
import { passkeyController } from "./passkeys.routes.ts";
import { relyingPartyOf } from "./passkey-ceremony.ts";

export { REFRESH_COOKIE } from "./session-cookies.ts";

const authController = ({ deps, identity, guard, notify }: RouteServices) => {
  const { signer } = identity;
  const limiter = createLoginLimiter(deps.kv, deps.clock);
  const { secureAt, grantBody, withSession } = sessionAnswers(deps);
  const RefreshCookie = t.Cookie({ [REFRESH_COOKIE]: t.Optional(t.String({ maxLength: 512 })) });

  return new Elysia({ name: "auth", detail: { tags: ["auth"] } })
    .use(sharedModels)
    .use(guard)
    .use(ownSiteGuard(deps.config))
    .get(
      "/v1/auth/setup",
      async ({ set }) => {
        set.headers["cache-control"] = "no-store";
        return ok(await setupState(deps));
      },
      {
        response: { 200: Ok(SetupState) },
        detail: {
          summary: "Whether the instance has an account yet, and what its first account becomes (no credential)",
          description:
            "For a sign-up page before anyone can sign in: on an instance with no account (hasAccounts false) the next sign-up makes its first, which firstAccount describes: an administrator on FIRST_USER_PLAN unless the operator set FIRST_USER_ADMIN=false (then DEFAULT_PLAN and no administrator), laterPlan being what every later account gets. Once there is an account, hasAccounts is true and firstAccount null. Answered with Cache-Control: no-store, since the first sign-up changes it.",
        },
      },
    )
    .post(
      "/v1/auth/signup",
      async ({ body, request, server }) => {
        // Before the limiter: a refused password does not use up the address's sign-ups.
        assertPasswordAcceptable(body.password);
        await limiter.assertSignupAllowed(clientIp(request, server, deps.config.TRUST_PROXY));
        const client = { userAgent: request.headers.get("user-agent") ?? undefined, address: clientIp(request, server, deps.config.TRUST_PROXY) };
        let grant: Awaited<ReturnType<typeof signup>>;
        if (deps.config.SIGNUP_EMAIL_VERIFICATION) {
          const first = await signupToVerify(deps, body, notify);
          if (!first) {
            const message = "Your account is made. Open the link we mailed to your address to confirm it; then sign in.";
            return Response.json(ok({ verificationRequired: true as const, message }), { status: 202 });
          }
          grant = { ...(await login(deps, signer, first, client)), user: first };
        } else grant = await signup(deps, signer, body, client);
        const { firstAccount, plan } = grant.user;
        const notice = firstAccount
          ? `This is the first account on this instance: it is an administrator on plan ${plan}. Later accounts get plan ${deps.config.DEFAULT_PLAN}.`
          : null;
        return withSession(request, 201, ok({ ...grantBody(grant), firstAccount, notice }), grant);
      },
      {
        body: SignupBody,
        cookie: RefreshCookie,
        ownSite: true,
        response: { 201: withHeaders(Ok(SignupGrant), SetsRefreshCookie), 202: Ok(SignupHeld), 409: "Error", 422: "Error", 429: "Error", 503: "Error" },
        detail: {
          summary: "Create an account; sets the refresh cookie",
          description:
            "The account gets DEFAULT_PLAN (trial unless the operator set another). On an instance with no accounts, the first one is an administrator on FIRST_USER_PLAN (the largest plan unless set), and the answer says so (firstAccount, notice); an operator of a public instance turns that off with FIRST_USER_ADMIN=false. With SIGNUP_EMAIL_VERIFICATION on, a sign-up (but the instance's first) answers 202 { verificationRequired, message } without a session: a link is mailed to the address, and until it is opened (POST /v1/auth/verify-email/confirm) signing in is 403 EMAIL_NOT_VERIFIED.",
        },
      },
    )
    .post(
      "/v1/auth/verify-email",
      async ({ body, request, server, status }) => {
        await askVerifyLink(deps, { email: body.email, ip: clientIp(request, server, deps.config.TRUST_PROXY) }, notify, identity.afterAnswer);
        return status(202, ok({ message: "If an account with this address is waiting for its confirmation, a new link is on its way." }));
      },
      {
        body: ResetAsk,
        ownSite: true,
        response: { 202: Ok(ResetAsked), 422: "Error", 429: "Error", 503: "Error" },
        detail: {
          summary: "Mail a new confirmation link to a sign-up that has not confirmed its address; the same answer for any address",
          description: "At most 3 links an hour per account; 429 RATE_LIMITED past 20 asks an hour from one address.",
        },
      },
    )
    .post(
      "/v1/auth/verify-email/confirm",
      async ({ body, status }) => {
        await verifyEmail(deps, body.token);
        return status(204, undefined);
      },
      {
        body: LinkToken,
        ownSite: true,
        response: { 204: NoContent, 400: "Error", 422: "Error" },
        detail: {
          summary: "Confirm a sign-up's address with its mailed link's token: the account can sign in from now on",
          description: "400 RESET_TOKEN_INVALID for a token unknown, already used, expired, or for an address the account no longer has.",
        },
      },
    )
    .post(
      "/v1/auth/email-change/confirm",
      async ({ body, status }) => {
        await confirmEmailChange(deps, body.token, notify);
        return status(204, undefined);
      },
      {
        body: LinkToken,
        ownSite: true,
        response: { 204: NoContent, 400: "Error", 409: "Error", 422: "Error" },
        detail: {
          summary: "Confirm a new address with the link mailed to it: the account's address becomes it, and the old address is told",
          description:
            "400 RESET_TOKEN_INVALID for a token unknown, already used or expired; 409 CONFLICT when another account took the address meanwhile. No credential: the link may be opened on any device.",
        },
      },
    )
    .post(
      "/v1/auth/login",
      async ({ body, cookie, request, server }) => {
        const ip = clientIp(request, server, deps.config.TRUST_PROXY);
        const deviceProof = cookie[DEVICE_COOKIE]!.value;
        const userAgent = request.headers.get("user-agent") ?? undefined;
        const rp = relyingPartyOf(deps.config, addressesOf(deps.config, request));
        const grant = await signInWithPassword(deps, signer, { email: body.email, password: body.password, ip, userAgent, deviceProof, rp }, notify);
        return withSession(request, 200, ok(grantBody(grant)), grant, [deviceCookie(grant.deviceProof, "/v1/auth/login", secureAt(request))]);
      },
      {
        body: Credentials,
        cookie: t.Cookie({ [REFRESH_COOKIE]: t.Optional(t.String({ maxLength: 512 })), [DEVICE_COOKIE]: t.Optional(t.String()) }),
        ownSite: true,
        response: { 200: withHeaders(Ok(SessionGrantModel), SetsSignInCookies), 401: "Error", 429: "Error", 503: "Error" },
        detail: {
          summary: "Sign in; sets the refresh cookie and the device cookie. Failures are limited per email and address, per address, and per email",
          description:
            "429 RATE_LIMITED (meta.per email_address, address or email) with Retry-After. The device cookie proves a later sign-in from this browser is the owner's: it is not refused for the email's failures from elsewhere, nor is an address the account signed in from in the last 30 days. With two-factor authentication on, the right password opens no session: the answer is 401 TWO_FACTOR_REQUIRED with meta.challenge (valid 5 minutes) and meta.expiresIn, and POST /v1/auth/login/2fa completes the sign-in.",
        },
      },
    )
    .post(
      "/v1/auth/login/2fa",
      async ({ body, cookie, request, server }) => {
        const ip = clientIp(request, server, deps.config.TRUST_PROXY);
        const deviceProof = cookie[DEVICE_COOKIE]!.value;
        const userAgent = request.headers.get("user-agent") ?? undefined;
        if ([body.code, body.recoveryCode, body.passkey].filter((a) => a !== undefined).length !== 1) {
          throw validationError("body.code", "give one of code, recoveryCode or passkey");
        }
        const rp = relyingPartyOf(deps.config, addressesOf(deps.config, request));
        const grant = await completeSignIn(deps, signer, { ...body, passkey: body.passkey as never, ip, userAgent, deviceProof, rp }, notify);
        return withSession(request, 200, ok(grantBody(grant)), grant, [deviceCookie(grant.deviceProof, "/v1/auth/login", secureAt(request))]);
      },
      {
        body: SecondFactor,
        cookie: t.Cookie({ [REFRESH_COOKIE]: t.Optional(t.String({ maxLength: 512 })), [DEVICE_COOKIE]: t.Optional(t.String()) }),
        ownSite: true,
        response: { 200: withHeaders(Ok(SessionGrantModel), SetsSignInCookies), 401: "Error", 422: "Error", 429: "Error", 503: "Error" },
        detail: {
          summary:
            "Complete a sign-in with two factors: the login's challenge and a code of the authenticator app or a recovery code; sets the login's cookies",
          description:
            "401 UNAUTHORIZED for a wrong code (meta.triesLeft), or for a challenge unknown, expired (5 minutes), used or past its 5 tries: sign in again with the password. A code is accepted once (a second use of the same code is refused), a recovery code too. Each try counts in the login limits (429 RATE_LIMITED as the login). A recovery code used tells the owner (recovery_code_used).",
        },
      },
    )
    .post(
      "/v1/auth/password-reset",
      async ({ body, request, server, status }) => {
        await askPasswordReset(deps, { email: body.email, ip: clientIp(request, server, deps.config.TRUST_PROXY) }, notify, identity.afterAnswer);
        return status(202, ok({ message: "If an account has this address, a link to choose a new password is on its way. It works once, within an hour." }));
      },
      {
        body: ResetAsk,
        ownSite: true,
        response: { 202: Ok(ResetAsked), 422: "Error", 429: "Error", 503: "Error" },
        detail: {
          summary: "Ask for a password reset link by e-mail; the same answer whether the address has an account or not",
          description:
            "An account with this address is mailed a link (CENTER_URL/#/reset-password?token=...) that works once, within an hour; at most 3 an hour per account (more asks answer the same and mail nothing). 429 RATE_LIMITED past 20 asks an hour from one address.",
        },
      },
    )
    .post(
      "/v1/auth/password-reset/confirm",
      async ({ body, status }) => {
        await resetPassword(deps, body, notify);
        return status(204, undefined);
      },
      {
        body: ResetConfirm,
        ownSite: true,
        response: { 204: NoContent, 400: "Error", 422: "Error" },
        detail: {
          summary: "Set a new password with a reset link's token; every session of the account ends",
          description:
            "400 RESET_TOKEN_INVALID for a token unknown, already used or expired. On success every device signed in to the account is signed out on every node, every other reset link of the account stops working, and the owner gets a password_changed notification.",
        },
      },
    )
    .post(
      "/v1/auth/refresh",
      async ({ cookie, request, server }) => {
        const token = cookie[REFRESH_COOKIE]!.value;
        if (!token) throw new AppError("UNAUTHORIZED", "no refresh cookie");
        try {
          const grant = await refresh(deps, signer, token, { address: clientIp(request, server, deps.config.TRUST_PROXY) });
          return withSession(request, 200, ok(grantBody(grant)), grant);
        } catch (e) {
          // An error answer is the app's envelope; the jar adds the one cookie it clears.
          cookie[REFRESH_COOKIE]!.set({ value: "", maxAge: 0, httpOnly: true, sameSite: "lax", path: REFRESH_PATH, secure: secureAt(request) });
          throw e;
        }
      },
      {
        cookie: RefreshCookie,
        ownSite: true,
        response: { 200: withHeaders(Ok(SessionGrantModel), SetsRefreshCookie), 401: "Error" },
        detail: {
          summary: "Rotate the refresh cookie and get a new access token; a reused refresh token ends the session",
          description:
            "A refresh token presented again within REFRESH_REUSE_GRACE_S seconds of its rotation (two tabs refreshing at once) gets the same successor cookie and a new access token; later, or once that successor has been used, it ends the session (401 UNAUTHORIZED, meta.reason refresh_token_reused).",
        },
      },
    )
    .post(
      "/v1/auth/logout",
      async ({ cookie, headers, request }) => {
        const token = cookie[REFRESH_COOKIE]!.value;
        let sessionId: string | undefined;
        if (headers.authorization) {
          const p = await identity.resolvePrincipal(headers.authorization).catch(() => undefined);
          sessionId = p?.sessionId;
        }
        await logout(deps, { refreshToken: token || undefined, sessionId });
        return withSession(request, 204, undefined);
      },
      {
        cookie: RefreshCookie,
        ownSite: true,
        response: { 204: withHeaders(NoContent, SetsRefreshCookie) },
        detail: { summary: "End the session of the refresh cookie (or of the bearer access token)" },
      },
    )
    .get(
      "/v1/user/me",
      async ({ principal }) => {
        const user = await requireUser(deps.db, principal.userId);
        return ok(toMe(user, deps.clock.now()));
      },
      {
        auth: { scope: "account.read", tier: "read" },
        response: { 200: Ok(Me), 404: "Error" },
        detail: { tags: ["account"], summary: "The caller's profile" },
      },
    )
    .patch(
      "/v1/user/me",
      async ({ principal, body }) => {
        const user = await patchMe(deps, principal.userId, body);
        return ok(toMe(user, deps.clock.now()));
      },
      {
        auth: { scope: "session", tier: "mutation" },
        body: MePatch,
        response: { 200: Ok(Me), 404: "Error", 422: "Error" },
        detail: {
          tags: ["account"],
          summary: "Update nickname, document version-history settings, the optional quota e-mails and the per-kind notification choices",
          description:
            "docVersioningEnabled (default off) keeps the previous content of a document replaced at its KB path as a revision; docVersioningMax (1 to 500, default 20) is how many each document keeps, its oldest pruned past it. Whatever these say, the account's revisions together keep at most the plan's planLimits.revisionBytes (GET /v1/user/me/usage): a replacement, sync, restore or accepted conflict branch past it prunes the account's oldest revisions across all its documents (oldest createdAt, then revNumber) and is never refused; a content larger than the whole cap is not kept as a revision. notifications sets, per kind, { email, inApp } (either may be left out); turning off a mandatory e-mail is 422 VALIDATION_ERROR.",
        },
      },
    )
    .post(
      "/v1/user/me/password",
      async ({ principal, body, status }) => {
        assertPasswordAcceptable(body.newPassword, "body.newPassword");
        await changePassword(deps, principal.userId, body, notify, principal.sessionId);
        return status(204, undefined);
      },
      {
        auth: { scope: "session", tier: "mutation" },
        body: PasswordChange,
        response: { 204: NoContent, 401: "Error", 404: "Error", 422: "Error" },
        detail: {
          tags: ["account"],
          summary: "Change the password (the current one is asked again); the account's other sessions end, and the user gets a password_changed notification",
        },
      },
    )
    .post(
      "/v1/user/me/email",
      async ({ principal, body, status }) => {
        await askEmailChange(deps, principal.userId, body, notify);
        return status(202, ok({ message: "A link to confirm the new address is on its way to it. The account keeps its address until the link is opened." }));
      },
      {
        auth: { scope: "session", tier: "mutation" },
        body: EmailChangeAsk,
        response: { 202: Ok(ResetAsked), 401: "Error", 409: "Error", 422: "Error", 429: "Error" },
        detail: {
          tags: ["account"],
          summary: "Move the account to another e-mail address: a link is mailed to the new address, and nothing changes until it is opened",
          description:
            "The current password is asked again (401 when wrong). 409 CONFLICT when another account has the address; 422 when it is the account's own; 429 past 3 links an hour. Opening the link (POST /v1/auth/email-change/confirm) moves the account and mails the old address that it did.",
        },
      },
    )
    .post("/v1/user/me/2fa/totp", async ({ principal }) => ok(await enrolTotp(deps, principal.userId)), {
      auth: { scope: "session", tier: "mutation" },
      response: { 200: Ok(TotpEnrolment), 404: "Error", 409: "Error" },
      detail: {
        tags: ["account"],
        summary: "Enrol an authenticator app: a new TOTP secret, pending until a code of it is confirmed",
        description:
          "Signed-in sessions only. Enrolling again replaces a pending secret; 409 CONFLICT while two factors are on. Nothing changes at sign-in until POST /v1/user/me/2fa/totp/confirm.",
      },
    })
    .post("/v1/user/me/2fa/totp/confirm", async ({ principal, body }) => ok(await confirmTotp(deps, principal.userId, body.code, notify)), {
      auth: { scope: "session", tier: "mutation" },
      body: TotpCodeBody,
      response: { 200: Ok(RecoveryCodes), 404: "Error", 409: "Error", 422: "Error", 429: "Error" },
      detail: {
        tags: ["account"],
        summary: "Turn two-factor authentication on with a code of the pending secret: answers the 10 recovery codes, shown this once",
        description:
          "422 VALIDATION_ERROR for a wrong code; 429 RATE_LIMITED past 5 wrong codes in 15 minutes (with the other two-factor routes); 409 CONFLICT without a pending secret. The owner is told (two_factor_enabled).",
      },
    })
    .post("/v1/user/me/2fa/recovery-codes", async ({ principal, body }) => ok(await regenerateRecoveryCodes(deps, principal.userId, body.code)), {
      auth: { scope: "session", tier: "mutation" },
      body: TotpCodeBody,
      response: { 200: Ok(RecoveryCodes), 404: "Error", 409: "Error", 422: "Error", 429: "Error" },
      detail: {
        tags: ["account"],
        summary: "New recovery codes for a current code; the old ones stop working",
        description: "422 VALIDATION_ERROR for a wrong code, 429 past 5 wrong codes in 15 minutes; 409 CONFLICT while two factors are off.",
      },
    })
    .delete(
      "/v1/user/me/2fa",
      async ({ principal, body, status }) => {
        await disableTwoFactor(deps, principal.userId, body, notify);
        return status(204, undefined);
      },
      {
        auth: { scope: "session", tier: "mutation" },
        body: TwoFactorOff,
        response: { 204: NoContent, 401: "Error", 404: "Error", 422: "Error", 429: "Error" },
        detail: {
          tags: ["account"],
          summary: "Turn two-factor authentication off with the password or a current code; the recovery codes go with it",
          description:
            "401 UNAUTHORIZED for a wrong password, 422 VALIDATION_ERROR for a wrong code (429 past 5 in 15 minutes). The owner is told (two_factor_disabled). 204 too when it was off.",
        },
      },
    )
    .get(
      "/v1/user/me/sessions",
      async ({ principal, query }) => ok(await listSessions(deps, principal.userId, principal.sessionId, { cursor: query.cursor, limit: query.limit ?? 20 })),
      {
        auth: { scope: "session", tier: "read" },
        query: KeyListQuery,
        response: { 200: Ok(SessionPage) },
        detail: {
          tags: ["account"],
          summary: "The account's signed-in devices: each live session with its device, address, sign-in and last use, newest first",
          description:
            "Signed-in sessions only (the dashboard, the consent and device pages): an API key or OAuth token gets 403. A session is live until it is ended (sign-out, DELETE here, a password change, a replayed refresh token) or its refresh token expires unused.",
        },
      },
    )
    .delete(
      "/v1/user/me/sessions/:id",
      async ({ principal, params, status }) => {
        await endSession(deps, principal.userId, params.id);
        return status(204, undefined);
      },
      {
        auth: { scope: "session", tier: "mutation" },
        params: t.Object({ id: t.String({ pattern: ID_PATTERN }) }),
        response: { 204: NoContent, 404: "Error" },
        detail: {
          tags: ["account"],
          summary:
            "Sign a device out: its session ends on every node at once (ending the asking session is a sign-out); 404 if it is not a live session of this account",
        },
      },
    )
    .delete(
      "/v1/user/me/sessions",
      async ({ principal }) => ok(await endSessionsBut(deps, principal.userId, principal.sessionId).then((ended) => ({ ended }))),
      {
        auth: { scope: "session", tier: "mutation" },
        response: { 200: Ok(SessionsEnded) },
        detail: { tags: ["account"], summary: "Sign out every other device: every live session but the asking one ends on every node at once" },
      },
    );
};

const apiKeysController = ({ deps, identity, guard, notify }: RouteServices) =>
  new Elysia({ name: "api-keys", detail: { tags: ["api-keys"] } })
    .use(sharedModels)
    .use(guard)
    .post(
      "/v1/api-keys",
      async ({ principal, body, status }) => {
        const user = await requireUser(deps.db, principal.userId);
        const created = await createApiKey(deps, user.id, deps.plans[user.plan], body, notify);
        return status(201, ok(created));
      },
      {
        auth: { scope: "session", tier: "mutation" },
        body: CreateKeyBody,
        response: { 201: Ok(CreatedKey), 404: "Error", 422: "Error" },
        detail: { summary: "Create an API key; the key is in this response only" },
      },
    )
    .get(
      "/v1/api-keys/scopes",
      () => ok({ scopes: SCOPES.map((name) => ({ name, description: SCOPE_DESCRIPTIONS[name], default: DEFAULT_KEY_SCOPES.includes(name) })) }),
      {
        auth: { scope: "account.read", tier: "read" },
        response: { 200: Ok(ScopeCatalog) },
        detail: { summary: "Every scope a key may hold, what it allows in words, and which a new key gets unless told" },
      },
    )
    .get(
      "/v1/api-keys",
      async ({ principal, query }) =>
        ok(await listApiKeys(deps, principal.userId, { cursor: query.cursor, limit: query.limit ?? 20 }, identity.pendingLastUsed)),
      {
        auth: { scope: "account.read", tier: "read" },
        query: KeyListQuery,
        response: { 200: Ok(KeyPage) },
        detail: { summary: "List active keys (never the key itself)" },
      },
    )
    .delete(
      "/v1/api-keys/:id",
      async ({ principal, params, set }) => {
        await revokeApiKey(deps, principal.userId, params.id, notify);
        set.status = 204;
      },
      {
        auth: { scope: "account.read", tier: "mutation" },
        params: t.Object({ id: t.String({ pattern: ID_PATTERN }) }),
        response: { 204: NoContent, 404: "Error" },
        detail: { summary: "Revoke a key (204, no body): refused everywhere within 5 s, permanently" },
      },
    );

export const identityModule = (services: RouteServices) =>
  new Elysia({ name: "identity" }).use(authController(services)).use(passkeyController(services)).use(apiKeysController(services));
