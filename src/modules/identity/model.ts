// The identity routes' request and response models: accounts and sessions, then API keys.
import { t } from "elysia";
import { Enum, Int, Page } from "../../http/envelope.ts";
import { SCOPES } from "../../core/scopes.ts";
import { PlainText } from "../../core/text.ts";
import { PLAN_NAMES } from "../../core/plans.ts";
import { NOTIFICATION_KIND_NAMES } from "./notification-settings.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password.ts";

export const PlanEnum = Enum(PLAN_NAMES);

export const Credentials = t.Object({
  email: t.String({ format: "email", maxLength: 254 }),
  password: t.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
});

export const SignupBody = t.Object({
  email: t.String({ format: "email", maxLength: 254 }),
  password: t.String({
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
    description: `at least ${PASSWORD_MIN_LENGTH} characters, not only one repeated character`,
  }),
  nickname: t.Optional(PlainText({ minLength: 1, maxLength: 64 })),
});

const SessionUser = t.Object({ id: t.String(), email: t.String(), nickname: t.Nullable(t.String()), plan: PlanEnum, isAdmin: t.Boolean() });

export const SessionGrant = t.Object({
  user: SessionUser,
  accessToken: t.String(),
  expiresIn: Int({ description: "seconds" }),
});

/** A sign-up's grant also says whether the account became the instance's first (its admin). */
export const SignupGrant = t.Object({
  ...SessionGrant.properties,
  firstAccount: t.Boolean({
    description: "true when this was the first account on an instance with no accounts: it is an admin on FIRST_USER_PLAN (FIRST_USER_ADMIN)",
  }),
  notice: t.Nullable(t.String({ description: "a sentence for the person signing up when something about the account needs saying; else null" })),
});

/**
 * GET /v1/auth/setup: what a sign-up page needs before anyone can sign in: whether the
 * instance has an account yet and, while it has none, what the first one becomes.
 */
export const SetupState = t.Object({
  hasAccounts: t.Boolean({ description: "false on an instance with no account yet: the next sign-up makes its first" }),
  firstAccount: t.Nullable(
    t.Object({
      isAdmin: t.Boolean({ description: "the first account becomes an administrator (FIRST_USER_ADMIN, on unless the operator turned it off)" }),
      plan: Enum(PLAN_NAMES, { description: "its plan: FIRST_USER_PLAN, or DEFAULT_PLAN when FIRST_USER_ADMIN is off" }),
      laterPlan: Enum(PLAN_NAMES, { description: "the plan every later account gets (DEFAULT_PLAN)" }),
    }),
    { description: "what the first account becomes; null once there is an account" },
  ),
  oidc: t.Nullable(
    t.Object({
      name: t.String({ description: 'the provider\'s name for the button "Sign in with <name>" (OIDC_NAME)' }),
      signup: t.Boolean({ description: "whether a first sign-in through it makes an account (OIDC_SIGNUP)" }),
    }),
    { description: "the OpenID provider people may sign in through (GET /v1/auth/oidc/start); null when the operator named none" },
  ),
});
export type SetupState = typeof SetupState.static;

/** Sign-up, login and refresh set the refresh cookie; logout clears it. */
export const SetsRefreshCookie = {
  "Set-Cookie": t.String({
    description: "the refresh cookie: shelf_refresh=<token>; Max-Age=604800; Path=/v1/auth; HttpOnly; SameSite=Lax (and Secure on https); Max-Age=0 clears it",
  }),
};

export const SetsSignInCookies = {
  "Set-Cookie": t.String({
    description:
      "the refresh cookie as above, and the device cookie: shelf_device=<proof>; Max-Age=15552000; Path=/v1/auth/login; HttpOnly; SameSite=Lax (and Secure on https)",
  }),
};

const Choice = t.Object({
  email: t.Boolean({ description: "sent by e-mail" }),
  inApp: t.Boolean({ description: "listed at GET /v1/notifications" }),
  emailMandatory: t.Boolean({ description: "the e-mail cannot be turned off (a quota used up, video bandwidth)" }),
});
const ChoicePatch = t.Object({ email: t.Optional(t.Boolean()), inApp: t.Optional(t.Boolean()) }, { additionalProperties: false });

/** Per kind, where notifications go. */
const NotificationSettings = t.Object(
  Object.fromEntries(NOTIFICATION_KIND_NAMES.map((k) => [k, Choice])) as Record<(typeof NOTIFICATION_KIND_NAMES)[number], typeof Choice>,
  {
    description:
      "per notification kind, whether it is e-mailed and whether it is listed in-app. In-app is on for every kind by default; e-mail is on by default for quota_80 (the same switch as quotaWarnings), the mandatory quota_100 and video_bandwidth_* (their e-mail cannot be turned off) and conflict_branches_expiring, and off for the others",
  },
);
const NotificationSettingsPatch = t.Partial(
  t.Object(Object.fromEntries(NOTIFICATION_KIND_NAMES.map((k) => [k, ChoicePatch])) as Record<(typeof NOTIFICATION_KIND_NAMES)[number], typeof ChoicePatch>, {
    additionalProperties: false,
  }),
);

export const PasswordChange = t.Object(
  {
    currentPassword: t.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
    newPassword: t.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
  },
  { additionalProperties: false },
);

export const SignupHeld = t.Object({
  verificationRequired: t.Literal(true),
  message: t.String({ description: "what the person should do next: open the link mailed to the address" }),
});

export const EmailChangeAsk = t.Object(
  {
    newEmail: t.String({ format: "email", maxLength: 254 }),
    currentPassword: t.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
  },
  { additionalProperties: false },
);

export const LinkToken = t.Object(
  { token: t.String({ minLength: 1, maxLength: 128, description: "the token of the link the e-mail holds" }) },
  { additionalProperties: false },
);

export const ResetAsk = t.Object({ email: t.String({ format: "email", maxLength: 254 }) }, { additionalProperties: false });

export const ResetAsked = t.Object({ message: t.String({ description: "the same words whether the address has an account or not" }) });

export const ResetConfirm = t.Object(
  {
    token: t.String({ minLength: 1, maxLength: 128, description: "the token of the link the reset e-mail holds" }),
    newPassword: t.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
  },
  { additionalProperties: false },
);

export const Me = t.Object({
  id: t.String(),
  email: t.String(),
  emailVerified: t.Boolean({ description: "the owner opened a link mailed to this address (a sign-up's, an address change's or a password reset's)" }),
  nickname: t.Nullable(t.String()),
  plan: PlanEnum,
  planActive: t.Boolean(),
  planExpiresAt: t.Nullable(t.String({ format: "date-time" })),
  isAdmin: t.Boolean(),
  docVersioningEnabled: t.Boolean(),
  docVersioningMax: Int(),
  quotaWarnings: t.Boolean({ description: "whether the optional 80% quota e-mails are sent (100% and video bandwidth e-mails always are)" }),
  notifications: NotificationSettings,
  twoFactor: t.Object({
    totp: t.Boolean({ description: "signing in asks for a code of an authenticator app after the password" }),
    recoveryCodesLeft: Int({ description: "unused recovery codes (0 while two factors are off)" }),
  }),
  hasPassword: t.Boolean({
    description: "false for an account made by signing in through the instance's OpenID provider until it sets a password (POST /v1/auth/password-reset)",
  }),
  createdAt: t.String({ format: "date-time" }),
});
export type Me = typeof Me.static;

export const MePatch = t.Object(
  {
    nickname: t.Optional(t.Nullable(PlainText({ minLength: 1, maxLength: 64 }))),
    docVersioningEnabled: t.Optional(t.Boolean()),
    docVersioningMax: t.Optional(Int({ minimum: 1, maximum: 500 })),
    quotaWarnings: t.Optional(t.Boolean()),
    notifications: t.Optional(NotificationSettingsPatch),
  },
  { additionalProperties: false },
);

const ScopeEnum = Enum(SCOPES);

export const CreateKeyBody = t.Object(
  {
    name: PlainText({ minLength: 1, maxLength: 100 }),
    scopes: t.Optional(
      t.Array(t.String({ maxLength: 64 }), {
        maxItems: 20,
        description: "scope names or a legacy tier: read, read_write, read_write_delete. Default: every *.read and *.write scope",
      }),
    ),
  },
  { additionalProperties: false },
);

const ApiKeyItem = t.Object({
  id: t.String(),
  name: t.String(),
  last4: t.String(),
  scopes: t.Array(ScopeEnum),
  lastUsedAt: t.Nullable(t.String({ format: "date-time" })),
  createdAt: t.String({ format: "date-time" }),
});

export const CreatedKey = t.Object({
  id: t.String(),
  name: t.String(),
  key: t.String({ description: "shown once; only its hash is stored" }),
  last4: t.String(),
  scopes: t.Array(ScopeEnum),
  createdAt: t.String({ format: "date-time" }),
});

export const KeyPage = Page(ApiKeyItem);

const SessionItem = t.Object({
  id: t.String(),
  current: t.Boolean({ description: "the session of the access token that asked" }),
  device: t.Nullable(t.String({ description: 'browser and system read from the User-Agent, e.g. "Firefox 133 on Linux"' })),
  userAgent: t.Nullable(t.String({ description: "the User-Agent of the sign-in, as sent" })),
  address: t.Nullable(t.String({ description: "the client address of the sign-in, then of the latest refresh" })),
  createdAt: t.String({ format: "date-time", description: "the sign-in" }),
  lastUsedAt: t.Nullable(
    t.String({ format: "date-time", description: "the latest sign-in or refresh (access tokens are refreshed every few minutes of use)" }),
  ),
});

export const SessionPage = Page(SessionItem);

export const SessionsEnded = t.Object({ ended: t.Number({ minimum: 0, description: "how many sessions were ended" }) });

/** Every scope a key may hold, in the words the consent page uses, and which a new key gets unless told. */
export const ScopeCatalog = t.Object({
  scopes: t.Array(
    t.Object({
      name: ScopeEnum,
      description: t.String({ description: "what a credential with it may do, as a person reads it" }),
      default: t.Boolean({ description: "a key made without `scopes` gets it" }),
    }),
  ),
});

export const KeyListQuery = t.Object({
  cursor: t.Optional(t.String()),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
});

export const TotpEnrolment = t.Object({
  secret: t.String({ description: "the base32 secret, for an authenticator app that cannot read the URL; shown here only" }),
  otpauthUrl: t.String({ description: "otpauth://totp/... for an authenticator app" }),
  qrCode: t.String({ description: "the otpauth URL as a QR code: a data:image/svg+xml;base64 URL for an <img>" }),
});

const TotpCode = t.String({ minLength: 1, maxLength: 16, description: "the 6-digit code the authenticator app shows" });

export const TotpCodeBody = t.Object({ code: TotpCode }, { additionalProperties: false });

export const RecoveryCodes = t.Object({
  recoveryCodes: t.Array(t.String(), { description: "single-use codes that sign in instead of a TOTP code; shown this once, only their hashes are stored" }),
});

export const TwoFactorOff = t.Object(
  {
    password: t.Optional(t.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH })),
    code: t.Optional(TotpCode),
  },
  { additionalProperties: false, description: "the account's password, or a current code" },
);

const B64 = (maxLength: number, description?: string) => t.String({ minLength: 1, maxLength, pattern: "^[A-Za-z0-9_-]+={0,2}$", description });

const CredentialCommon = {
  id: B64(1024, "the credential id, base64url"),
  rawId: B64(1024),
  type: t.Literal("public-key"),
  clientExtensionResults: t.Object({}, { additionalProperties: true }),
  authenticatorAttachment: t.Optional(t.String({ maxLength: 32 })),
};

/** What navigator.credentials.create() gave, as PublicKeyCredential.toJSON() (or @simplewebauthn/browser) writes it. */
const RegistrationResponse = t.Object(
  {
    ...CredentialCommon,
    response: t.Object(
      {
        clientDataJSON: B64(8192),
        attestationObject: B64(65536),
        transports: t.Optional(t.Array(t.String({ maxLength: 32 }), { maxItems: 8 })),
        authenticatorData: t.Optional(B64(65536)),
        publicKey: t.Optional(B64(65536)),
        publicKeyAlgorithm: t.Optional(Int()),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true, description: "the authenticator's answer: PublicKeyCredential.toJSON() of navigator.credentials.create()" },
);

/** What navigator.credentials.get() gave, as PublicKeyCredential.toJSON() writes it. */
const AssertionResponse = t.Object(
  {
    ...CredentialCommon,
    response: t.Object(
      {
        clientDataJSON: B64(8192),
        authenticatorData: B64(65536),
        signature: B64(8192),
        userHandle: t.Optional(t.String({ maxLength: 256 })),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true, description: "the authenticator's answer: PublicKeyCredential.toJSON() of navigator.credentials.get()" },
);

const PublicKeyOptions = (description: string) => t.Object({ challenge: t.String() }, { additionalProperties: true, description });

export const PasskeyCreationOptions = t.Object({
  options: PublicKeyOptions(
    "PublicKeyCredentialCreationOptionsJSON for navigator.credentials.create() (PublicKeyCredential.parseCreationOptionsFromJSON, or @simplewebauthn/browser's startRegistration); its challenge works once, for 5 minutes",
  ),
});

export const PasskeyRequestOptions = t.Object({
  options: PublicKeyOptions(
    "PublicKeyCredentialRequestOptionsJSON for navigator.credentials.get() (PublicKeyCredential.parseRequestOptionsFromJSON, or startAuthentication); no allowCredentials: any passkey of this site may answer (conditional UI too)",
  ),
  expiresIn: Int({ description: "seconds the challenge is good for" }),
});

const PasskeyName = PlainText({ minLength: 1, maxLength: 64, description: 'a name the owner knows it by ("Laptop", "Phone")' });

export const PasskeyAdd = t.Object({ name: PasskeyName, response: RegistrationResponse }, { additionalProperties: false });

export const PasskeyRename = t.Object({ name: PasskeyName }, { additionalProperties: false });

export const PasskeyItem = t.Object({
  id: t.String(),
  name: t.String(),
  deviceType: Enum(["singleDevice", "multiDevice"] as const, { description: "multiDevice: a synced passkey (a password manager's, a platform's account)" }),
  backedUp: t.Boolean({ description: "the passkey is backed up (synced): losing this device does not lose it" }),
  createdAt: t.String({ format: "date-time" }),
  lastUsedAt: t.Nullable(t.String({ format: "date-time", description: "its latest sign-in or second step" })),
});

export const PasskeyAdded = t.Object({
  passkey: PasskeyItem,
  recoveryCodes: t.Nullable(
    t.Array(t.String(), {
      description: "when this passkey is the account's first factor beyond the password: 10 single-use recovery codes, shown this once; else null",
    }),
  ),
});

export const PasskeyPage = Page(PasskeyItem);

export const PasskeySignIn = t.Object({ response: AssertionResponse }, { additionalProperties: false });

export const SecondFactor = t.Object(
  {
    challenge: t.String({ minLength: 1, maxLength: 128, description: "meta.challenge of the login's 401 TWO_FACTOR_REQUIRED" }),
    code: t.Optional(TotpCode),
    recoveryCode: t.Optional(t.String({ minLength: 1, maxLength: 64, description: "one of the account's recovery codes, instead of code" })),
    passkey: t.Optional(AssertionResponse),
  },
  { additionalProperties: false },
);
