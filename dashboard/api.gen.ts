// Generated from the server's OpenAPI document by scripts/dashboard-types.ts: do not edit.
// The dashboard names the answers it reads through these (answer types in api.ts).
export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process is up (for restarts); checks no part, carries the last readiness checks if any */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database, kv and storage answer (for routing); checked at most once a second */
        get: operations["getReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the instance has an account yet, and what its first account becomes (no credential)
         * @description For a sign-up page before anyone can sign in: on an instance with no account (hasAccounts false) the next sign-up makes its first, which firstAccount describes: an administrator on FIRST_USER_PLAN unless the operator set FIRST_USER_ADMIN=false (then DEFAULT_PLAN and no administrator), laterPlan being what every later account gets. Once there is an account, hasAccounts is true and firstAccount null. Answered with Cache-Control: no-store, since the first sign-up changes it.
         */
        get: operations["getV1AuthSetup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an account; sets the refresh cookie
         * @description The account gets DEFAULT_PLAN (trial unless the operator set another). On an instance with no accounts, the first one is an administrator on FIRST_USER_PLAN (the largest plan unless set), and the answer says so (firstAccount, notice); an operator of a public instance turns that off with FIRST_USER_ADMIN=false. With SIGNUP_EMAIL_VERIFICATION on, a sign-up (but the instance's first) answers 202 { verificationRequired, message } without a session: a link is mailed to the address, and until it is opened (POST /v1/auth/verify-email/confirm) signing in is 403 EMAIL_NOT_VERIFIED.
         */
        post: operations["postV1AuthSignup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/verify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a new confirmation link to a sign-up that has not confirmed its address; the same answer for any address
         * @description At most 3 links an hour per account; 429 RATE_LIMITED past 20 asks an hour from one address.
         */
        post: operations["postV1AuthVerify-email"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/verify-email/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm a sign-up's address with its mailed link's token: the account can sign in from now on
         * @description 400 RESET_TOKEN_INVALID for a token unknown, already used, expired, or for an address the account no longer has.
         */
        post: operations["postV1AuthVerify-emailConfirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/email-change/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm a new address with the link mailed to it: the account's address becomes it, and the old address is told
         * @description 400 RESET_TOKEN_INVALID for a token unknown, already used or expired; 409 CONFLICT when another account took the address meanwhile. No credential: the link may be opened on any device.
         */
        post: operations["postV1AuthEmail-changeConfirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in; sets the refresh cookie and the device cookie. Failures are limited per email and address, per address, and per email
         * @description 429 RATE_LIMITED (meta.per email_address, address or email) with Retry-After. The device cookie proves a later sign-in from this browser is the owner's: it is not refused for the email's failures from elsewhere, nor is an address the account signed in from in the last 30 days. With two-factor authentication on, the right password opens no session: the answer is 401 TWO_FACTOR_REQUIRED with meta.challenge (valid 5 minutes) and meta.expiresIn, and POST /v1/auth/login/2fa completes the sign-in.
         */
        post: operations["postV1AuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/login/2fa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a sign-in with two factors: the login's challenge and a code of the authenticator app or a recovery code; sets the login's cookies
         * @description 401 UNAUTHORIZED for a wrong code (meta.triesLeft), or for a challenge unknown, expired (5 minutes), used or past its 5 tries: sign in again with the password. A code is accepted once (a second use of the same code is refused), a recovery code too. Each try counts in the login limits (429 RATE_LIMITED as the login). A recovery code used tells the owner (recovery_code_used).
         */
        post: operations["postV1AuthLogin2fa"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a password reset link by e-mail; the same answer whether the address has an account or not
         * @description An account with this address is mailed a link (CENTER_URL/#/reset-password?token=...) that works once, within an hour; at most 3 an hour per account (more asks answer the same and mail nothing). 429 RATE_LIMITED past 20 asks an hour from one address.
         */
        post: operations["postV1AuthPassword-reset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with a reset link's token; every session of the account ends
         * @description 400 RESET_TOKEN_INVALID for a token unknown, already used or expired. On success every device signed in to the account is signed out on every node, every other reset link of the account stops working, and the owner gets a password_changed notification.
         */
        post: operations["postV1AuthPassword-resetConfirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the refresh cookie and get a new access token; a reused refresh token ends the session
         * @description A refresh token presented again within REFRESH_REUSE_GRACE_S seconds of its rotation (two tabs refreshing at once) gets the same successor cookie and a new access token; later, or once that successor has been used, it ends the session (401 UNAUTHORIZED, meta.reason refresh_token_reused).
         */
        post: operations["postV1AuthRefresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the session of the refresh cookie (or of the bearer access token) */
        post: operations["postV1AuthLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's profile */
        get: operations["getV1UserMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update nickname, document version-history settings, the optional quota e-mails and the per-kind notification choices
         * @description docVersioningEnabled (default off) keeps the previous content of a document replaced at its KB path as a revision; docVersioningMax (1 to 500, default 20) is how many each document keeps, its oldest pruned past it. Whatever these say, the account's revisions together keep at most the plan's planLimits.revisionBytes (GET /v1/user/me/usage): a replacement, sync, restore or accepted conflict branch past it prunes the account's oldest revisions across all its documents (oldest createdAt, then revNumber) and is never refused; a content larger than the whole cap is not kept as a revision. notifications sets, per kind, { email, inApp } (either may be left out); turning off a mandatory e-mail is 422 VALIDATION_ERROR.
         */
        patch: operations["patchV1UserMe"];
        trace?: never;
    };
    "/v1/user/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the password (the current one is asked again); the account's other sessions end, and the user gets a password_changed notification */
        post: operations["postV1UserMePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move the account to another e-mail address: a link is mailed to the new address, and nothing changes until it is opened
         * @description The current password is asked again (401 when wrong). 409 CONFLICT when another account has the address; 422 when it is the account's own; 429 past 3 links an hour. Opening the link (POST /v1/auth/email-change/confirm) moves the account and mails the old address that it did.
         */
        post: operations["postV1UserMeEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/2fa/totp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enrol an authenticator app: a new TOTP secret, pending until a code of it is confirmed
         * @description Signed-in sessions only. Enrolling again replaces a pending secret; 409 CONFLICT while two factors are on. Nothing changes at sign-in until POST /v1/user/me/2fa/totp/confirm.
         */
        post: operations["postV1UserMe2faTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/2fa/totp/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn two-factor authentication on with a code of the pending secret: answers the 10 recovery codes, shown this once
         * @description 422 VALIDATION_ERROR for a wrong code; 429 RATE_LIMITED past 5 wrong codes in 15 minutes (with the other two-factor routes); 409 CONFLICT without a pending secret. The owner is told (two_factor_enabled).
         */
        post: operations["postV1UserMe2faTotpConfirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/2fa/recovery-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * New recovery codes for a current code; the old ones stop working
         * @description 422 VALIDATION_ERROR for a wrong code, 429 past 5 wrong codes in 15 minutes; 409 CONFLICT while two factors are off.
         */
        post: operations["postV1UserMe2faRecovery-codes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/2fa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Turn two-factor authentication off with the password or a current code; the recovery codes go with it
         * @description 401 UNAUTHORIZED for a wrong password, 422 VALIDATION_ERROR for a wrong code (429 past 5 in 15 minutes). The owner is told (two_factor_disabled). 204 too when it was off.
         */
        delete: operations["deleteV1UserMe2fa"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's signed-in devices: each live session with its device, address, sign-in and last use, newest first
         * @description Signed-in sessions only (the dashboard, the consent and device pages): an API key or OAuth token gets 403. A session is live until it is ended (sign-out, DELETE here, a password change, a replayed refresh token) or its refresh token expires unused.
         */
        get: operations["getV1UserMeSessions"];
        put?: never;
        post?: never;
        /** Sign out every other device: every live session but the asking one ends on every node at once */
        delete: operations["deleteV1UserMeSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Sign a device out: its session ends on every node at once (ending the asking session is a sign-out); 404 if it is not a live session of this account */
        delete: operations["deleteV1UserMeSessionsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/passkeys/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Begin adding a passkey: the options for navigator.credentials.create()
         * @description Signed-in sessions only (an API key or OAuth token gets 403). A discoverable credential (resident key) for the relying party PASSKEY_RP_ID (default CENTER_URL's host), the account's own passkeys excluded. The challenge works once, within 5 minutes, on any api node. 409 CONFLICT at 20 passkeys.
         */
        post: operations["postV1UserMePasskeysOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/passkeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's passkeys, newest first: name, kind (synced or of one device), when added and last used */
        get: operations["getV1UserMePasskeys"];
        put?: never;
        /**
         * Add a passkey: the authenticator's answer to the options, checked, and a name for it
         * @description 422 PASSKEY_INVALID (meta.reason: challenge, origin, rp_id, signature, malformed) when the answer is not for a challenge of this account issued by POST /v1/user/me/passkeys/options and not yet used, or was made at another origin than CENTER_URL's or PUBLIC_URL's, or for another RP ID. 409 CONFLICT for a passkey added already. From now on a password sign-in asks for a second step (a passkey counts as a second factor), and the passkey signs in alone (POST /v1/auth/passkey). The first factor an account adds brings 10 recovery codes, answered this once. The owner is told (passkey_added).
         */
        post: operations["postV1UserMePasskeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/passkeys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a passkey, with the password or a current authenticator code
         * @description 401 UNAUTHORIZED for a wrong password, 422 VALIDATION_ERROR for a wrong code (429 past 5 in 15 minutes). The owner is told (passkey_removed). When it was the account's last second factor (no other passkey, no authenticator app), the recovery codes go with it and the password alone signs in again.
         */
        delete: operations["deleteV1UserMePasskeysById"];
        options?: never;
        head?: never;
        /** Rename a passkey */
        patch: operations["patchV1UserMePasskeysById"];
        trace?: never;
    };
    "/v1/auth/passkey/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Begin signing in with a passkey (no credential): the options for navigator.credentials.get()
         * @description No allow list: any passkey of this relying party may answer, so the browser can offer them in the email field's autofill (mediation conditional). The challenge works once, within 5 minutes, on any api node. 429 RATE_LIMITED past 30 a minute from one address.
         */
        post: operations["postV1AuthPasskeyOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/passkey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with a passkey alone; sets the login's cookies
         * @description The answer of navigator.credentials.get() to POST /v1/auth/passkey/options, made with user verification (a PIN, a fingerprint): it stands for both factors, so no second step follows. The same session, cookies, new-device notice and login limits as POST /v1/auth/login (429 RATE_LIMITED). 422 PASSKEY_INVALID (meta.reason: credential, challenge, origin, rp_id, signature, counter, user_verification, malformed) for a passkey this server does not know, a challenge unknown, expired or used, another origin or RP ID, a bad signature, or a signature counter that did not move forward (a cloned authenticator). 403 EMAIL_NOT_VERIFIED as the login.
         */
        post: operations["postV1AuthPasskey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List active keys (never the key itself) */
        get: operations["getV1Api-keys"];
        put?: never;
        /** Create an API key; the key is in this response only */
        post: operations["postV1Api-keys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/scopes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every scope a key may hold, what it allows in words, and which a new key gets unless told */
        get: operations["getV1Api-keysScopes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a key (204, no body): refused everywhere within 5 s, permanently */
        delete: operations["deleteV1Api-keysById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/identities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's identities at the instance's OpenID provider: each one signs in to this account, newest first
         * @description Signed-in sessions only (an API key or OAuth token gets 403). An identity is linked by its first sign-in through the provider (GET /v1/auth/oidc/start): to the account with the same address when the provider says the address is verified, or to the account that sign-in made.
         */
        get: operations["getV1UserMeIdentities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/identities/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink an identity: it no longer signs in to this account (its next sign-in links again by the rules of a first one)
         * @description 404 NOT_FOUND for an identity not of this account. 409 CONFLICT (meta.reason last_sign_in) when it is the account's only way to sign in: an account made through the provider has no password until it sets one (POST /v1/auth/password-reset mails a link).
         */
        delete: operations["deleteV1UserMeIdentitiesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Quota use and limits
         * @description docs.revisionCount and docs.revisionBytes measure the account's version history; planLimits.revisionBytes is the plan's cap on those bytes (-1: none). History is never a reason to refuse a write: one that would pass the cap prunes the account's oldest revisions, across its documents, in the same transaction.
         */
        get: operations["getV1UserMeUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/usage/daily": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Bandwidth per day over a month
         * @description Image and media bytes served on each UTC day of `month` (default: this month) up to today, zero where none; counted hourly, as the month's bandwidth is. Daily counts are kept 62 days: older days read as zero.
         */
        get: operations["getV1UserMeUsageDaily"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's notifications, newest first (unread=true: unread only), with the unread count
         * @description Quota marks, video bandwidth states, conflict branches (new and about to be discarded), videos ready or failed, and security events (API keys created or revoked, OAuth authorizations, device sign-ins, password changes). Which kinds are listed, and which are also e-mailed, is the user's choice per kind (PATCH /v1/user/me, notifications). Read notifications are kept 30 days, unread ones 90.
         */
        get: operations["getV1Notifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notifications/unread-count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many of the caller's notifications are unread (the same count as the list's unreadCount, without a page) */
        get: operations["getV1NotificationsUnread-count"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notifications/read-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark every unread notification read; answers how many were */
        post: operations["postV1NotificationsRead-all"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notifications/{id}/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark one notification read (again: keeps the first readAt); 404 for one that is not the caller's */
        post: operations["postV1NotificationsByIdRead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List images, newest first; `total` counts the whole library */
        get: operations["getV1Images"];
        put?: never;
        /**
         * Upload an image (multipart/form-data)
         * @description The type is decided by the file's bytes. EXIF/GPS are removed and the orientation applied. Raster images also get a WebP rendition served to clients that accept it.
         */
        post: operations["postV1Images"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/images/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One image */
        get: operations["getV1ImagesById"];
        put?: never;
        post?: never;
        /** Move an image to the trash: its URL stops serving at once; restore it or purge it through /v1/trash */
        delete: operations["deleteV1ImagesById"];
        options?: never;
        head?: never;
        /** Rename, retag, or make an image public or private */
        patch: operations["patchV1ImagesById"];
        trace?: never;
    };
    "/v1/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List documents (newest first by default) */
        get: operations["getV1Docs"];
        put?: never;
        /**
         * Upload a Markdown or Typst document (201), or get the existing one for the same content in the same place (200, duplicate)
         * @description The body is JSON, or multipart/form-data with the document as its `file` part (its name the filename unless a `filename` field is sent) and the other fields as form fields. The format comes from the filename's extension. With kbId and relativePath the document is placed in a KB; an active document at that path gets the new content (200, same id). rewriteImages stores inline data: images as hosted images.
         */
        post: operations["postV1Docs"];
        /** Move up to 50 documents to the trash; a result per id, in input order */
        delete: operations["deleteV1Docs"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/docs/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search the caller's documents by words in their title, KB path and text (best first, with snippets)
         * @description Full-text search over the caller's documents (not deleted ones), in KBs or not: q in web search syntax (words, "a quoted phrase", -word to exclude, or), matched word for word with no stemming, letter case ignored. kbId keeps one KB's documents (404 NOT_FOUND for a KB that is not the caller's). Best first: a match in the title weighs most, then in the KB path, then in the text; ties newest first. Each hit's snippet is plain text (escape it before showing it as HTML) with every matched word between « and »; marks gives the offsets of those words in it, so a « of the document's own is never taken for one. The text of a document larger than 256 KiB lives in the object store and is not searched: it is found by its title and path only. Pages of `limit` (1 to 50, default 10) with nextCursor, sent back as cursor with the same q and kbId (400 INVALID_CURSOR for another). 422 VALIDATION_ERROR (meta.path query.q) for a q with no word to look for (only punctuation, or only exclusions).
         */
        get: operations["getV1DocsSearch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/docs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One document's metadata */
        get: operations["getV1DocsById"];
        put?: never;
        post?: never;
        /** Move a document to the trash (in a KB: its path is reported deleted by the manifest until a restore puts it back) */
        delete: operations["deleteV1DocsById"];
        options?: never;
        head?: never;
        /** Change a document's title, visibility or tags (not its content) */
        patch: operations["patchV1DocsById"];
        trace?: never;
    };
    "/v1/docs/{id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A document's revisions, newest first, and their total bytes (also on an expired plan) */
        get: operations["getV1DocsByIdRevisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/docs/{id}/revisions/{revId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One revision with its content (404 DOC_REVISION_NOT_FOUND) */
        get: operations["getV1DocsByIdRevisionsByRevId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/docs/{id}/revisions/{revId}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Put a revision's content back; the current content is kept as a revision first (403 PLAN_INACTIVE without an active plan) */
        post: operations["postV1DocsByIdRevisionsByRevIdRestore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/doc-revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete the caller's oldest document revisions, at most 200 a call; repeat while hasMore */
        delete: operations["deleteV1UserMeDoc-revisions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/doc-cdn-hosts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The CDN hosts whose images documents may link without a warning */
        get: operations["getV1AdminDoc-cdn-hosts"];
        /** Replace the CDN host allow-list: bare hostnames, exact or with a leading dot for subdomains (422 DOC_INVALID_PATTERN) */
        put: operations["putV1AdminDoc-cdn-hosts"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kbs/{id}/conflicts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A KB's pending conflict branches, oldest (soonest to be discarded) first */
        get: operations["getV1KbsByIdConflicts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kbs/{id}/conflicts/{branchId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One pending conflict branch with its content, and its master's state now */
        get: operations["getV1KbsByIdConflictsByBranchId"];
        put?: never;
        post?: never;
        /** Discard a conflict branch for good (its storage is given back) */
        delete: operations["deleteV1KbsByIdConflictsByBranchId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kbs/{id}/conflicts/{branchId}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Adopt a conflict branch: its content becomes the document's master, the previous master is kept as a revision when version history is on
         * @description One transaction. The document's other pending branches stay. A master deleted since is recreated (403 QUOTA_EXCEEDED past doc_count). Needs an active plan (403 PLAN_INACTIVE).
         */
        post: operations["postV1KbsByIdConflictsByBranchIdAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kbs/{id}/files/{sha256}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A KB file's bytes by their SHA-256, as raw by path answers them (its type, ranges, nosniff, a sandbox CSP) */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description one range, `bytes=a-b`, `bytes=a-` or `bytes=-n` */
                    Range?: string;
                    /** @description the ETag, for a 304 */
                    "If-None-Match"?: string;
                };
                path: {
                    id: string;
                    sha256: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the bytes, with their own Content-Type */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                        "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                        "RateLimit-Reset": components["headers"]["RateLimitReset"];
                        /** @description SHA-256 hex of the bytes */
                        "X-Source-Hash": string;
                        /** @description the SHA-256 of the bytes, quoted */
                        ETag: string;
                        /** @description runs and loads nothing (sandbox), whatever the type */
                        "Content-Security-Policy": string;
                        /** @description `inline` for types a browser shows without running them, `attachment` for any other */
                        "Content-Disposition": string;
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description the Range asked for (Content-Range bytes a-b/size) */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                        "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                        "RateLimit-Reset": components["headers"]["RateLimitReset"];
                        /** @description SHA-256 hex of the bytes */
                        "X-Source-Hash": string;
                        /** @description the SHA-256 of the bytes, quoted */
                        ETag: string;
                        /** @description runs and loads nothing (sandbox), whatever the type */
                        "Content-Security-Policy": string;
                        /** @description `inline` for types a browser shows without running them, `attachment` for any other */
                        "Content-Disposition": string;
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        /** @description bytes a-b/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description the SHA-256 of the bytes, quoted */
                        ETag: string;
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description NOT_FOUND: no such KB (or another user's), or the caller holds no file with these bytes */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the Range starts past the end (Content-Range bytes *\/size) */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                422: components["responses"]["ValidationError"];
                429: components["responses"]["RateLimited"];
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the bytes could not be read */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        /**
         * Store a KB file's bytes under their SHA-256 (201 new; 200 existing: the owner holds them already, the body unread)
         * @description The body is the file itself (any Content-Type), with a Content-Length (411 LENGTH_REQUIRED without one). Refused before a byte is read: 413 FILE_TOO_LARGE past the plan's attachmentMaxBytes, 403 QUOTA_EXCEEDED (meta.type img_storage) when the bytes do not fit the plan's image storage, 403 PLAN_INACTIVE. Streamed to the object store while hashed: 422 HASH_MISMATCH when the bytes' SHA-256 is not the one in the URL, and nothing is kept or counted. The Content-Type is told from the bytes (else from `name`'s extension, else application/octet-stream) and kept with them. The bytes count in img_storage once per owner and hash, however many paths, branches or KBs link them; unlinked, they are removed by the orphan sweep ORPHAN_SWEEP_AFTER_H after their last PUT. Link them to a path with a sync v2 upsert or update of kind `file`. Rate: the `file` tier (600 a minute by default), and new bytes take one token of the syncOp bucket; an existing answer takes none.
         */
        put: operations["putV1KbsByIdFilesBySha256"];
        post?: never;
        delete?: never;
        options?: never;
        /** Whether the caller holds a KB file with these bytes (200 with its size and type) or not (404): ask before a PUT */
        head: operations["headV1KbsByIdFilesBySha256"];
        patch?: never;
        trace?: never;
    };
    "/v1/kbs/{id}/backlinks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The notes of a KB that link to one of its documents
         * @description Markdown notes of the KB whose text links to the document at `path`: a wikilink or embed ([[Note]], [[folder/Note#Heading|alias]], ![[Note]], one in a front matter value too) or a relative Markdown link or image, resolved as Obsidian does (a name matches a document whose file name without extension is that name, whatever its letter case; of several, the one in the linking note's folder, then the shortest path). The document itself is left out. 404 NOT_FOUND for no such KB or no active document at the path; 502 STORAGE_ERROR when a note's text cannot be read.
         */
        get: operations["getV1KbsByIdBacklinks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kbs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List knowledge bases: most recently changed first, or by name */
        get: operations["getV1Kbs"];
        put?: never;
        /** Create a knowledge base (403 KB_LIMIT_REACHED past the plan's count, 409 KB_SLUG_TAKEN) */
        post: operations["postV1Kbs"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kbs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One knowledge base */
        get: operations["getV1KbsById"];
        put?: never;
        post?: never;
        /** Move a knowledge base to the trash: 409 KB_NOT_EMPTY while it holds documents, unless cascade=true (its documents go with it, and come back with it) */
        delete: operations["deleteV1KbsById"];
        options?: never;
        head?: never;
        /** Rename, describe or make default (the slug cannot change; isDefault clears it on the others) */
        patch: operations["patchV1KbsById"];
        trace?: never;
    };
    "/v1/kbs/{id}/manifest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A KB's documents (path, hash, size, times), deleted ones included, oldest change first; store serverTime (v2: sinceCursor) as the next since
         * @description Needs an active plan (403 PLAN_INACTIVE). Pages of 1 to 1000 entries (default 200) and at most 5 MB of documents. v2: since is an ISO instant or a sinceCursor; the last page carries sinceCursor, and with include=tombstones the tombstones after since; a weak ETag, and 304 for If-None-Match when nothing changed; a since older than the plan's tombstone retention answers tombstoneCursorExpired (410 TOMBSTONE_CURSOR_EXPIRED with include=tombstones). Protocol version: header Service-Sync-Version (or query syncVersion; the header wins). Absent or 1: v1; 2: v2. Not a positive number: 400 INVALID_SYNC_VERSION; 3 or more: 400 SYNC_VERSION_UNSUPPORTED. v1 answers 410 SYNC_V1_SUNSET from SYNC_V1_SUNSET_AT on.
         */
        get: operations["getV1KbsByIdManifest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kbs/{id}/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Push ops; each is applied, a conflict or skipped, on its own. v1: up to 100 upserts and deletes. v2: up to 200 upserts, updates, deletes, moves and tombstone_acks, results[] per op, 409 SYNC_CONFLICT (meta.results) when any was refused
         * @description Needs an active plan (403 PLAN_INACTIVE). Ops run independently: an op whose values break a rule (a path rule, NUL or a lone surrogate in its content, a base that is no calendar instant or no SHA-256 hex) is skipped with reason VALIDATION_ERROR (meta.path names the field, meta.problem the rule) and the others apply. The request's shape refuses it whole (422): the op count (INVALID_OP_BATCH_SIZE), a field an op's kind carries and lacks, an op or field of another version, v2's SYNC_HASH_REQUIRED. Every v1 entry and v2 result carries the op's opIndex. Protocol version: header Service-Sync-Version (or query syncVersion; the header wins). Absent or 1: v1; 2: v2. Not a positive number: 400 INVALID_SYNC_VERSION; 3 or more: 400 SYNC_VERSION_UNSUPPORTED. v1 answers 410 SYNC_V1_SUNSET from SYNC_V1_SUNSET_AT on.
         */
        post: operations["postV1KbsByIdSync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kbs/{id}/tree": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One folder of a KB: its subfolders and documents, by name
         * @description The direct children of the folder `prefix` (the top level when absent): each subfolder with how many active documents are under it, their bytes and latest change, and each document with its id, format, size, sourceHash and updatedAt. Sorted by name, letter case ignored; pages of `limit` (1 to 1000, default 200) with nextCursor. A KB holds paths, not folders: a folder with no document under it is 404 NOT_FOUND (meta.entity folder). A prefix that breaks the path rule is 422 at query.prefix. Available on an expired plan, as browsing is.
         */
        get: operations["getV1KbsByIdTree"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kbs/{id}/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The text of up to 50 documents of a KB by path, in the order asked
         * @description Each path is read on its own: `docs[]` has the ones read (with their id, sourceHash and updatedAt, for an edit or a sync op), `failed[]` the others with a reason: NOT_FOUND (no active document there), VALIDATION_ERROR (the path breaks the path rule) or CONTENT_FETCH_FAILED (its text could not be read from the object store). 404 for a KB that is not the caller's.
         */
        post: operations["postV1KbsByIdRead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kbs/{id}/edit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the one occurrence of oldText in a KB document with newText
         * @description An exact find-and-replace: oldText must occur exactly once in the document at `path` (letter for letter; overlapping occurrences count). Otherwise nothing changes and the answer is 409 CONFLICT with meta.reason `no_match` (meta.count 0) or `several_matches` (meta.count, and meta.lines: the lines of the first ten). With baseHash (the sourceHash you read), a document changed since is 409 CONFLICT meta.reason `stale_base`. Every 409 carries meta.currentHash. The new text is written as a sync v2 upsert based on the text the edit was made on: a revision when history is on, the KB's counters and updatedAt, the plan's limits (403 PLAN_INACTIVE, 422 DOC_FILE_TOO_LARGE, 403 QUOTA_EXCEEDED), and a write that lands meanwhile is never overwritten (the edit is made again on the new text; meta.reason `busy` after three such writes). Takes one op from the syncOp bucket. The body is JSON of at most 1 MiB (413 FILE_TOO_LARGE): a larger change is a whole-document write (a sync upsert). 404 NOT_FOUND for a KB that is not the caller's or no active document at the path; 422 for a path that breaks the path rule or a newText with NUL.
         */
        post: operations["postV1KbsByIdEdit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/device/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve or deny a device's user code (signed-in session only: an API key or OAuth token may not)
         * @description 404 NOT_FOUND (meta.entity user_code) for a code that does not exist, and with meta.reason expired for one older than 10 minutes; 409 CONFLICT for one already approved or denied. Codes that do not exist are limited to 10 per user and 50 per address in 15 minutes (429), counted before the code is looked at; when the count cannot be kept, 503.
         */
        post: operations["postV1OauthDeviceVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/oauth-grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Apps the user has authorized (live OAuth grants), newest first */
        get: operations["getV1UserMeOauth-grants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/me/oauth-grants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an app's authorization: every token of it is refused everywhere within 5 s */
        delete: operations["deleteV1UserMeOauth-grantsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/oauth-clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Registered OAuth clients of one status (default: the pending queue), newest first */
        get: operations["getV1AdminOauth-clients"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/oauth-clients/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Approve or reject a registered client
         * @description A pending client may be approved or rejected, an approved one rejected (withdrawn); rejecting revokes every grant of the client. A rejected client stays rejected (409).
         */
        patch: operations["patchV1AdminOauth-clientsById"];
        trace?: never;
    };
    "/webhooks/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A video provider's signed callback (local: Shelf-Signature; mux: Mux-Signature), t=<unix s>,v1=<hex HMAC-SHA256 of "t.body"> */
        post: operations["postWebhooksByProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/videos/{id}/sign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A signed playback URL of a video (a private one plays only through one)
         * @description Body `{ ttlSeconds? }`: 1 to 86400, default 3600. The signature covers the video's id and the expiry, so it opens that video only.
         */
        post: operations["postV1VideosByIdSign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/videos/{id}/captions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A video's caption tracks, in the order they were added */
        get: operations["getV1VideosByIdCaptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/videos/{id}/captions/{language}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Add or replace the captions of one language (WebVTT or SRT; 201 new, 200 replaced)
         * @description The body is the caption file itself, WebVTT or SRT (converted to WebVTT), UTF-8, at most 512 KiB (413 FILE_TOO_LARGE), with any Content-Type. `language` is a BCP 47 tag (422 VALIDATION_ERROR otherwise), kept in its canonical form; `label` (query) is the name players show, by default the language's English name. A file the WebVTT parser refuses, or with no cue, is 422 INVALID_FILE_TYPE with meta.errors (line, message). A video takes captions once it is ready (409 CONFLICT meta.reason not_ready before), at most 20 tracks (409 meta.reason caption_limit); a Mux-hosted video takes none (409 meta.reason hosted_provider). The stored file gets an X-TIMESTAMP-MAP header that lines its cues up with the video's segments (the cues' 0 is the video's start). The bytes count in image storage (403 QUOTA_EXCEEDED). The master playlist lists the tracks as a subtitles group (subs/<language>.m3u8), so hls.js and Safari offer them.
         */
        put: operations["putV1VideosByIdCaptionsByLanguage"];
        post?: never;
        /** Remove the captions of one language */
        delete: operations["deleteV1VideosByIdCaptionsByLanguage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/videos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List videos, newest first (items carry no playback_url) */
        get: operations["getV1Videos"];
        put?: never;
        /**
         * Upload a video (multipart/form-data, streamed); answered in status processing before transcoding
         * @description Needs plan pro or pro_plus (403 PLAN_REQUIRED). The container is decided by the file's first bytes (422 INVALID_FILE_TYPE); over the plan's size 413 FILE_TOO_LARGE with nothing stored; the bytes count in media_storage (403 QUOTA_EXCEEDED).
         */
        post: operations["postV1Videos"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/videos/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One video: metadata and playback URL; anonymous when the video is public */
        get: operations["getV1VideosById"];
        put?: never;
        post?: never;
        /** Move a video to the trash: it stops playing at once; restore it or purge it through /v1/trash */
        delete: operations["deleteV1VideosById"];
        options?: never;
        head?: never;
        /** Change a video's title, visibility or tags (not its content) */
        patch: operations["patchV1VideosById"];
        trace?: never;
    };
    "/v1/videos/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Transcoding status: progress 0..1 and a best-effort eta (poll every 5 to 10 s) */
        get: operations["getV1VideosByIdStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/videos/{id}/thumbnail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the thumbnail (JPEG, PNG or WebP, at most 2 MB; counted in image storage) */
        post: operations["postV1VideosByIdThumbnail"];
        /** Go back to the automatic thumbnail */
        delete: operations["deleteV1VideosByIdThumbnail"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oembed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * oEmbed 1.0 of a public video or audio file (an <iframe> of its player page)
         * @description `url` is a share link (CENTER_URL/s/<token>, when it opens without a password: any of its kinds, private items too), or the item's player page (CENTER_URL/embed/v/<id> or /embed/a/<id>), a video's playlist or file on the media edge (MEDIA_URL/v/<id>/...) or an audio file's (MEDIA_URL/a/<id>.<ext>). The answer is oEmbed's own JSON, not the envelope: `type` video (16:9 at its largest rendition's height) or rich (audio, 480x200), `html` an <iframe> of the player page scaled down to `maxwidth` and `maxheight`, `thumbnail_url`. A private, unready or missing item is 404; `format` other than json is 501 NOT_IMPLEMENTED. Player pages name this URL in a <link rel="alternate" type="application/json+oembed">.
         */
        get: operations["getOembed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload an audio file (multipart/form-data, streamed); ready and playable when 201 answers
         * @description 403 FORBIDDEN for a plan without audio. The format is told by the file's first bytes (422 INVALID_FILE_TYPE; also for a file of a right signature whose audio cannot be read). Over the plan's size 413 FILE_TOO_LARGE (meta.limit in bytes) while streaming; playing longer than the plan allows 413 FILE_TOO_LARGE with meta.limit and meta.durationSeconds in seconds; nothing is stored either way. The bytes count in media_storage, an embedded cover's in img_storage (403 QUOTA_EXCEEDED). On the mainland platform the file and its cover pass the compliance check (451 COMPLIANCE_BLOCKED).
         */
        post: operations["postV1Audio"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audio/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One audio file; anonymous when it is public */
        get: operations["getV1AudioById"];
        put?: never;
        post?: never;
        /** Move an audio file to the trash: it stops serving at once; restore it or purge it through /v1/trash */
        delete: operations["deleteV1AudioById"];
        options?: never;
        head?: never;
        /** Change an audio file's title or visibility (is_public, or isPublic); {} changes nothing */
        patch: operations["patchV1AudioById"];
        trace?: never;
    };
    "/v1/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a resumable upload (tus creation; creation-with-upload takes the first bytes)
         * @description Headers: Tus-Resumable 1.0.0, Upload-Length, Upload-Metadata (base64 values): `kind` (video, audio or image) and `filename` required; `title`, `isPublic`, `tags` (JSON array) optional. Refused before a byte is taken as the kind's own upload route refuses: a trial plan's video 403 PLAN_REQUIRED, a plan without audio 403 FORBIDDEN, over the plan's size 413 FILE_TOO_LARGE, no room for Upload-Length 403 QUOTA_EXCEEDED, no upload left today 429. Upload-Length is held in media_storage (img_storage for an image) until the upload completes, is terminated or expires. Answers Location, Upload-Offset and, while unfinished, Upload-Expires.
         */
        post: operations["postV1Uploads"];
        delete?: never;
        /**
         * What the tus server supports; also the CORS preflight of a browser client (no credential)
         * @description Tus-Version 1.0.0; Tus-Extension creation,creation-with-upload,termination,expiration,checksum; Tus-Max-Size: the largest file any plan takes, or an archive (MIGRATION_MAX_BYTES); Tus-Checksum-Algorithm sha1,sha256,md5. Access-Control-Allow-Origin is *: the credential is a Bearer header, never a cookie. A CORS preflight (with Access-Control-Request-Method) is answered with the Access-Control-* headers alone, as on every /v1 path.
         */
        options: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No Content */
                204: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description 1.0.0 */
                        "Tus-Resumable"?: string;
                        /** @description the protocol versions served: 1.0.0 */
                        "Tus-Version"?: string;
                        /** @description creation,creation-with-upload,termination,expiration,checksum */
                        "Tus-Extension"?: string;
                        /** @description the largest file any plan takes, or an account archive (MIGRATION_MAX_BYTES), in bytes (each plan's own limit per kind applies at creation) */
                        "Tus-Max-Size"?: number;
                        /** @description the Upload-Checksum algorithms taken */
                        "Tus-Checksum-Algorithm"?: string;
                        /** @description * */
                        "Access-Control-Allow-Origin": string;
                        /** @description the methods a page may use */
                        "Access-Control-Allow-Methods": string;
                        /** @description the headers a page may send: Authorization, Content-Type, the tus headers, ... */
                        "Access-Control-Allow-Headers": string;
                        /** @description seconds a browser may keep the answer */
                        "Access-Control-Max-Age": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
            };
        };
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An upload's state, and what it made once complete
         * @description For a client that lost the last PATCH's answer: `resource` names the video, audio or image the upload made. 410 UPLOAD_EXPIRED once an unfinished upload expired.
         */
        get: operations["getV1UploadsById"];
        put?: never;
        post?: never;
        /** Terminate an upload (tus termination): its bytes deleted, its held storage given back; 409 once complete */
        delete: operations["deleteV1UploadsById"];
        /**
         * The same, at an upload's URL (where a browser's preflight of its PATCH, HEAD or DELETE goes)
         * @description Tus-Version 1.0.0; Tus-Extension creation,creation-with-upload,termination,expiration,checksum; Tus-Max-Size: the largest file any plan takes, or an archive (MIGRATION_MAX_BYTES); Tus-Checksum-Algorithm sha1,sha256,md5. Access-Control-Allow-Origin is *: the credential is a Bearer header, never a cookie. A CORS preflight (with Access-Control-Request-Method) is answered with the Access-Control-* headers alone, as on every /v1 path.
         */
        options: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No Content */
                204: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description 1.0.0 */
                        "Tus-Resumable"?: string;
                        /** @description the protocol versions served: 1.0.0 */
                        "Tus-Version"?: string;
                        /** @description creation,creation-with-upload,termination,expiration,checksum */
                        "Tus-Extension"?: string;
                        /** @description the largest file any plan takes, or an account archive (MIGRATION_MAX_BYTES), in bytes (each plan's own limit per kind applies at creation) */
                        "Tus-Max-Size"?: number;
                        /** @description the Upload-Checksum algorithms taken */
                        "Tus-Checksum-Algorithm"?: string;
                        /** @description * */
                        "Access-Control-Allow-Origin": string;
                        /** @description the methods a page may use */
                        "Access-Control-Allow-Methods": string;
                        /** @description the headers a page may send: Authorization, Content-Type, the tus headers, ... */
                        "Access-Control-Allow-Headers": string;
                        /** @description seconds a browser may keep the answer */
                        "Access-Control-Max-Age": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
            };
        };
        /** An upload's offset (tus): Upload-Offset, Upload-Length, Upload-Metadata, Upload-Expires; 410 once expired (UPLOAD_EXPIRED) or failed (UPLOAD_FAILED) */
        head: operations["headV1UploadsById"];
        /**
         * Append bytes at Upload-Offset (tus); the last ones finish the upload
         * @description Content-Type application/offset+octet-stream; Upload-Offset must be the upload's offset (409 CONFLICT with meta.offset otherwise, or while another PATCH to it runs). Upload-Checksum (sha1, sha256, md5) is checked before the bytes count: 460 CHECKSUM_MISMATCH keeps none of them. The PATCH that brings the last byte answers once the file went through its kind's pipeline (a video is then processing; audio and images are ready), with X-Resource-Id and X-Resource-Url naming what it made; a refusal of the pipeline (422 INVALID_FILE_TYPE, 451) fails the upload and gives its storage back.
         */
        patch: operations["patchV1UploadsById"];
        trace?: never;
    };
    "/v1/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List videos and audio together, newest first; each item carries its type
         * @description Video items are GET /v1/videos list items; audio items are the audio resource. One cursor pages through both (400 INVALID_CURSOR when it is not one).
         */
        get: operations["getV1Media"];
        put?: never;
        post?: never;
        /**
         * Delete up to 50 videos and audio files by id; a result per id, in request order
         * @description Each id is deleted as DELETE on its own path would (counters, thumbnails, edge caches). An id the caller owns nothing under is deleted: false, reason NOT_FOUND.
         */
        delete: operations["deleteV1Media"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/trash": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What was deleted and not yet purged, most recently deleted first
         * @description Every kind under one cursor (400 INVALID_CURSOR when it is not one); kind keeps one. Images, videos and audio need media.read to be seen and media.delete to be restored or purged; documents and KBs need kb.read and kb.write.
         */
        get: operations["getV1Trash"];
        put?: never;
        post?: never;
        /**
         * Empty the trash: every item (of the kinds the credential reaches) deleted for good now
         * @description Images, videos and audio need media.read to be seen and media.delete to be restored or purged; documents and KBs need kb.read and kb.write.
         */
        delete: operations["deleteV1Trash"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/trash/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Bring an item back: the same id, URL, tags and history
         * @description A document goes back to its KB path: 409 TRASH_PATH_TAKEN when another document is there now, 409 TRASH_KB_GONE when its KB is deleted or in the trash. Images, videos and audio need media.read to be seen and media.delete to be restored or purged; documents and KBs need kb.read and kb.write.
         */
        post: operations["postV1TrashByIdRestore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/trash/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an item for good now: its objects, and its bytes from storage
         * @description Images, videos and audio need media.read to be seen and media.delete to be restored or purged; documents and KBs need kb.read and kb.write.
         */
        delete: operations["deleteV1TrashById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List collections, newest first, each with its item count and cover */
        get: operations["getV1Collections"];
        put?: never;
        /**
         * Create a collection, with its first items if given
         * @description 404 NOT_FOUND naming an item the caller has nothing under (meta.entity, meta.id), and nothing is created; 403 COLLECTION_LIMIT_REACHED past 1000 collections.
         */
        post: operations["postV1Collections"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/collections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One collection */
        get: operations["getV1CollectionsById"];
        put?: never;
        post?: never;
        /** Delete a collection; its items stay in the library */
        delete: operations["deleteV1CollectionsById"];
        options?: never;
        head?: never;
        /**
         * Change a collection's title, description or cover
         * @description The cover must be an item of the collection (409 COLLECTION_COVER_NOT_ITEM); null goes back to the first item.
         */
        patch: operations["patchV1CollectionsById"];
        trace?: never;
    };
    "/v1/collections/{id}/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A collection's items in order, each with the item as its kind lists it
         * @description An item deleted since is not listed (a page may then hold fewer than limit; nextCursor says whether more follow).
         */
        get: operations["getV1CollectionsByIdItems"];
        put?: never;
        /**
         * Add items, at the end or at a position
         * @description All or nothing: 404 NOT_FOUND naming an item the caller has nothing under (meta.entity, meta.id); 409 COLLECTION_FULL past 1000 items. An item already in the collection keeps its place (counted in alreadyIn).
         */
        post: operations["postV1CollectionsByIdItems"];
        /** Take items out of a collection (the items stay in the library); one not in it is counted in notIn */
        delete: operations["deleteV1CollectionsByIdItems"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/collections/{id}/order": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Put a collection's items in a new order
         * @description The body names every item of the collection once, in the new order; anything else is 409 COLLECTION_ORDER_MISMATCH (meta.missing, meta.unknown) and nothing changes.
         */
        put: operations["putV1CollectionsByIdOrder"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/backup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's exports, newest first (cursor pages) */
        get: operations["getV1Backup"];
        put?: never;
        /**
         * Start an export of the whole account, or of chosen kinds and KBs, as one zip archive (202; a worker writes it)
         * @description An empty body exports everything: images, videos and audio (each original as stored), documents with their revisions, and each KB as its folder tree with its files, plus manifest.json (docs/api.md, "Backup"). kbIds alone exports those KBs only. Needs media.read, and kb.read too when documents or KBs are exported (403 without). 404 NOT_FOUND for a KB that is not the caller's. Counted against the plan's exports a day (429 RATE_LIMITED with Retry-After past it, meta.type exports_per_day); the archive counts against no storage. The owner is told when it is ready or failed (notification export_ready / export_failed).
         */
        post: operations["postV1Backup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/backup/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One export: its state, progress, and when ready its downloadUrl and expiresAt
         * @description Needs the scopes its kinds need, as POST does (403 without). 404 for another user's export.
         */
        get: operations["getV1BackupById"];
        put?: never;
        post?: never;
        /**
         * Delete an export: its archive goes and its downloadUrl stops working; one being written stops
         * @description The day's count of exports is not given back.
         */
        delete: operations["deleteV1BackupById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/migration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's imports, newest first (cursor pages) */
        get: operations["getV1Migration"];
        put?: never;
        /**
         * Import an account export's archive into this account (multipart file, or { uploadId } of a resumable upload; 202, a worker imports it)
         * @description The zip GET /v1/backup/{id}'s downloadUrl gives, from this instance or another. 422 INVALID_FILE_TYPE for a file that is not a zip, 413 FILE_TOO_LARGE past MIGRATION_MAX_BYTES, 409 CONFLICT while another import of the account is queued or running. Needs media.write and kb.write (403 without). The worker checks the whole archive before it stores anything (names, links, sizes, checksums, the manifest, the room the plan leaves) and refuses a hostile or broken one with a code in report.error, importing nothing. Items keep their ids where free; media links in Markdown are written with this instance's MEDIA_URL; a re-run skips what is already here (docs/api.md, "Migration").
         */
        post: operations["postV1Migration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/migration/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One import: its status, progress and, once ended, its report (what was imported, skipped and why) */
        get: operations["getV1MigrationById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every account, newest first (cursor), each as its owner sees it; `email` narrows by address */
        get: operations["getV1AdminUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Each plan and its limits as this server applies them (defaults with PLAN_OVERRIDES); -1 is no cap */
        get: operations["getV1AdminPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set a user's plan, plan expiry or admin flag; taking the flag from the instance's only admin is 409 CONFLICT */
        patch: operations["patchV1AdminUsersById"];
        trace?: never;
    };
    "/v1/admin/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every scheduled job and its last run */
        get: operations["getV1AdminJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/jobs/{name}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a job now and return its recorded run */
        post: operations["postV1AdminJobsByNameRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/shares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your share links, newest first (revoked and expired ones too) */
        get: operations["getV1Shares"];
        put?: never;
        /**
         * Make a share link to an item, a KB or a KB folder
         * @description `target` is `{ kind: image | video | audio | document | kb, id, path? }` (path: a KB's folder). The caller must own it, else 404. The answer's `url` is the anonymous page (CENTER_URL/s/<token>), which shows a private item too, through that link only. Optional `expiresAt` (in the future) and `password`.
         */
        post: operations["postV1Shares"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/shares/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One share link, with its view count */
        get: operations["getV1SharesById"];
        put?: never;
        post?: never;
        /** Revoke a link: its page and media stop at once, on every node; the link stays listed with revokedAt */
        delete: operations["deleteV1SharesById"];
        options?: never;
        head?: never;
        /** Change a link's expiry or password (null removes either); a revoked link is 409 */
        patch: operations["patchV1SharesById"];
        trace?: never;
    };
    "/v1/webhooks/endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints, newest first */
        get: operations["getV1WebhooksEndpoints"];
        put?: never;
        /**
         * Register a webhook endpoint for some event types; its signing secret is in this answer only
         * @description 422 VALIDATION_ERROR for an address that is not http(s), carries credentials, or (unless the operator allows it) is a private, loopback or link-local literal; 409 CONFLICT past 20 endpoints.
         */
        post: operations["postV1WebhooksEndpoints"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook endpoint */
        get: operations["getV1WebhooksEndpointsById"];
        put?: never;
        post?: never;
        /** Delete an endpoint and its delivery log */
        delete: operations["deleteV1WebhooksEndpointsById"];
        options?: never;
        head?: never;
        /** Change an endpoint's address or events, or disable or enable it (enabling clears its failure count) */
        patch: operations["patchV1WebhooksEndpointsById"];
        trace?: never;
    };
    "/v1/webhooks/endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the endpoint's signing secret; the new one is in this answer only, and the old one signs nothing more */
        post: operations["postV1WebhooksEndpointsByIdRotate-secret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The endpoint's deliveries, newest first, each with its status, tries and the last answer (status, first KB of the body, duration) */
        get: operations["getV1WebhooksEndpointsByIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a webhook.test event for this endpoint; its delivery shows in the log
         * @description 409 CONFLICT while the endpoint is disabled.
         */
        post: operations["postV1WebhooksEndpointsByIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/published-pages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your published sites, newest first */
        get: operations["getV1Published-pages"];
        put?: never;
        /**
         * Publish a KB, or a folder of it, as a read-only site
         * @description The caller must own the KB (and the folder must hold something), else 404. The answer's `url` is the site (CENTER_URL/p/<slug>): anyone may read it, its notes at their paths without the extension, read from the KB on each request. `slug` (a DNS label) taken: 409 CONFLICT.
         */
        post: operations["postV1Published-pages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/published-pages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One published site */
        get: operations["getV1Published-pagesById"];
        put?: never;
        post?: never;
        /** Unpublish a site: its pages and files are 404 at once, on every node */
        delete: operations["deleteV1Published-pagesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/oidc/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Begin signing in through the instance's OpenID provider (OIDC_ISSUER): 303 to the provider
         * @description A browser navigation (the sign-in screens' button). The login is kept 10 minutes in the shared store (state, nonce, PKCE S256 verifier, where to go back to) and bound to this browser by the shelf_oidc cookie. `return` is the consent or device page's path and query the sign-in began on; anything else goes back to the dashboard. 404 when no provider is set up, 502 when its discovery document cannot be read, 429 past 30 starts a minute from one address: a page saying so.
         */
        get: {
            parameters: {
                query?: {
                    /** @description the consent page (/oauth/authorize?...) or device page (/device?...) to come back to; default the dashboard */
                    return?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description to the provider's authorization endpoint; sets the shelf_oidc cookie (Path=/v1/auth/oidc, 10 minutes) */
                303: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        Location: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no provider is set up */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description too many sign-ins begun from this address */
                429: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                500: components["responses"]["Internal"];
                /** @description the provider cannot be reached */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the shared store cannot be reached */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/oidc/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The provider's answer (its redirect URI): checked, then signed in, and 303 to where the sign-in began
         * @description The library checks the state, the RFC 9207 iss parameter, the code (with the PKCE verifier), the ID token's signature, issuer, audience, expiry and nonce. Then: an identity already linked signs in to its account; else the account with the same address is linked only when the provider says email_verified true; else, with OIDC_SIGNUP on and a verified address, an account is made (without a password). The session is a password sign-in's (the refresh cookie, the pages' tickets, the device cookie, a new-device notice). With two factors on, no session yet: 303 to the dashboard's code screen (CENTER_URL/#/sign-in-code?challenge=...&methods=..., and a passkey's options as passkey, base64url JSON). A refusal is a page: 400 (meta reason state, issuer, check_failed, provider_error, access_denied), 403 (email_unverified, account_unconfirmed, signup_closed, no_email), 502 (the provider away).
         */
        get: {
            parameters: {
                query?: {
                    /** @description the provider's authorization code */
                    code?: string;
                    /** @description the login's state */
                    state?: string;
                    /** @description the provider's issuer (RFC 9207) */
                    iss?: string;
                    /** @description the provider's refusal (RFC 6749 section 4.1.2.1) */
                    error?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description signed in: to the dashboard or the page the sign-in began on, with the session's cookies; or to the dashboard's code screen */
                303: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        Location: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description the login is unknown, expired, used, of another browser, or the provider's answer failed a check */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the rules refuse this identity an account */
                403: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description no provider is set up */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description too many sign-ups from this address */
                429: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                500: components["responses"]["Internal"];
                /** @description the provider cannot be reached */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the shared store cannot be reached */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/docs/{id}/raw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A document's text: anyone for a public document, its owner (kb.read) for a private one */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description the ETag: 304 when it matches */
                    "If-None-Match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the text: `text/markdown; charset=utf-8` for Markdown, `text/plain; charset=utf-8` for Typst */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description the SHA-256 of the content, quoted */
                        ETag: string;
                        /** @description `public, max-age=300` for a public document, `no-store` for a private one */
                        "Cache-Control": string;
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content: {
                        "text/markdown": string;
                        "text/plain": string;
                    };
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description the SHA-256 of the content, quoted */
                        ETag: string;
                        /** @description `public, max-age=300` for a public document, `no-store` for a private one */
                        "Cache-Control": string;
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description UNAUTHORIZED: no (or an invalid) credential, and the document is not public (or does not exist) */
                401: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_FOUND: no such document, or another user's private one */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["ValidationError"];
                429: components["responses"]["RateLimited"];
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the content could not be read */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/docs/{id}/render": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A Typst document rendered as PDF or SVG: anyone for a public document, its owner (kb.read) for a private one
         * @description Compiled with no file or network access (no imports of files or packages), within TYPST_TIMEOUT_MS and TYPST_MEMORY_MB; renders are cached by the document's sourceHash. 415 UNSUPPORTED_MEDIA_TYPE for a Markdown document; 422 VALIDATION_ERROR with `meta.reason` TYPST_COMPILE_FAILED and `meta.diagnostics` when the source does not compile, TYPST_TIMEOUT or TYPST_MEMORY at a bound; 503 SERVICE_UNAVAILABLE when this server has no Typst compiler or it is busy.
         */
        get: {
            parameters: {
                query?: {
                    /** @description pdf (the default) or svg (the pages stacked in one image) */
                    format?: "pdf" | "svg";
                };
                header?: {
                    /** @description the ETag: 304 when it matches */
                    "If-None-Match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the render: `application/pdf` or `image/svg+xml` */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description the sourceHash and the format, quoted */
                        ETag: string;
                        /** @description `public, max-age=300` for a public document, `no-store` for a private one */
                        "Cache-Control": string;
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": Blob;
                        "image/svg+xml": string;
                    };
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                415: components["responses"]["UnsupportedMediaType"];
                422: components["responses"]["ValidationError"];
                429: components["responses"]["RateLimited"];
                500: components["responses"]["Internal"];
                502: components["responses"]["BadGateway"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/docs/raw:batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The text of up to 50 documents, in input order: the caller's own (with kb.read) and public ones; public only without a credential
         * @description `failed[]` says NOT_FOUND for an id that is absent, deleted, another user's private document or no document id at all (malformed: any string is accepted) alike (existence is not disclosed), CONTENT_FETCH_FAILED when the text could not be read. The batch itself is 422 when `ids` is not an array of strings or holds none or more than 50.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 1 to 50 document ids; one that is no document id (malformed, or unknown) is in failed[] with NOT_FOUND, in input order */
                        ids: string[];
                    };
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @constant */
                            success: true;
                            data: {
                                docs: {
                                    id: string;
                                    content: string;
                                    /** Format: date-time */
                                    updatedAt: string;
                                    /** @description SHA-256 hex of the content */
                                    sourceHash: string;
                                }[];
                                failed: {
                                    id: string;
                                    /** @enum {string} */
                                    reason: "NOT_FOUND" | "CONTENT_FETCH_FAILED";
                                }[];
                            };
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                422: components["responses"]["ValidationError"];
                429: components["responses"]["RateLimited"];
                500: components["responses"]["Internal"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kbs/{id}/raw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The text of the active document at a KB path, or the bytes of the file there, with its version (X-Source-Hash, X-Updated-At)
         * @description A file (manifest v2 kind `file`) answers its bytes with the Content-Type told from them when they were stored, X-Source-Hash (the SHA-256 of the bytes) and a strong ETag (If-None-Match: 304), Accept-Ranges: bytes and one Range at a time (206 with Content-Range; 416 with Content-Range bytes *\/size past the end; If-Range honoured), `X-Content-Type-Options: nosniff`, a Content-Security-Policy with `sandbox` that runs and loads nothing, and Content-Disposition `attachment` for any type a browser could run. A document answers its text whole.
         */
        get: {
            parameters: {
                query: {
                    /** @description the relative path, URL-encoded; NFC-normalized, and matched whatever its letter case */
                    path: string;
                };
                header?: {
                    /** @description a file: one range, `bytes=a-b`, `bytes=a-` or `bytes=-n` */
                    Range?: string;
                    /** @description a file: its ETag, for a 304 */
                    "If-None-Match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the text: `text/markdown; charset=utf-8` for Markdown, `text/plain; charset=utf-8` for Typst; a file's bytes with its own Content-Type */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description the document's id (for GET /v1/docs/{id}, its revisions) */
                        "X-Doc-Id": string;
                        /** @description SHA-256 hex of the text */
                        "X-Source-Hash": string;
                        /** @description the document's updatedAt (a sync client's baseUpdatedAt), ISO 8601 UTC with milliseconds */
                        "X-Updated-At": string;
                        /** @description the SHA-256 of the content, quoted */
                        ETag: string;
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        /** @description a file: runs and loads nothing (sandbox), whatever its type */
                        "Content-Security-Policy"?: string;
                        /** @description a file: `inline` for types a browser shows without running them (raster images, audio, video, PDF, plain text, CSV, Markdown, JSON), `attachment` for any other (HTML, SVG, XML, scripts...), with the file's name */
                        "Content-Disposition"?: string;
                        /** @description a file: bytes */
                        "Accept-Ranges"?: "bytes";
                        "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                        "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                        "RateLimit-Reset": components["headers"]["RateLimitReset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/markdown": string;
                        "text/plain": string;
                        "*/*": Blob;
                    };
                };
                /** @description a file: the Range asked for (Content-Range bytes a-b/size) */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description bytes a-b/size */
                        "Content-Range": string;
                        /** @description SHA-256 hex of the file */
                        "X-Source-Hash": string;
                        /** @description the SHA-256 of the file, quoted */
                        ETag: string;
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        /** @description a file: runs and loads nothing (sandbox), whatever its type */
                        "Content-Security-Policy"?: string;
                        /** @description a file: `inline` for types a browser shows without running them (raster images, audio, video, PDF, plain text, CSV, Markdown, JSON), `attachment` for any other (HTML, SVG, XML, scripts...), with the file's name */
                        "Content-Disposition"?: string;
                        /** @description a file: bytes */
                        "Accept-Ranges"?: "bytes";
                        "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                        "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                        "RateLimit-Reset": components["headers"]["RateLimitReset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description a file: If-None-Match names its ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description the SHA-256 of the file, quoted */
                        ETag: string;
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description NOT_FOUND: no such KB (or another user's), or no active document at the path */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description a file: the Range starts past its end (Content-Range bytes *\/size) */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                422: components["responses"]["ValidationError"];
                429: components["responses"]["RateLimited"];
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the content (a file's bytes) could not be read */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description nosniff */
                        "X-Content-Type-Options": "nosniff";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth authorization server metadata (RFC 8414) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            issuer: string;
                            authorization_endpoint: string;
                            token_endpoint: string;
                            device_authorization_endpoint: string;
                            revocation_endpoint: string;
                            registration_endpoint: string;
                            scopes_supported: ("media.read" | "media.write" | "media.delete" | "kb.read" | "kb.write" | "account.read" | "usage.read")[];
                            response_types_supported: string[];
                            response_modes_supported: string[];
                            grant_types_supported: string[];
                            token_endpoint_auth_methods_supported: string[];
                            revocation_endpoint_auth_methods_supported: string[];
                            code_challenge_methods_supported: string[];
                            authorization_response_iss_parameter_supported: boolean;
                            service_documentation: string;
                        };
                    };
                };
                500: components["responses"]["Internal"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/openid-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The same metadata, where OpenID Connect discovery looks (for clients that discover only there, such as openid-client)
         * @description Equal to /.well-known/oauth-authorization-server. The provider is OAuth 2.1 only: it issues no ID tokens and has no userinfo endpoint.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            issuer: string;
                            authorization_endpoint: string;
                            token_endpoint: string;
                            device_authorization_endpoint: string;
                            revocation_endpoint: string;
                            registration_endpoint: string;
                            scopes_supported: ("media.read" | "media.write" | "media.delete" | "kb.read" | "kb.write" | "account.read" | "usage.read")[];
                            response_types_supported: string[];
                            response_modes_supported: string[];
                            grant_types_supported: string[];
                            token_endpoint_auth_methods_supported: string[];
                            revocation_endpoint_auth_methods_supported: string[];
                            code_challenge_methods_supported: string[];
                            authorization_response_iss_parameter_supported: boolean;
                            service_documentation: string;
                        };
                    };
                };
                500: components["responses"]["Internal"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/device_authorization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a device authorization (RFC 8628 section 3.1): a device code to poll with and a user code to show
         * @description At most 10 per client_id and client address per minute. `scope` is space-separated; without it the client's default scopes are asked for.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        /** @description a first-party or registered client */
                        client_id: string;
                        /** @description space-separated scopes */
                        scope?: string;
                        /** @description RFC 8707: the protected resource the tokens are for, PUBLIC_URL (the API, as when left out) or MCP_URL; another is invalid_target */
                        resource?: string;
                    };
                    "application/json": {
                        /** @description a first-party or registered client */
                        client_id: string;
                        /** @description space-separated scopes */
                        scope?: string;
                        /** @description RFC 8707: the protected resource the tokens are for, PUBLIC_URL (the API, as when left out) or MCP_URL; another is invalid_target */
                        resource?: string;
                    };
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            device_code: string;
                            user_code: string;
                            verification_uri: string;
                            verification_uri_complete: string;
                            expires_in: number;
                            interval: number;
                        };
                    };
                };
                /** @description invalid_request (a missing client_id, a body that is not a form or a JSON object), invalid_scope, unauthorized_client (a registered client without the device grant) */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the RFC 6749 / RFC 8628 error */
                            error: string;
                            error_description: string;
                            /** @description shelf's error code where it has one: OAUTH_REFRESH_REPLAYED, RATE_LIMITED, SERVICE_UNAVAILABLE */
                            error_code?: string;
                        };
                    };
                };
                /** @description invalid_client: unknown or rejected client */
                401: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the RFC 6749 / RFC 8628 error */
                            error: string;
                            error_description: string;
                            /** @description shelf's error code where it has one: OAUTH_REFRESH_REPLAYED, RATE_LIMITED, SERVICE_UNAVAILABLE */
                            error_code?: string;
                        };
                    };
                };
                /** @description temporarily_unavailable with error_code RATE_LIMITED: over 10 per client and address per minute */
                429: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description seconds to wait */
                        "Retry-After": number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the RFC 6749 / RFC 8628 error */
                            error: string;
                            error_description: string;
                            /** @description shelf's error code where it has one: OAUTH_REFRESH_REPLAYED, RATE_LIMITED, SERVICE_UNAVAILABLE */
                            error_code?: string;
                        };
                    };
                };
                500: components["responses"]["Internal"];
                /** @description temporarily_unavailable with error_code DEPENDENCY_UNAVAILABLE: the database does not answer; with error_code SERVICE_UNAVAILABLE: the limit cannot be checked */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description seconds to wait */
                        "Retry-After": number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the RFC 6749 / RFC 8628 error */
                            error: string;
                            error_description: string;
                            /** @description shelf's error code where it has one: OAUTH_REFRESH_REPLAYED, RATE_LIMITED, SERVICE_UNAVAILABLE */
                            error_code?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Token endpoint: the authorization_code, device_code and refresh_token grants (RFC 6749 section 5)
         * @description grant_type=authorization_code with code, client_id, code_verifier (PKCE, RFC 7636: 43 to 128 characters; a missing or malformed one is invalid_request, one that does not match the challenge invalid_grant) and redirect_uri (the one of the authorization request, which must be named when the request named it): a code is valid 60 s and used once; an unknown, expired or used code is invalid_grant, and a used one presented again also revokes the grant its first use gave. grant_type=urn:ietf:params:oauth:grant-type:device_code with device_code and client_id: authorization_pending, slow_down (a poll sooner than the interval; the interval then grows by 5 s), access_denied, expired_token (after 10 minutes), invalid_grant (consumed or unknown). grant_type=refresh_token with refresh_token and client_id (and optionally a narrower scope): every refresh returns a new refresh token; a rotated one presented again revokes the whole grant (401 invalid_grant, error_code OAUTH_REFRESH_REPLAYED), except within 2 s of its rotation, when it is taken for a concurrent refresh and refused with 400 invalid_grant.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        /** @description authorization_code, urn:ietf:params:oauth:grant-type:device_code or refresh_token */
                        grant_type: string;
                        /** @description the client the code or token was issued to */
                        client_id: string;
                        /** @description authorization_code grant */
                        code?: string;
                        /** @description authorization_code grant: the PKCE verifier */
                        code_verifier?: string;
                        /** @description authorization_code grant: as in the authorization request */
                        redirect_uri?: string;
                        /** @description device_code grant */
                        device_code?: string;
                        /** @description refresh_token grant */
                        refresh_token?: string;
                        /** @description refresh_token grant: fewer scopes for the new access token */
                        scope?: string;
                        /** @description RFC 8707: when named, the resource the grant was given for (another is invalid_target) */
                        resource?: string;
                    };
                    "application/json": {
                        /** @description authorization_code, urn:ietf:params:oauth:grant-type:device_code or refresh_token */
                        grant_type: string;
                        /** @description the client the code or token was issued to */
                        client_id: string;
                        /** @description authorization_code grant */
                        code?: string;
                        /** @description authorization_code grant: the PKCE verifier */
                        code_verifier?: string;
                        /** @description authorization_code grant: as in the authorization request */
                        redirect_uri?: string;
                        /** @description device_code grant */
                        device_code?: string;
                        /** @description refresh_token grant */
                        refresh_token?: string;
                        /** @description refresh_token grant: fewer scopes for the new access token */
                        scope?: string;
                        /** @description RFC 8707: when named, the resource the grant was given for (another is invalid_target) */
                        resource?: string;
                    };
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description valid 15 minutes */
                            access_token: string;
                            /** @constant */
                            token_type: "Bearer";
                            expires_in: number;
                            /** @description single use: every refresh returns its successor */
                            refresh_token: string;
                            scope: string;
                        };
                    };
                };
                /** @description invalid_request, unsupported_grant_type, unauthorized_client, invalid_grant, invalid_scope, invalid_target, authorization_pending, slow_down, access_denied, expired_token */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the RFC 6749 / RFC 8628 error */
                            error: string;
                            error_description: string;
                            /** @description shelf's error code where it has one: OAUTH_REFRESH_REPLAYED, RATE_LIMITED, SERVICE_UNAVAILABLE */
                            error_code?: string;
                        };
                    };
                };
                /** @description invalid_client: unknown client; invalid_grant with error_code OAUTH_REFRESH_REPLAYED: the grant is revoked */
                401: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the RFC 6749 / RFC 8628 error */
                            error: string;
                            error_description: string;
                            /** @description shelf's error code where it has one: OAUTH_REFRESH_REPLAYED, RATE_LIMITED, SERVICE_UNAVAILABLE */
                            error_code?: string;
                        };
                    };
                };
                500: components["responses"]["Internal"];
                /** @description temporarily_unavailable with error_code DEPENDENCY_UNAVAILABLE: the database does not answer */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description seconds to wait */
                        "Retry-After": number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the RFC 6749 / RFC 8628 error */
                            error: string;
                            error_description: string;
                            /** @description shelf's error code where it has one: OAUTH_REFRESH_REPLAYED, RATE_LIMITED, SERVICE_UNAVAILABLE */
                            error_code?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register a third-party client (RFC 7591); it waits for an administrator's approval
         * @description JSON client metadata: client_name (required; 1 to 100 characters, no control, bidi control or invisible characters (zero-width, format characters, U+2028, U+2029), letters of one script or of Latin with Han, Hiragana, Katakana, Bopomofo or Hangul), redirect_uris (https, or http on 127.0.0.1, [::1] or localhost; no fragment; at most 10 of at most 2,000 characters; required with the authorization_code grant), grant_types (authorization_code, refresh_token, urn:ietf:params:oauth:grant-type:device_code; default authorization_code and refresh_token), scope (default every scope but media.delete), token_endpoint_auth_method (none only). The client is pending: it may start flows and users are told it is unverified; once rejected it may not. At most 10 registrations per address and hour.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            client_id: string;
                            client_id_issued_at: number;
                            client_name: string;
                            redirect_uris: string[];
                            grant_types: string[];
                            /** @constant */
                            token_endpoint_auth_method: "none";
                            scope: string;
                            /** @constant */
                            approval_status: "pending";
                        };
                    };
                };
                /** @description invalid_client_metadata (a body that is not a JSON object, a bad name, grant type, scope or auth method), invalid_redirect_uri */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the RFC 6749 / RFC 8628 error */
                            error: string;
                            error_description: string;
                            /** @description shelf's error code where it has one: OAUTH_REFRESH_REPLAYED, RATE_LIMITED, SERVICE_UNAVAILABLE */
                            error_code?: string;
                        };
                    };
                };
                413: components["responses"]["PayloadTooLarge"];
                /** @description temporarily_unavailable with error_code OAUTH_CLIENT_RATE_LIMITED: over 10 registrations per address and hour */
                429: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description seconds to wait */
                        "Retry-After": number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the RFC 6749 / RFC 8628 error */
                            error: string;
                            error_description: string;
                            /** @description shelf's error code where it has one: OAUTH_REFRESH_REPLAYED, RATE_LIMITED, SERVICE_UNAVAILABLE */
                            error_code?: string;
                        };
                    };
                };
                500: components["responses"]["Internal"];
                /** @description temporarily_unavailable with error_code DEPENDENCY_UNAVAILABLE: the database does not answer; with error_code SERVICE_UNAVAILABLE: the limit cannot be checked */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description seconds to wait */
                        "Retry-After": number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the RFC 6749 / RFC 8628 error */
                            error: string;
                            error_description: string;
                            /** @description shelf's error code where it has one: OAUTH_REFRESH_REPLAYED, RATE_LIMITED, SERVICE_UNAVAILABLE */
                            error_code?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke a token (RFC 7009): an access or refresh token revokes its whole grant
         * @description Answers 200 for an unknown token too, or one issued to another client than client_id names (then nothing is revoked).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        /** @description an access or refresh token */
                        token: string;
                        /** @description ignored */
                        token_type_hint?: string;
                        /** @description optional */
                        client_id?: string;
                    };
                    "application/json": {
                        /** @description an access or refresh token */
                        token: string;
                        /** @description ignored */
                        token_type_hint?: string;
                        /** @description optional */
                        client_id?: string;
                    };
                };
            };
            responses: {
                /** @description OK (no body) */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description invalid_request: no token */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the RFC 6749 / RFC 8628 error */
                            error: string;
                            error_description: string;
                            /** @description shelf's error code where it has one: OAUTH_REFRESH_REPLAYED, RATE_LIMITED, SERVICE_UNAVAILABLE */
                            error_code?: string;
                        };
                    };
                };
                500: components["responses"]["Internal"];
                /** @description temporarily_unavailable with error_code DEPENDENCY_UNAVAILABLE: the database does not answer */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        /** @description seconds to wait */
                        "Retry-After": number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the RFC 6749 / RFC 8628 error */
                            error: string;
                            error_description: string;
                            /** @description shelf's error code where it has one: OAUTH_REFRESH_REPLAYED, RATE_LIMITED, SERVICE_UNAVAILABLE */
                            error_code?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The device page (RFC 8628 section 3.3): a sign-in form, or the code form prefilled from ?user_code= */
        get: {
            parameters: {
                query?: {
                    user_code?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the page */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                500: components["responses"]["Internal"];
                /** @description the database does not answer (Retry-After) */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        /**
         * The device page's forms: sign in or out, look a user code up, approve or deny it
         * @description application/x-www-form-urlencoded with the page's csrf token: action=sign_in (email, password), action=sign_in_passkey (passkey: the JSON of a passkey's answer to the form's data-passkey options), action=sign_in_code (challenge and code, recovery_code or passkey), action=sign_out, user_code (shows the app and its scopes), user_code with decision=approve|deny. A missing or wrong token, or another Origin, is 403 and changes nothing.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": Record<string, never>;
                };
            };
            responses: {
                /** @description the next step, or the outcome */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description See Other: back to the page (after signing in or out) */
                303: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        Location: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description not a form */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the sign-in form again: wrong email or password, or not signed in */
                401: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the form did not come from this page of this page session */
                403: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the code form again: no such code, or it has expired */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the code form again: the code was already used */
                409: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the sign-in form (or the second step) again: a passkey's answer not accepted */
                422: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description too many wrong codes or sign-in attempts, or the mutation rate tier */
                429: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                500: components["responses"]["Internal"];
                /** @description the limits cannot be counted: nothing is tried; or the database does not answer (Retry-After) */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Authorization endpoint (RFC 6749 section 4.1.1, PKCE of RFC 7636 with S256 only): the consent page
         * @description A request whose client or redirect URI cannot be trusted (no client_id, an unknown or rejected client, a redirect_uri that is not one the client registered: exact match, except that on 127.0.0.1 and [::1] any port is accepted) is refused on the page (400) and never redirected. Other refusals go back to the redirect URI with error and state: invalid_request (no code_challenge, a method other than S256, a malformed challenge, a parameter given twice), unsupported_response_type, unauthorized_client, invalid_scope. Otherwise the sign-in form, or the consent form naming the app, the scopes in plain words, and that the app is unverified when no administrator has approved it yet.
         */
        get: {
            parameters: {
                query: {
                    /** @description code */
                    response_type: string;
                    /** @description a first-party or registered client */
                    client_id: string;
                    /** @description one the client registered; may be left out when it registered exactly one https URI */
                    redirect_uri?: string;
                    /** @description BASE64URL(SHA-256(code_verifier)) */
                    code_challenge: string;
                    /** @description S256 */
                    code_challenge_method: string;
                    /** @description space-separated; the client's scopes when left out */
                    scope?: string;
                    /** @description RFC 8707: PUBLIC_URL (the API, as when left out) or MCP_URL; another is invalid_target, sent back to the app */
                    resource?: string;
                    /** @description returned as given */
                    state?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the sign-in form or the consent form */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description See Other: to the app's redirect URI with code, state and iss, or error, error_description, state and iss (RFC 6749 section 4.1.2) */
                303: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        Location: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description the request cannot be trusted: said on the page */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                500: components["responses"]["Internal"];
                /** @description the database does not answer (Retry-After) */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        /**
         * The consent page's forms: sign in or out, approve or deny
         * @description application/x-www-form-urlencoded with the page's csrf token and the request's parameters: action=sign_in (email, password), action=sign_in_passkey (passkey: the JSON of a passkey's answer to the form's data-passkey options), action=sign_in_code (challenge and code, recovery_code or passkey), action=sign_out, or decision=approve|deny (then 303 to the app: a code valid 60 s, or error=access_denied). The request is checked again. A missing or wrong token, or another Origin, is 403 and changes nothing.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": Record<string, never>;
                };
            };
            responses: {
                /** @description the consent form again */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description See Other: to the app (a decision or a refusal), or back to the page (after signing in or out) */
                303: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        Location: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description not a form, or the request cannot be trusted */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the sign-in form again: wrong email or password, or not signed in */
                401: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the form did not come from this page of this page session */
                403: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the sign-in form (or the second step) again: a passkey's answer not accepted */
                422: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description too many sign-in attempts, or the mutation rate tier */
                429: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                500: components["responses"]["Internal"];
                /** @description the limits cannot be counted: nothing is tried; or the database does not answer (Retry-After) */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/backup/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The archive of a ready export, by the signed downloadUrl GET /v1/backup/{id} hands its owner (no credential; ranges) */
        get: {
            parameters: {
                query: {
                    expires: string;
                    signature: string;
                };
                header?: {
                    /** @description one range, `bytes=a-b`, `bytes=a-` or `bytes=-n` */
                    Range?: string;
                    /** @description the ETag, for a 304 */
                    "If-None-Match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the whole zip */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description attachment; filename="shelf-export-YYYY-MM-DD.zip" */
                        "Content-Disposition": string;
                        /** @description bytes */
                        "Accept-Ranges": string;
                        /** @description the archive's validator */
                        ETag: string;
                        /** @description private, no-store */
                        "Cache-Control": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/zip": Blob;
                    };
                };
                /** @description the Range asked for (Content-Range bytes a-b/size) */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description attachment; filename="shelf-export-YYYY-MM-DD.zip" */
                        "Content-Disposition": string;
                        /** @description bytes */
                        "Accept-Ranges": string;
                        /** @description the archive's validator */
                        ETag: string;
                        /** @description private, no-store */
                        "Cache-Control": string;
                        /** @description bytes a-b/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/zip": Blob;
                    };
                };
                /** @description If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
                /** @description EXPORT_EXPIRED: the export expired and its archive was removed */
                410: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description the Range starts past the end (Content-Range bytes *\/size) */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                422: components["responses"]["ValidationError"];
                500: components["responses"]["Internal"];
                502: components["responses"]["BadGateway"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/media/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An uploaded object's bytes, at the url its upload returned
         * @description Public objects are served to anyone; an owner-only (private) object only to its owner's credential with media.read, and 404 to everyone else. Not JSON, except the envelope of a 404 or 502.
         */
        get: {
            parameters: {
                query?: {
                    /** @description width in pixels, one of the allowed sizes (16 to 3840; docs/api.md); never enlarged past the original's */
                    w?: number;
                    /** @description height in pixels, one of the allowed sizes */
                    h?: number;
                    /** @description with w and h: cover (crop to fill, the default), contain (fit with transparent bars) or inside (fit, keep the shape) */
                    fit?: "cover" | "contain" | "inside";
                    /** @description quality, a multiple of 5 from 20 to 100 (default 75) */
                    q?: number;
                    /** @description avif, webp, jpeg or png; absent: AVIF when Accept names it, then WebP, else the original's type (PNG for WebP and AVIF originals) */
                    format?: "avif" | "webp" | "jpeg" | "png";
                };
                header?: {
                    /** @description naming image/webp (with a non-zero q) gets the WebP rendition of a raster image; with a size query, image/avif gets AVIF first */
                    Accept?: string;
                    /** @description an ETag (or *): 304 when it matches */
                    "If-None-Match"?: string;
                    /** @description one range, bytes=a-b, bytes=a- or bytes=-n; anything else gets the whole object */
                    Range?: string;
                    /** @description the ETag the range was taken from; another gets the whole object */
                    "If-Range"?: string;
                };
                path: {
                    /** @description <id>.<ext>, as the url of the upload names it */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the whole object: WebP to a client whose Accept names it, where the kind has a WebP rendition, else the original */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description the requested range */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        /** @description bytes start-end/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BAD_REQUEST (meta.param names it, meta.allowed lists what it may be): a size query asks for a size, fit, quality or format not offered */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_FOUND (meta.entity: the kind, or media): no such object, a path no kind serves, or an owner-only object */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the object store failed */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        /**
         * CORS preflight: what a page on another origin may ask
         * @description Answered for any path a kind serves, before any lookup (it says nothing of the object). With an origin MEDIA_CORS_ORIGINS allows, the Access-Control-Allow-* headers; without one, only Allow.
         */
        options: {
            parameters: {
                query?: never;
                header?: {
                    /** @description the page's origin */
                    Origin?: string;
                    /** @description GET or HEAD */
                    "Access-Control-Request-Method"?: string;
                    /** @description what the request will send, e.g. range, if-none-match */
                    "Access-Control-Request-Headers"?: string;
                };
                path: {
                    /** @description <id>.<ext>, as the url of the upload names it */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description what may be asked */
                204: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description GET, HEAD, OPTIONS */
                        Allow: string;
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        /** @description GET, HEAD, OPTIONS */
                        "Access-Control-Allow-Methods"?: string;
                        /** @description Range, If-Range, If-None-Match, If-Modified-Since, Accept, Authorization, X-Request-Id */
                        "Access-Control-Allow-Headers"?: string;
                        /** @description seconds a browser may keep this answer */
                        "Access-Control-Max-Age"?: string;
                        Vary: components["headers"]["EdgeVary"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description NOT_FOUND (meta.entity: media): a path no kind serves */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                500: components["responses"]["Internal"];
            };
        };
        /**
         * The headers of GET, without the body
         * @description Public objects are served to anyone; an owner-only (private) object only to its owner's credential with media.read, and 404 to everyone else. Not JSON, except the envelope of a 404 or 502.
         */
        head: {
            parameters: {
                query?: {
                    /** @description width in pixels, one of the allowed sizes (16 to 3840; docs/api.md); never enlarged past the original's */
                    w?: number;
                    /** @description height in pixels, one of the allowed sizes */
                    h?: number;
                    /** @description with w and h: cover (crop to fill, the default), contain (fit with transparent bars) or inside (fit, keep the shape) */
                    fit?: "cover" | "contain" | "inside";
                    /** @description quality, a multiple of 5 from 20 to 100 (default 75) */
                    q?: number;
                    /** @description avif, webp, jpeg or png; absent: AVIF when Accept names it, then WebP, else the original's type (PNG for WebP and AVIF originals) */
                    format?: "avif" | "webp" | "jpeg" | "png";
                };
                header?: {
                    /** @description naming image/webp (with a non-zero q) gets the WebP rendition of a raster image; with a size query, image/avif gets AVIF first */
                    Accept?: string;
                    /** @description an ETag (or *): 304 when it matches */
                    "If-None-Match"?: string;
                    /** @description one range, bytes=a-b, bytes=a- or bytes=-n; anything else gets the whole object */
                    Range?: string;
                    /** @description the ETag the range was taken from; another gets the whole object */
                    "If-Range"?: string;
                };
                path: {
                    /** @description <id>.<ext>, as the url of the upload names it */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the whole object: WebP to a client whose Accept names it, where the kind has a WebP rendition, else the original */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description the requested range */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        /** @description bytes start-end/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BAD_REQUEST (meta.param names it, meta.allowed lists what it may be): a size query asks for a size, fit, quality or format not offered */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description NOT_FOUND (meta.entity: the kind, or media): no such object, a path no kind serves, or an owner-only object */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the object store failed */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        patch?: never;
        trace?: never;
    };
    "/media/v/{id}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A video's master playlist, MP4 or thumbnail
         * @description A ready video's HLS master playlist (playback_url), variant playlists and MPEG-TS segments, its MP4 (direct_url) and thumbnail. Playlists are application/vnd.apple.mpegurl and kept 30 s by shared caches; segments, the MP4 and the thumbnail are immutable. A private video plays only under the signature segment POST /v1/videos/{id}/sign returns (s.<expiry>.<mac>): every playlist names its files by relative URIs, so they keep it. While the owner's video bandwidth is degraded the master playlist lists the lowest rendition only; while it is suspended everything but the thumbnail is 451 BANDWIDTH_SUSPENDED. A Mux-hosted video's master playlist and default thumbnail are, after the same checks, a 302 (no-store) to Mux (stream.mux.com, image.mux.com; a token in the URL when signing keys are configured); its variants and segments are served by Mux.
         */
        get: {
            parameters: {
                query?: {
                    /** @description width in pixels, one of the allowed sizes (16 to 3840; docs/api.md); never enlarged past the original's */
                    w?: number;
                    /** @description height in pixels, one of the allowed sizes */
                    h?: number;
                    /** @description with w and h: cover (crop to fill, the default), contain (fit with transparent bars) or inside (fit, keep the shape) */
                    fit?: "cover" | "contain" | "inside";
                    /** @description quality, a multiple of 5 from 20 to 100 (default 75) */
                    q?: number;
                    /** @description avif, webp, jpeg or png; absent: AVIF when Accept names it, then WebP, else the original's type (PNG for WebP and AVIF originals) */
                    format?: "avif" | "webp" | "jpeg" | "png";
                };
                header?: {
                    /** @description naming image/webp (with a non-zero q) gets the WebP rendition of a raster image; with a size query, image/avif gets AVIF first */
                    Accept?: string;
                    /** @description an ETag (or *): 304 when it matches */
                    "If-None-Match"?: string;
                    /** @description one range, bytes=a-b, bytes=a- or bytes=-n; anything else gets the whole object */
                    Range?: string;
                    /** @description the ETag the range was taken from; another gets the whole object */
                    "If-Range"?: string;
                };
                path: {
                    /** @description the video's id */
                    id: string;
                    /** @description master.m3u8, direct.mp4 or the thumbnail's name */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the whole object: WebP to a client whose Accept names it, where the kind has a WebP rendition, else the original */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description the requested range */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        /** @description bytes start-end/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BAD_REQUEST (meta.param names it, meta.allowed lists what it may be): a size query asks for a size, fit, quality or format not offered */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FORBIDDEN: a private video without a valid signature of its own, or any video with a wrong or expired one */
                403: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_FOUND (meta.entity: the kind, or media): no such object, a path no kind serves, or an owner-only object */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BANDWIDTH_SUSPENDED: the owner's monthly video bandwidth is over 120% of the plan */
                451: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the object store failed */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        /**
         * CORS preflight: what a page on another origin may ask
         * @description Answered for any path a kind serves, before any lookup (it says nothing of the object). With an origin MEDIA_CORS_ORIGINS allows, the Access-Control-Allow-* headers; without one, only Allow.
         */
        options: {
            parameters: {
                query?: never;
                header?: {
                    /** @description the page's origin */
                    Origin?: string;
                    /** @description GET or HEAD */
                    "Access-Control-Request-Method"?: string;
                    /** @description what the request will send, e.g. range, if-none-match */
                    "Access-Control-Request-Headers"?: string;
                };
                path: {
                    /** @description the video's id */
                    id: string;
                    /** @description master.m3u8, direct.mp4 or the thumbnail's name */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description what may be asked */
                204: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description GET, HEAD, OPTIONS */
                        Allow: string;
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        /** @description GET, HEAD, OPTIONS */
                        "Access-Control-Allow-Methods"?: string;
                        /** @description Range, If-Range, If-None-Match, If-Modified-Since, Accept, Authorization, X-Request-Id */
                        "Access-Control-Allow-Headers"?: string;
                        /** @description seconds a browser may keep this answer */
                        "Access-Control-Max-Age"?: string;
                        Vary: components["headers"]["EdgeVary"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description NOT_FOUND (meta.entity: media): a path no kind serves */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                500: components["responses"]["Internal"];
            };
        };
        /**
         * The headers of GET, without the body
         * @description A ready video's HLS master playlist (playback_url), variant playlists and MPEG-TS segments, its MP4 (direct_url) and thumbnail. Playlists are application/vnd.apple.mpegurl and kept 30 s by shared caches; segments, the MP4 and the thumbnail are immutable. A private video plays only under the signature segment POST /v1/videos/{id}/sign returns (s.<expiry>.<mac>): every playlist names its files by relative URIs, so they keep it. While the owner's video bandwidth is degraded the master playlist lists the lowest rendition only; while it is suspended everything but the thumbnail is 451 BANDWIDTH_SUSPENDED. A Mux-hosted video's master playlist and default thumbnail are, after the same checks, a 302 (no-store) to Mux (stream.mux.com, image.mux.com; a token in the URL when signing keys are configured); its variants and segments are served by Mux.
         */
        head: {
            parameters: {
                query?: {
                    /** @description width in pixels, one of the allowed sizes (16 to 3840; docs/api.md); never enlarged past the original's */
                    w?: number;
                    /** @description height in pixels, one of the allowed sizes */
                    h?: number;
                    /** @description with w and h: cover (crop to fill, the default), contain (fit with transparent bars) or inside (fit, keep the shape) */
                    fit?: "cover" | "contain" | "inside";
                    /** @description quality, a multiple of 5 from 20 to 100 (default 75) */
                    q?: number;
                    /** @description avif, webp, jpeg or png; absent: AVIF when Accept names it, then WebP, else the original's type (PNG for WebP and AVIF originals) */
                    format?: "avif" | "webp" | "jpeg" | "png";
                };
                header?: {
                    /** @description naming image/webp (with a non-zero q) gets the WebP rendition of a raster image; with a size query, image/avif gets AVIF first */
                    Accept?: string;
                    /** @description an ETag (or *): 304 when it matches */
                    "If-None-Match"?: string;
                    /** @description one range, bytes=a-b, bytes=a- or bytes=-n; anything else gets the whole object */
                    Range?: string;
                    /** @description the ETag the range was taken from; another gets the whole object */
                    "If-Range"?: string;
                };
                path: {
                    /** @description the video's id */
                    id: string;
                    /** @description master.m3u8, direct.mp4 or the thumbnail's name */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the whole object: WebP to a client whose Accept names it, where the kind has a WebP rendition, else the original */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description the requested range */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        /** @description bytes start-end/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BAD_REQUEST (meta.param names it, meta.allowed lists what it may be): a size query asks for a size, fit, quality or format not offered */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description FORBIDDEN: a private video without a valid signature of its own, or any video with a wrong or expired one */
                403: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description NOT_FOUND (meta.entity: the kind, or media): no such object, a path no kind serves, or an owner-only object */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BANDWIDTH_SUSPENDED: the owner's monthly video bandwidth is over 120% of the plan */
                451: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the object store failed */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        patch?: never;
        trace?: never;
    };
    "/media/v/{id}/{dir}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A variant playlist or segment (dir: 360p, 720p, 1080p), or a file under a signature (dir: s.<expiry>.<mac>)
         * @description A ready video's HLS master playlist (playback_url), variant playlists and MPEG-TS segments, its MP4 (direct_url) and thumbnail. Playlists are application/vnd.apple.mpegurl and kept 30 s by shared caches; segments, the MP4 and the thumbnail are immutable. A private video plays only under the signature segment POST /v1/videos/{id}/sign returns (s.<expiry>.<mac>): every playlist names its files by relative URIs, so they keep it. While the owner's video bandwidth is degraded the master playlist lists the lowest rendition only; while it is suspended everything but the thumbnail is 451 BANDWIDTH_SUSPENDED. A Mux-hosted video's master playlist and default thumbnail are, after the same checks, a 302 (no-store) to Mux (stream.mux.com, image.mux.com; a token in the URL when signing keys are configured); its variants and segments are served by Mux.
         */
        get: {
            parameters: {
                query?: {
                    /** @description width in pixels, one of the allowed sizes (16 to 3840; docs/api.md); never enlarged past the original's */
                    w?: number;
                    /** @description height in pixels, one of the allowed sizes */
                    h?: number;
                    /** @description with w and h: cover (crop to fill, the default), contain (fit with transparent bars) or inside (fit, keep the shape) */
                    fit?: "cover" | "contain" | "inside";
                    /** @description quality, a multiple of 5 from 20 to 100 (default 75) */
                    q?: number;
                    /** @description avif, webp, jpeg or png; absent: AVIF when Accept names it, then WebP, else the original's type (PNG for WebP and AVIF originals) */
                    format?: "avif" | "webp" | "jpeg" | "png";
                };
                header?: {
                    /** @description naming image/webp (with a non-zero q) gets the WebP rendition of a raster image; with a size query, image/avif gets AVIF first */
                    Accept?: string;
                    /** @description an ETag (or *): 304 when it matches */
                    "If-None-Match"?: string;
                    /** @description one range, bytes=a-b, bytes=a- or bytes=-n; anything else gets the whole object */
                    Range?: string;
                    /** @description the ETag the range was taken from; another gets the whole object */
                    "If-Range"?: string;
                };
                path: {
                    /** @description the video's id */
                    id: string;
                    /** @description a rendition, or the signature segment */
                    dir: string;
                    /** @description index.m3u8, seg_<n>.ts, or (under a signature) master.m3u8, direct.mp4, the thumbnail */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the whole object: WebP to a client whose Accept names it, where the kind has a WebP rendition, else the original */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description the requested range */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        /** @description bytes start-end/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BAD_REQUEST (meta.param names it, meta.allowed lists what it may be): a size query asks for a size, fit, quality or format not offered */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FORBIDDEN: a private video without a valid signature of its own, or any video with a wrong or expired one */
                403: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_FOUND (meta.entity: the kind, or media): no such object, a path no kind serves, or an owner-only object */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BANDWIDTH_SUSPENDED: the owner's monthly video bandwidth is over 120% of the plan */
                451: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the object store failed */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        /**
         * CORS preflight: what a page on another origin may ask
         * @description Answered for any path a kind serves, before any lookup (it says nothing of the object). With an origin MEDIA_CORS_ORIGINS allows, the Access-Control-Allow-* headers; without one, only Allow.
         */
        options: {
            parameters: {
                query?: never;
                header?: {
                    /** @description the page's origin */
                    Origin?: string;
                    /** @description GET or HEAD */
                    "Access-Control-Request-Method"?: string;
                    /** @description what the request will send, e.g. range, if-none-match */
                    "Access-Control-Request-Headers"?: string;
                };
                path: {
                    /** @description the video's id */
                    id: string;
                    /** @description a rendition, or the signature segment */
                    dir: string;
                    /** @description index.m3u8, seg_<n>.ts, or (under a signature) master.m3u8, direct.mp4, the thumbnail */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description what may be asked */
                204: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description GET, HEAD, OPTIONS */
                        Allow: string;
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        /** @description GET, HEAD, OPTIONS */
                        "Access-Control-Allow-Methods"?: string;
                        /** @description Range, If-Range, If-None-Match, If-Modified-Since, Accept, Authorization, X-Request-Id */
                        "Access-Control-Allow-Headers"?: string;
                        /** @description seconds a browser may keep this answer */
                        "Access-Control-Max-Age"?: string;
                        Vary: components["headers"]["EdgeVary"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description NOT_FOUND (meta.entity: media): a path no kind serves */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                500: components["responses"]["Internal"];
            };
        };
        /**
         * The headers of GET, without the body
         * @description A ready video's HLS master playlist (playback_url), variant playlists and MPEG-TS segments, its MP4 (direct_url) and thumbnail. Playlists are application/vnd.apple.mpegurl and kept 30 s by shared caches; segments, the MP4 and the thumbnail are immutable. A private video plays only under the signature segment POST /v1/videos/{id}/sign returns (s.<expiry>.<mac>): every playlist names its files by relative URIs, so they keep it. While the owner's video bandwidth is degraded the master playlist lists the lowest rendition only; while it is suspended everything but the thumbnail is 451 BANDWIDTH_SUSPENDED. A Mux-hosted video's master playlist and default thumbnail are, after the same checks, a 302 (no-store) to Mux (stream.mux.com, image.mux.com; a token in the URL when signing keys are configured); its variants and segments are served by Mux.
         */
        head: {
            parameters: {
                query?: {
                    /** @description width in pixels, one of the allowed sizes (16 to 3840; docs/api.md); never enlarged past the original's */
                    w?: number;
                    /** @description height in pixels, one of the allowed sizes */
                    h?: number;
                    /** @description with w and h: cover (crop to fill, the default), contain (fit with transparent bars) or inside (fit, keep the shape) */
                    fit?: "cover" | "contain" | "inside";
                    /** @description quality, a multiple of 5 from 20 to 100 (default 75) */
                    q?: number;
                    /** @description avif, webp, jpeg or png; absent: AVIF when Accept names it, then WebP, else the original's type (PNG for WebP and AVIF originals) */
                    format?: "avif" | "webp" | "jpeg" | "png";
                };
                header?: {
                    /** @description naming image/webp (with a non-zero q) gets the WebP rendition of a raster image; with a size query, image/avif gets AVIF first */
                    Accept?: string;
                    /** @description an ETag (or *): 304 when it matches */
                    "If-None-Match"?: string;
                    /** @description one range, bytes=a-b, bytes=a- or bytes=-n; anything else gets the whole object */
                    Range?: string;
                    /** @description the ETag the range was taken from; another gets the whole object */
                    "If-Range"?: string;
                };
                path: {
                    /** @description the video's id */
                    id: string;
                    /** @description a rendition, or the signature segment */
                    dir: string;
                    /** @description index.m3u8, seg_<n>.ts, or (under a signature) master.m3u8, direct.mp4, the thumbnail */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the whole object: WebP to a client whose Accept names it, where the kind has a WebP rendition, else the original */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description the requested range */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        /** @description bytes start-end/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BAD_REQUEST (meta.param names it, meta.allowed lists what it may be): a size query asks for a size, fit, quality or format not offered */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description FORBIDDEN: a private video without a valid signature of its own, or any video with a wrong or expired one */
                403: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description NOT_FOUND (meta.entity: the kind, or media): no such object, a path no kind serves, or an owner-only object */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BANDWIDTH_SUSPENDED: the owner's monthly video bandwidth is over 120% of the plan */
                451: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the object store failed */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        patch?: never;
        trace?: never;
    };
    "/media/v/{id}/{signature}/{rendition}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A variant playlist or segment under a signature
         * @description A ready video's HLS master playlist (playback_url), variant playlists and MPEG-TS segments, its MP4 (direct_url) and thumbnail. Playlists are application/vnd.apple.mpegurl and kept 30 s by shared caches; segments, the MP4 and the thumbnail are immutable. A private video plays only under the signature segment POST /v1/videos/{id}/sign returns (s.<expiry>.<mac>): every playlist names its files by relative URIs, so they keep it. While the owner's video bandwidth is degraded the master playlist lists the lowest rendition only; while it is suspended everything but the thumbnail is 451 BANDWIDTH_SUSPENDED. A Mux-hosted video's master playlist and default thumbnail are, after the same checks, a 302 (no-store) to Mux (stream.mux.com, image.mux.com; a token in the URL when signing keys are configured); its variants and segments are served by Mux.
         */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description naming image/webp (with a non-zero q) gets the WebP rendition of a raster image; with a size query, image/avif gets AVIF first */
                    Accept?: string;
                    /** @description an ETag (or *): 304 when it matches */
                    "If-None-Match"?: string;
                    /** @description one range, bytes=a-b, bytes=a- or bytes=-n; anything else gets the whole object */
                    Range?: string;
                    /** @description the ETag the range was taken from; another gets the whole object */
                    "If-Range"?: string;
                };
                path: {
                    /** @description the video's id */
                    id: string;
                    /** @description s.<expiry>.<mac>, from POST /v1/videos/{id}/sign */
                    signature: string;
                    /** @description 360p, 720p or 1080p */
                    rendition: string;
                    /** @description index.m3u8 or seg_<n>.ts */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the whole object: WebP to a client whose Accept names it, where the kind has a WebP rendition, else the original */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description the requested range */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        /** @description bytes start-end/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description FORBIDDEN: a private video without a valid signature of its own, or any video with a wrong or expired one */
                403: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_FOUND (meta.entity: the kind, or media): no such object, a path no kind serves, or an owner-only object */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BANDWIDTH_SUSPENDED: the owner's monthly video bandwidth is over 120% of the plan */
                451: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the object store failed */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        /**
         * CORS preflight: what a page on another origin may ask
         * @description Answered for any path a kind serves, before any lookup (it says nothing of the object). With an origin MEDIA_CORS_ORIGINS allows, the Access-Control-Allow-* headers; without one, only Allow.
         */
        options: {
            parameters: {
                query?: never;
                header?: {
                    /** @description the page's origin */
                    Origin?: string;
                    /** @description GET or HEAD */
                    "Access-Control-Request-Method"?: string;
                    /** @description what the request will send, e.g. range, if-none-match */
                    "Access-Control-Request-Headers"?: string;
                };
                path: {
                    /** @description the video's id */
                    id: string;
                    /** @description s.<expiry>.<mac>, from POST /v1/videos/{id}/sign */
                    signature: string;
                    /** @description 360p, 720p or 1080p */
                    rendition: string;
                    /** @description index.m3u8 or seg_<n>.ts */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description what may be asked */
                204: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description GET, HEAD, OPTIONS */
                        Allow: string;
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        /** @description GET, HEAD, OPTIONS */
                        "Access-Control-Allow-Methods"?: string;
                        /** @description Range, If-Range, If-None-Match, If-Modified-Since, Accept, Authorization, X-Request-Id */
                        "Access-Control-Allow-Headers"?: string;
                        /** @description seconds a browser may keep this answer */
                        "Access-Control-Max-Age"?: string;
                        Vary: components["headers"]["EdgeVary"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description NOT_FOUND (meta.entity: media): a path no kind serves */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                500: components["responses"]["Internal"];
            };
        };
        /**
         * The headers of GET, without the body
         * @description A ready video's HLS master playlist (playback_url), variant playlists and MPEG-TS segments, its MP4 (direct_url) and thumbnail. Playlists are application/vnd.apple.mpegurl and kept 30 s by shared caches; segments, the MP4 and the thumbnail are immutable. A private video plays only under the signature segment POST /v1/videos/{id}/sign returns (s.<expiry>.<mac>): every playlist names its files by relative URIs, so they keep it. While the owner's video bandwidth is degraded the master playlist lists the lowest rendition only; while it is suspended everything but the thumbnail is 451 BANDWIDTH_SUSPENDED. A Mux-hosted video's master playlist and default thumbnail are, after the same checks, a 302 (no-store) to Mux (stream.mux.com, image.mux.com; a token in the URL when signing keys are configured); its variants and segments are served by Mux.
         */
        head: {
            parameters: {
                query?: never;
                header?: {
                    /** @description naming image/webp (with a non-zero q) gets the WebP rendition of a raster image; with a size query, image/avif gets AVIF first */
                    Accept?: string;
                    /** @description an ETag (or *): 304 when it matches */
                    "If-None-Match"?: string;
                    /** @description one range, bytes=a-b, bytes=a- or bytes=-n; anything else gets the whole object */
                    Range?: string;
                    /** @description the ETag the range was taken from; another gets the whole object */
                    "If-Range"?: string;
                };
                path: {
                    /** @description the video's id */
                    id: string;
                    /** @description s.<expiry>.<mac>, from POST /v1/videos/{id}/sign */
                    signature: string;
                    /** @description 360p, 720p or 1080p */
                    rendition: string;
                    /** @description index.m3u8 or seg_<n>.ts */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the whole object: WebP to a client whose Accept names it, where the kind has a WebP rendition, else the original */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description the requested range */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        /** @description bytes start-end/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description FORBIDDEN: a private video without a valid signature of its own, or any video with a wrong or expired one */
                403: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description NOT_FOUND (meta.entity: the kind, or media): no such object, a path no kind serves, or an owner-only object */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BANDWIDTH_SUSPENDED: the owner's monthly video bandwidth is over 120% of the plan */
                451: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the object store failed */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        patch?: never;
        trace?: never;
    };
    "/media/a/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An audio file
         * @description An audio file's bytes (url of the audio resource) as the MIME type of the format its bytes showed, with ranges; and its thumbnail (thumbnailUrl): the embedded cover as a JPEG, or the format's default SVG. The file counts in media bandwidth, the thumbnail in image bandwidth; the video bandwidth state never stops audio. A private file, and its thumbnail, only to its owner's credential with media.read (404 to everyone else).
         */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description naming image/webp (with a non-zero q) gets the WebP rendition of a raster image; with a size query, image/avif gets AVIF first */
                    Accept?: string;
                    /** @description an ETag (or *): 304 when it matches */
                    "If-None-Match"?: string;
                    /** @description one range, bytes=a-b, bytes=a- or bytes=-n; anything else gets the whole object */
                    Range?: string;
                    /** @description the ETag the range was taken from; another gets the whole object */
                    "If-Range"?: string;
                };
                path: {
                    /** @description <id>.<ext>, as url names it */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the whole object: WebP to a client whose Accept names it, where the kind has a WebP rendition, else the original */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description the requested range */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        /** @description bytes start-end/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description NOT_FOUND (meta.entity: the kind, or media): no such object, a path no kind serves, or an owner-only object */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the object store failed */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        /**
         * CORS preflight: what a page on another origin may ask
         * @description Answered for any path a kind serves, before any lookup (it says nothing of the object). With an origin MEDIA_CORS_ORIGINS allows, the Access-Control-Allow-* headers; without one, only Allow.
         */
        options: {
            parameters: {
                query?: never;
                header?: {
                    /** @description the page's origin */
                    Origin?: string;
                    /** @description GET or HEAD */
                    "Access-Control-Request-Method"?: string;
                    /** @description what the request will send, e.g. range, if-none-match */
                    "Access-Control-Request-Headers"?: string;
                };
                path: {
                    /** @description <id>.<ext>, as url names it */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description what may be asked */
                204: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description GET, HEAD, OPTIONS */
                        Allow: string;
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        /** @description GET, HEAD, OPTIONS */
                        "Access-Control-Allow-Methods"?: string;
                        /** @description Range, If-Range, If-None-Match, If-Modified-Since, Accept, Authorization, X-Request-Id */
                        "Access-Control-Allow-Headers"?: string;
                        /** @description seconds a browser may keep this answer */
                        "Access-Control-Max-Age"?: string;
                        Vary: components["headers"]["EdgeVary"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description NOT_FOUND (meta.entity: media): a path no kind serves */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                500: components["responses"]["Internal"];
            };
        };
        /**
         * The headers of GET, without the body
         * @description An audio file's bytes (url of the audio resource) as the MIME type of the format its bytes showed, with ranges; and its thumbnail (thumbnailUrl): the embedded cover as a JPEG, or the format's default SVG. The file counts in media bandwidth, the thumbnail in image bandwidth; the video bandwidth state never stops audio. A private file, and its thumbnail, only to its owner's credential with media.read (404 to everyone else).
         */
        head: {
            parameters: {
                query?: never;
                header?: {
                    /** @description naming image/webp (with a non-zero q) gets the WebP rendition of a raster image; with a size query, image/avif gets AVIF first */
                    Accept?: string;
                    /** @description an ETag (or *): 304 when it matches */
                    "If-None-Match"?: string;
                    /** @description one range, bytes=a-b, bytes=a- or bytes=-n; anything else gets the whole object */
                    Range?: string;
                    /** @description the ETag the range was taken from; another gets the whole object */
                    "If-Range"?: string;
                };
                path: {
                    /** @description <id>.<ext>, as url names it */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the whole object: WebP to a client whose Accept names it, where the kind has a WebP rendition, else the original */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description the requested range */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        /** @description bytes start-end/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description NOT_FOUND (meta.entity: the kind, or media): no such object, a path no kind serves, or an owner-only object */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the object store failed */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        patch?: never;
        trace?: never;
    };
    "/media/a/{id}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An audio file's thumbnail
         * @description An audio file's bytes (url of the audio resource) as the MIME type of the format its bytes showed, with ranges; and its thumbnail (thumbnailUrl): the embedded cover as a JPEG, or the format's default SVG. The file counts in media bandwidth, the thumbnail in image bandwidth; the video bandwidth state never stops audio. A private file, and its thumbnail, only to its owner's credential with media.read (404 to everyone else).
         */
        get: {
            parameters: {
                query?: {
                    /** @description width in pixels, one of the allowed sizes (16 to 3840; docs/api.md); never enlarged past the original's */
                    w?: number;
                    /** @description height in pixels, one of the allowed sizes */
                    h?: number;
                    /** @description with w and h: cover (crop to fill, the default), contain (fit with transparent bars) or inside (fit, keep the shape) */
                    fit?: "cover" | "contain" | "inside";
                    /** @description quality, a multiple of 5 from 20 to 100 (default 75) */
                    q?: number;
                    /** @description avif, webp, jpeg or png; absent: AVIF when Accept names it, then WebP, else the original's type (PNG for WebP and AVIF originals) */
                    format?: "avif" | "webp" | "jpeg" | "png";
                };
                header?: {
                    /** @description naming image/webp (with a non-zero q) gets the WebP rendition of a raster image; with a size query, image/avif gets AVIF first */
                    Accept?: string;
                    /** @description an ETag (or *): 304 when it matches */
                    "If-None-Match"?: string;
                    /** @description one range, bytes=a-b, bytes=a- or bytes=-n; anything else gets the whole object */
                    Range?: string;
                    /** @description the ETag the range was taken from; another gets the whole object */
                    "If-Range"?: string;
                };
                path: {
                    /** @description the audio file's id */
                    id: string;
                    /** @description cover.jpg (an embedded cover; takes an image's size query) or cover.svg (the default), as thumbnailUrl names it */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the whole object: WebP to a client whose Accept names it, where the kind has a WebP rendition, else the original */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description the requested range */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        /** @description bytes start-end/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BAD_REQUEST (meta.param names it, meta.allowed lists what it may be): a size query asks for a size, fit, quality or format not offered */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_FOUND (meta.entity: the kind, or media): no such object, a path no kind serves, or an owner-only object */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the object store failed */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        /**
         * CORS preflight: what a page on another origin may ask
         * @description Answered for any path a kind serves, before any lookup (it says nothing of the object). With an origin MEDIA_CORS_ORIGINS allows, the Access-Control-Allow-* headers; without one, only Allow.
         */
        options: {
            parameters: {
                query?: never;
                header?: {
                    /** @description the page's origin */
                    Origin?: string;
                    /** @description GET or HEAD */
                    "Access-Control-Request-Method"?: string;
                    /** @description what the request will send, e.g. range, if-none-match */
                    "Access-Control-Request-Headers"?: string;
                };
                path: {
                    /** @description the audio file's id */
                    id: string;
                    /** @description cover.jpg (an embedded cover; takes an image's size query) or cover.svg (the default), as thumbnailUrl names it */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description what may be asked */
                204: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description GET, HEAD, OPTIONS */
                        Allow: string;
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        /** @description GET, HEAD, OPTIONS */
                        "Access-Control-Allow-Methods"?: string;
                        /** @description Range, If-Range, If-None-Match, If-Modified-Since, Accept, Authorization, X-Request-Id */
                        "Access-Control-Allow-Headers"?: string;
                        /** @description seconds a browser may keep this answer */
                        "Access-Control-Max-Age"?: string;
                        Vary: components["headers"]["EdgeVary"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description NOT_FOUND (meta.entity: media): a path no kind serves */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                500: components["responses"]["Internal"];
            };
        };
        /**
         * The headers of GET, without the body
         * @description An audio file's bytes (url of the audio resource) as the MIME type of the format its bytes showed, with ranges; and its thumbnail (thumbnailUrl): the embedded cover as a JPEG, or the format's default SVG. The file counts in media bandwidth, the thumbnail in image bandwidth; the video bandwidth state never stops audio. A private file, and its thumbnail, only to its owner's credential with media.read (404 to everyone else).
         */
        head: {
            parameters: {
                query?: {
                    /** @description width in pixels, one of the allowed sizes (16 to 3840; docs/api.md); never enlarged past the original's */
                    w?: number;
                    /** @description height in pixels, one of the allowed sizes */
                    h?: number;
                    /** @description with w and h: cover (crop to fill, the default), contain (fit with transparent bars) or inside (fit, keep the shape) */
                    fit?: "cover" | "contain" | "inside";
                    /** @description quality, a multiple of 5 from 20 to 100 (default 75) */
                    q?: number;
                    /** @description avif, webp, jpeg or png; absent: AVIF when Accept names it, then WebP, else the original's type (PNG for WebP and AVIF originals) */
                    format?: "avif" | "webp" | "jpeg" | "png";
                };
                header?: {
                    /** @description naming image/webp (with a non-zero q) gets the WebP rendition of a raster image; with a size query, image/avif gets AVIF first */
                    Accept?: string;
                    /** @description an ETag (or *): 304 when it matches */
                    "If-None-Match"?: string;
                    /** @description one range, bytes=a-b, bytes=a- or bytes=-n; anything else gets the whole object */
                    Range?: string;
                    /** @description the ETag the range was taken from; another gets the whole object */
                    "If-Range"?: string;
                };
                path: {
                    /** @description the audio file's id */
                    id: string;
                    /** @description cover.jpg (an embedded cover; takes an image's size query) or cover.svg (the default), as thumbnailUrl names it */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the whole object: WebP to a client whose Accept names it, where the kind has a WebP rendition, else the original */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description the requested range */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        "Content-Length": components["headers"]["EdgeContentLength"];
                        /** @description bytes start-end/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Not Modified: If-None-Match names the ETag */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BAD_REQUEST (meta.param names it, meta.allowed lists what it may be): a size query asks for a size, fit, quality or format not offered */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description NOT_FOUND (meta.entity: the kind, or media): no such object, a path no kind serves, or an owner-only object */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        ETag: components["headers"]["EdgeETag"];
                        "Cache-Control": components["headers"]["EdgeCacheControl"];
                        "Accept-Ranges": components["headers"]["EdgeAcceptRanges"];
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        Vary: components["headers"]["EdgeVary"];
                        "Content-Security-Policy": components["headers"]["EdgeContentSecurityPolicy"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        /** @description bytes *\/size */
                        "Content-Range": string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                /** @description STORAGE_ERROR: the object store failed */
                502: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description no-store */
                        "Cache-Control": "no-store";
                        "X-Content-Type-Options": components["headers"]["EdgeNoSniff"];
                        "Access-Control-Allow-Origin": components["headers"]["EdgeAllowOrigin"];
                        "Access-Control-Expose-Headers": components["headers"]["EdgeExposeHeaders"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        patch?: never;
        trace?: never;
    };
    "/s/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A share link's page: the item, a note, or a KB folder, with Open Graph tags and oEmbed discovery
         * @description Anonymous. An image, an audio player and a note work without a script; a video plays in the player's script. A link with a password shows its form until the browser gave it (a cookie of the link's path, one hour). Each answer that shows the content counts one view. `?path=` opens a subfolder of a shared KB folder.
         */
        get: {
            parameters: {
                query?: {
                    /** @description kb links: a folder below the shared one */
                    path?: string;
                };
                header?: never;
                path: {
                    /** @description the link's token (32 characters) */
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the content, or the password form */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description no such link, or its item is gone (the envelope for the path with a trailing slash, which is no page) */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the link was revoked or has expired */
                410: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                500: components["responses"]["Internal"];
                /** @description the database does not answer (Retry-After) */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        /**
         * A share link's password form
         * @description application/x-www-form-urlencoded with `password`. The right one: 303 to the page with a cookie for the link's path (one hour, HttpOnly, SameSite=Lax). A wrong one: the form again with the error (401), never the content. Tries are limited per link and address (429 with Retry-After).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the link's token (32 characters) */
                    token: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        password: string;
                    };
                };
            };
            responses: {
                /** @description See Other: the page */
                303: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        Location: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description far more than a password form (the connection is closed) */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the form again: the password is not right */
                401: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description no such link */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the link was revoked or has expired */
                410: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description too many tries (Retry-After) */
                429: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                500: components["responses"]["Internal"];
                /** @description the database does not answer (Retry-After) */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/s/{token}/d/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A note of a shared KB folder, rendered as on the link's page
         * @description Only a document in the shared folder (any depth). Not counted as a view of the link.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the link's token (32 characters) */
                    token: string;
                    /** @description the document's id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the note, or the link's password form */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description no such link, or no such document in its folder */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description the link was revoked or has expired */
                410: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                500: components["responses"]["Internal"];
                /** @description the database does not answer (Retry-After) */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/s/{token}/f/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A file of a shared KB folder (a picture of its gallery): its bytes, as GET /v1/kbs/{id}/raw answers a file
         * @description Only a file in the shared folder, while the link opens (with its password's cookie, if it has one).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the link's token (32 characters) */
                    token: string;
                    /** @description the file's id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the bytes */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description a range of them */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description Not Modified */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                404: components["responses"]["NotFound"];
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                502: components["responses"]["BadGateway"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/s/{token}/m/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A link's media: its item's file as the media edge serves it (ranges, validators, size variants of an image)
         * @description The path after /m/ is the item's path below MEDIA_URL (<id>.<ext>, a/<id>.<ext>, a/<id>/cover.jpg, v/<id>/master.m3u8 and the playlists and segments it names, relative to it). Only the link's own item, and only while the link opens (read from the database on every request): a revoked or expired link's media are 404 at once. A link with a password needs its cookie.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the link's token (32 characters) */
                    token: string;
                    /** @description <id>.<ext> of an image */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the bytes */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description a range of them */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description Not Modified */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                404: components["responses"]["NotFound"];
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BANDWIDTH_SUSPENDED: a video while its owner's playback is suspended */
                451: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                500: components["responses"]["Internal"];
                502: components["responses"]["BadGateway"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/s/{token}/m/{kind}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A link's media: its item's file as the media edge serves it (ranges, validators, size variants of an image)
         * @description The path after /m/ is the item's path below MEDIA_URL (<id>.<ext>, a/<id>.<ext>, a/<id>/cover.jpg, v/<id>/master.m3u8 and the playlists and segments it names, relative to it). Only the link's own item, and only while the link opens (read from the database on every request): a revoked or expired link's media are 404 at once. A link with a password needs its cookie.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the link's token (32 characters) */
                    token: string;
                    /** @description a */
                    kind: string;
                    /** @description <id>.<ext> of an audio file */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the bytes */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description a range of them */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description Not Modified */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                404: components["responses"]["NotFound"];
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BANDWIDTH_SUSPENDED: a video while its owner's playback is suspended */
                451: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                500: components["responses"]["Internal"];
                502: components["responses"]["BadGateway"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/s/{token}/m/{kind}/{id}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A link's media: its item's file as the media edge serves it (ranges, validators, size variants of an image)
         * @description The path after /m/ is the item's path below MEDIA_URL (<id>.<ext>, a/<id>.<ext>, a/<id>/cover.jpg, v/<id>/master.m3u8 and the playlists and segments it names, relative to it). Only the link's own item, and only while the link opens (read from the database on every request): a revoked or expired link's media are 404 at once. A link with a password needs its cookie.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the link's token (32 characters) */
                    token: string;
                    /** @description a or v */
                    kind: string;
                    /** @description the item's id */
                    id: string;
                    /** @description cover.jpg, master.m3u8, thumb.jpg, direct.mp4 */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the bytes */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description a range of them */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description Not Modified */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                404: components["responses"]["NotFound"];
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BANDWIDTH_SUSPENDED: a video while its owner's playback is suspended */
                451: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                500: components["responses"]["Internal"];
                502: components["responses"]["BadGateway"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/s/{token}/m/{kind}/{id}/{dir}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A link's media: its item's file as the media edge serves it (ranges, validators, size variants of an image)
         * @description The path after /m/ is the item's path below MEDIA_URL (<id>.<ext>, a/<id>.<ext>, a/<id>/cover.jpg, v/<id>/master.m3u8 and the playlists and segments it names, relative to it). Only the link's own item, and only while the link opens (read from the database on every request): a revoked or expired link's media are 404 at once. A link with a password needs its cookie.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the link's token (32 characters) */
                    token: string;
                    /** @description v */
                    kind: string;
                    /** @description the video's id */
                    id: string;
                    /** @description a rendition (720p) or subs */
                    dir: string;
                    /** @description a variant playlist or segment */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the bytes */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description a range of them */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description Not Modified */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                404: components["responses"]["NotFound"];
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description BANDWIDTH_SUSPENDED: a video while its owner's playback is suspended */
                451: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                500: components["responses"]["Internal"];
                502: components["responses"]["BadGateway"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/p/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A published site's home: its index or README note, or its list of notes; with ?q=, a search of its notes
         * @description Anonymous, no script. Read from the KB on each request. The navigation lists the published folder's notes.
         */
        get: {
            parameters: {
                query?: {
                    /** @description words to look for in the site's notes */
                    q?: string;
                };
                header?: never;
                path: {
                    /** @description the site's slug */
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the page */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description no such site: never published, unpublished, or its KB is in the trash or gone */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                500: components["responses"]["Internal"];
                /** @description the database does not answer (Retry-After) */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/p/{slug}/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A note of a published site (its path without the extension), or a file of it (its path)
         * @description A note is rendered with the dashboard's renderer; its wikilinks, Markdown links and embeds lead to the site's own URLs, and only within the published folder (a link out of it is its words). A file answers its bytes as GET /v1/kbs/{id}/raw does.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the site's slug */
                    slug: string;
                    /** @description a note's name without its extension, or a file's name */
                    path: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the note's page, or the file's bytes */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                        "*/*": Blob;
                    };
                };
                /** @description a file: the range asked for */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description a file: Not Modified */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no such site, or no such note or file in its folder */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                502: components["responses"]["BadGateway"];
                /** @description the database does not answer (Retry-After) */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/p/{slug}/{folder}/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A note of a published site (its path without the extension), or a file of it (its path)
         * @description A note is rendered with the dashboard's renderer; its wikilinks, Markdown links and embeds lead to the site's own URLs, and only within the published folder (a link out of it is its words). A file answers its bytes as GET /v1/kbs/{id}/raw does.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the site's slug */
                    slug: string;
                    /** @description a folder below the published one */
                    folder: string;
                    /** @description a note's name without its extension, or a file's name */
                    path: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the note's page, or the file's bytes */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                        "*/*": Blob;
                    };
                };
                /** @description a file: the range asked for */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description a file: Not Modified */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no such site, or no such note or file in its folder */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                502: components["responses"]["BadGateway"];
                /** @description the database does not answer (Retry-After) */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/p/{slug}/{folder}/{sub}/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A note of a published site (its path without the extension), or a file of it (its path)
         * @description A note is rendered with the dashboard's renderer; its wikilinks, Markdown links and embeds lead to the site's own URLs, and only within the published folder (a link out of it is its words). A file answers its bytes as GET /v1/kbs/{id}/raw does.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the site's slug */
                    slug: string;
                    /** @description a folder below the published one */
                    folder: string;
                    /** @description a folder below the published one */
                    sub: string;
                    /** @description a note's name without its extension, or a file's name */
                    path: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the note's page, or the file's bytes */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                        "*/*": Blob;
                    };
                };
                /** @description a file: the range asked for */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description a file: Not Modified */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no such site, or no such note or file in its folder */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                502: components["responses"]["BadGateway"];
                /** @description the database does not answer (Retry-After) */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/p/{slug}/{folder}/{sub}/{sub2}/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A note of a published site (its path without the extension), or a file of it (its path)
         * @description A note is rendered with the dashboard's renderer; its wikilinks, Markdown links and embeds lead to the site's own URLs, and only within the published folder (a link out of it is its words). A file answers its bytes as GET /v1/kbs/{id}/raw does.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the site's slug */
                    slug: string;
                    /** @description a folder below the published one */
                    folder: string;
                    /** @description a folder below the published one */
                    sub: string;
                    /** @description a folder below the published one */
                    sub2: string;
                    /** @description a note's name without its extension, or a file's name */
                    path: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the note's page, or the file's bytes */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                        "*/*": Blob;
                    };
                };
                /** @description a file: the range asked for */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description a file: Not Modified */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no such site, or no such note or file in its folder */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                502: components["responses"]["BadGateway"];
                /** @description the database does not answer (Retry-After) */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/p/{slug}/{folder}/{sub}/{sub2}/{sub3}/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A note of a published site (its path without the extension), or a file of it (its path)
         * @description A note is rendered with the dashboard's renderer; its wikilinks, Markdown links and embeds lead to the site's own URLs, and only within the published folder (a link out of it is its words). A file answers its bytes as GET /v1/kbs/{id}/raw does.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the site's slug */
                    slug: string;
                    /** @description a folder below the published one */
                    folder: string;
                    /** @description a folder below the published one */
                    sub: string;
                    /** @description a folder below the published one */
                    sub2: string;
                    /** @description a folder below the published one */
                    sub3: string;
                    /** @description a note's name without its extension, or a file's name */
                    path: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the note's page, or the file's bytes */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                        "*/*": Blob;
                    };
                };
                /** @description a file: the range asked for */
                206: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "*/*": Blob;
                    };
                };
                /** @description a file: Not Modified */
                304: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no such site, or no such note or file in its folder */
                404: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Range Not Satisfiable */
                416: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                500: components["responses"]["Internal"];
                502: components["responses"]["BadGateway"];
                /** @description the database does not answer (Retry-After) */
                503: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth protected resource metadata of the MCP server (RFC 9728) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description MCP_URL: the audience tokens must be issued for (resource=...) */
                            resource: string;
                            authorization_servers: string[];
                            scopes_supported: string[];
                            bearer_methods_supported: string[];
                            resource_name: string;
                            resource_documentation: string;
                        };
                    };
                };
                500: components["responses"]["Internal"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The hosted MCP server (Streamable HTTP, stateless): one JSON-RPC message in, its answer out
         * @description OAuth access tokens issued for MCP_URL only (authorize with resource=MCP_URL); an API key, a session or a token for the API is 401. A tool call without the tool's scope is 403 insufficient_scope naming the scopes to ask for. A request whose Origin is not one of the service's (or MCP_ALLOWED_ORIGINS) is 403. Send Accept: application/json, text/event-stream. GET and DELETE are 405: there are no sessions and no server-initiated stream.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description the JSON-RPC answer */
                200: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                /** @description a notification or a response was accepted */
                202: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description not JSON, not JSON-RPC, or an unsupported MCP-Protocol-Version */
                400: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                /** @description no token, an invalid one, or one not issued for this MCP server */
                401: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description Bearer, with resource_metadata (and error, scope) */
                        "WWW-Authenticate": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                /** @description insufficient_scope, or a refused Origin */
                403: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        /** @description Bearer, with resource_metadata (and error, scope) */
                        "WWW-Authenticate": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                /** @description GET or DELETE */
                405: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                /** @description Accept does not take application/json and text/event-stream */
                406: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                /** @description the body is over 72 MiB */
                413: {
                    headers: {
                        "x-request-id": components["headers"]["RequestId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                500: components["responses"]["Internal"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Error */
        Error: {
            /** @constant */
            success: false;
            error: string;
            /** @enum {string} */
            code: "BAD_REQUEST" | "INVALID_SYNC_VERSION" | "SYNC_VERSION_UNSUPPORTED" | "INVALID_CURSOR" | "RESET_TOKEN_INVALID" | "UNAUTHORIZED" | "API_KEY_REVOKED" | "TOKEN_EXPIRED" | "OAUTH_BEARER_INVALID" | "OAUTH_REFRESH_REPLAYED" | "TWO_FACTOR_REQUIRED" | "FORBIDDEN" | "OAUTH_SCOPE_INSUFFICIENT" | "QUOTA_EXCEEDED" | "PLAN_REQUIRED" | "PLAN_INACTIVE" | "EMAIL_NOT_VERIFIED" | "KB_LIMIT_REACHED" | "COLLECTION_LIMIT_REACHED" | "NOT_FOUND" | "DOC_REVISION_NOT_FOUND" | "CONFLICT" | "DOC_HASH_DUPLICATE" | "KB_SLUG_TAKEN" | "KB_NOT_EMPTY" | "COLLECTION_FULL" | "COLLECTION_ORDER_MISMATCH" | "COLLECTION_COVER_NOT_ITEM" | "SYNC_CONFLICT" | "SYNC_VERSION_MISMATCH" | "TRASH_PATH_TAKEN" | "TRASH_KB_GONE" | "REQUEST_TIMEOUT" | "LENGTH_REQUIRED" | "UPLOAD_EXPIRED" | "UPLOAD_FAILED" | "PRECONDITION_FAILED" | "TOMBSTONE_CURSOR_EXPIRED" | "SYNC_V1_SUNSET" | "EXPORT_EXPIRED" | "FILE_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "VALIDATION_ERROR" | "INVALID_FILE_TYPE" | "PASSKEY_INVALID" | "DOC_FILE_TOO_LARGE" | "DOC_IMAGE_LIMIT_EXCEEDED" | "DOC_INVALID_PATTERN" | "SYNC_HASH_REQUIRED" | "HASH_MISMATCH" | "CONFLICT_BRANCH_LIMIT_PER_DOC" | "CONFLICT_BRANCH_LIMIT_PER_USER" | "CONFLICT_BRANCH_LIMIT_SIZE" | "INVALID_OP_BATCH_SIZE" | "RATE_LIMITED" | "OAUTH_CLIENT_RATE_LIMITED" | "COMPLIANCE_BLOCKED" | "CHECKSUM_MISMATCH" | "BANDWIDTH_SUSPENDED" | "INTERNAL" | "NOT_IMPLEMENTED" | "STORAGE_ERROR" | "DEPENDENCY_UNAVAILABLE" | "SERVICE_UNAVAILABLE";
            meta: {
                [key: string]: unknown;
            };
        };
    };
    responses: {
        /** @description BAD_REQUEST: a body that is not well-formed JSON or multipart, or not UTF-8; INVALID_CURSOR: a cursor the list did not give out */
        BadRequest: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description UNAUTHORIZED, TOKEN_EXPIRED, API_KEY_REVOKED, OAUTH_BEARER_INVALID: missing, malformed or invalid credentials */
        Unauthorized: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                /** @description Bearer realm="shelf", when the credentials were missing or malformed */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description FORBIDDEN (meta.required: the scope, `session` or `admin` the route needs), OAUTH_SCOPE_INSUFFICIENT, QUOTA_EXCEEDED (meta.type, meta.used, meta.limit) */
        Forbidden: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description NOT_FOUND (meta.entity): absent, or another user's (existence is not disclosed) */
        NotFound: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description REQUEST_TIMEOUT: the upload's body did not arrive within UPLOAD_BODY_TIMEOUT_S; the connection is closed */
        RequestTimeout: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description CONFLICT: the state changed under the request (meta says what) */
        Conflict: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description FILE_TOO_LARGE (meta.limit): a JSON body over 1 MiB, or a file over the route's limit */
        PayloadTooLarge: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description UNSUPPORTED_MEDIA_TYPE: a body that is not application/json (or application/*+json) in UTF-8 */
        UnsupportedMediaType: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description VALIDATION_ERROR (meta.path: the first failing field, as body.email or query.limit; meta.issues: up to 20 { path, message }) */
        ValidationError: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description RATE_LIMITED (meta.type or meta.tier with meta.limit; or meta.bucket with meta.capacity, meta.refillPerMinute, meta.cost, meta.retryAfterMs): the RateLimit headers describe the limit that refused */
        RateLimited: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                "RateLimit-Reset": components["headers"]["RateLimitReset"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description INTERNAL: an unexpected failure; the body never holds a stack, SQL or a path */
        Internal: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description STORAGE_ERROR: the object store failed; nothing was kept */
        BadGateway: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description DEPENDENCY_UNAVAILABLE (meta.dependency: database): the database does not answer; SERVICE_UNAVAILABLE: another part the route needs does not answer, or the node is busy */
        ServiceUnavailable: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                /** @description seconds to wait: sent when the database is away, and when the node is busy (its upload memory or image work) */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description the request's id: the client's own x-request-id when it is 1 to 128 characters of A-Z a-z 0-9 . _ : -, else a new UUID */
        RequestId: string;
        /** @description requests per minute of the route's rate tier (on a 429: the limit that refused) */
        RateLimitLimit: number;
        /** @description requests left in the current window */
        RateLimitRemaining: number;
        /** @description seconds until the window has room again */
        RateLimitReset: number;
        /** @description seconds to wait before trying again */
        RetryAfter: number;
        /** @description strong validator of the representation sent (quotes included) */
        EdgeETag: string;
        /** @description `public, max-age=31536000, immutable` for a public object whose bytes never change (images), `public, no-cache` for one whose representation may, `private, no-cache` for an owner-only object */
        EdgeCacheControl: string;
        /** @description bytes */
        EdgeAcceptRanges: "bytes";
        /** @description nosniff: the Content-Type is to be believed */
        EdgeNoSniff: "nosniff";
        /** @description bytes of this response's body (of the range, for a 206); HEAD sends it without the body */
        EdgeContentLength: number;
        /** @description Accept, for a kind that negotiates (images); Origin, when MEDIA_CORS_ORIGINS lists origins (the answer depends on the request's Origin) */
        EdgeVary: string;
        /** @description CORS: * (MEDIA_CORS_ORIGINS=*, the default), or the request's Origin when MEDIA_CORS_ORIGINS lists it; absent otherwise */
        EdgeAllowOrigin: string;
        /** @description CORS: the headers a page on another origin may read (Content-Range, ETag, ...), with Access-Control-Allow-Origin */
        EdgeExposeHeaders: string;
        /** @description for SVG: runs nothing and loads nothing (sandbox) */
        EdgeContentSecurityPolicy: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @enum {string} */
                            status: "ok" | "unhealthy";
                            version: string;
                            checks?: {
                                database: {
                                    ok: boolean;
                                    kind: string;
                                    latencyMs: number;
                                    error?: string;
                                };
                                kv: {
                                    ok: boolean;
                                    kind: string;
                                    latencyMs: number;
                                    error?: string;
                                };
                                storage: {
                                    ok: boolean;
                                    kind: string;
                                    latencyMs: number;
                                    error?: string;
                                };
                            };
                            /** Format: date-time */
                            checkedAt?: string;
                        };
                    };
                };
            };
            500: components["responses"]["Internal"];
        };
    };
    getReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @enum {string} */
                            status: "ok" | "unhealthy";
                            version: string;
                            checks: {
                                database: {
                                    ok: boolean;
                                    kind: string;
                                    latencyMs: number;
                                    error?: string;
                                };
                                kv: {
                                    ok: boolean;
                                    kind: string;
                                    latencyMs: number;
                                    error?: string;
                                };
                                storage: {
                                    ok: boolean;
                                    kind: string;
                                    latencyMs: number;
                                    error?: string;
                                };
                            };
                            /** Format: date-time */
                            checkedAt: string;
                        };
                    };
                };
            };
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1AuthSetup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description false on an instance with no account yet: the next sign-up makes its first */
                            hasAccounts: boolean;
                            /** @description what the first account becomes; null once there is an account */
                            firstAccount: (({
                                /** @description the first account becomes an administrator (FIRST_USER_ADMIN, on unless the operator turned it off) */
                                isAdmin: boolean;
                                /**
                                 * @description its plan: FIRST_USER_PLAN, or DEFAULT_PLAN when FIRST_USER_ADMIN is off
                                 * @enum {string}
                                 */
                                plan: "trial" | "pro" | "pro_plus";
                                /**
                                 * @description the plan every later account gets (DEFAULT_PLAN)
                                 * @enum {string}
                                 */
                                laterPlan: "trial" | "pro" | "pro_plus";
                            } | null) | null) | null;
                            /** @description the OpenID provider people may sign in through (GET /v1/auth/oidc/start); null when the operator named none */
                            oidc: (({
                                /** @description the provider's name for the button "Sign in with <name>" (OIDC_NAME) */
                                name: string;
                                /** @description whether a first sign-in through it makes an account (OIDC_SIGNUP) */
                                signup: boolean;
                            } | null) | null) | null;
                        };
                    };
                };
            };
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1AuthSignup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: {
                shelf_refresh?: string;
            };
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @description at least 8 characters, not only one repeated character */
                    password: string;
                    nickname?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description the refresh cookie: shelf_refresh=<token>; Max-Age=604800; Path=/v1/auth; HttpOnly; SameSite=Lax (and Secure on https); Max-Age=0 clears it */
                    "Set-Cookie": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            user: {
                                id: string;
                                email: string;
                                nickname: ((string | null) | null) | null;
                                /** @enum {string} */
                                plan: "trial" | "pro" | "pro_plus";
                                isAdmin: boolean;
                            };
                            accessToken: string;
                            /** @description seconds */
                            expiresIn: number;
                            /** @description true when this was the first account on an instance with no accounts: it is an admin on FIRST_USER_PLAN (FIRST_USER_ADMIN) */
                            firstAccount: boolean;
                            /** @description a sentence for the person signing up when something about the account needs saying; else null */
                            notice: ((string | null) | null) | null;
                        };
                    };
                };
            };
            /** @description status 202 */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @constant */
                            verificationRequired: true;
                            /** @description what the person should do next: open the link mailed to the address */
                            message: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "postV1AuthVerify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                };
            };
        };
        responses: {
            /** @description status 202 */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description the same words whether the address has an account or not */
                            message: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "postV1AuthVerify-emailConfirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the token of the link the e-mail holds */
                    token: string;
                };
            };
        };
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "postV1AuthEmail-changeConfirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the token of the link the e-mail holds */
                    token: string;
                };
            };
        };
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1AuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: {
                shelf_refresh?: string;
                shelf_device?: string;
            };
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description the refresh cookie as above, and the device cookie: shelf_device=<proof>; Max-Age=15552000; Path=/v1/auth/login; HttpOnly; SameSite=Lax (and Secure on https) */
                    "Set-Cookie": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            user: {
                                id: string;
                                email: string;
                                nickname: ((string | null) | null) | null;
                                /** @enum {string} */
                                plan: "trial" | "pro" | "pro_plus";
                                isAdmin: boolean;
                            };
                            accessToken: string;
                            /** @description seconds */
                            expiresIn: number;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1AuthLogin2fa: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: {
                shelf_refresh?: string;
                shelf_device?: string;
            };
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description meta.challenge of the login's 401 TWO_FACTOR_REQUIRED */
                    challenge: string;
                    /** @description the 6-digit code the authenticator app shows */
                    code?: string;
                    /** @description one of the account's recovery codes, instead of code */
                    recoveryCode?: string;
                    /** @description the authenticator's answer: PublicKeyCredential.toJSON() of navigator.credentials.get() */
                    passkey?: {
                        /** @description the credential id, base64url */
                        id: string;
                        rawId: string;
                        /** @constant */
                        type: "public-key";
                        clientExtensionResults: {
                            [key: string]: unknown;
                        };
                        authenticatorAttachment?: string;
                        response: {
                            clientDataJSON: string;
                            authenticatorData: string;
                            signature: string;
                            userHandle?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description the refresh cookie as above, and the device cookie: shelf_device=<proof>; Max-Age=15552000; Path=/v1/auth/login; HttpOnly; SameSite=Lax (and Secure on https) */
                    "Set-Cookie": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            user: {
                                id: string;
                                email: string;
                                nickname: ((string | null) | null) | null;
                                /** @enum {string} */
                                plan: "trial" | "pro" | "pro_plus";
                                isAdmin: boolean;
                            };
                            accessToken: string;
                            /** @description seconds */
                            expiresIn: number;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "postV1AuthPassword-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                };
            };
        };
        responses: {
            /** @description status 202 */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description the same words whether the address has an account or not */
                            message: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "postV1AuthPassword-resetConfirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the token of the link the reset e-mail holds */
                    token: string;
                    newPassword: string;
                };
            };
        };
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1AuthRefresh: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: {
                shelf_refresh?: string;
            };
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description the refresh cookie: shelf_refresh=<token>; Max-Age=604800; Path=/v1/auth; HttpOnly; SameSite=Lax (and Secure on https); Max-Age=0 clears it */
                    "Set-Cookie": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            user: {
                                id: string;
                                email: string;
                                nickname: ((string | null) | null) | null;
                                /** @enum {string} */
                                plan: "trial" | "pro" | "pro_plus";
                                isAdmin: boolean;
                            };
                            accessToken: string;
                            /** @description seconds */
                            expiresIn: number;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1AuthLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: {
                shelf_refresh?: string;
            };
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description the refresh cookie: shelf_refresh=<token>; Max-Age=604800; Path=/v1/auth; HttpOnly; SameSite=Lax (and Secure on https); Max-Age=0 clears it */
                    "Set-Cookie": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1UserMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: string;
                            email: string;
                            /** @description the owner opened a link mailed to this address (a sign-up's, an address change's or a password reset's) */
                            emailVerified: boolean;
                            nickname: ((string | null) | null) | null;
                            /** @enum {string} */
                            plan: "trial" | "pro" | "pro_plus";
                            planActive: boolean;
                            /** Format: date-time */
                            planExpiresAt: ((string | null) | null) | null;
                            isAdmin: boolean;
                            docVersioningEnabled: boolean;
                            docVersioningMax: number;
                            /** @description whether the optional 80% quota e-mails are sent (100% and video bandwidth e-mails always are) */
                            quotaWarnings: boolean;
                            /** @description per notification kind, whether it is e-mailed and whether it is listed in-app. In-app is on for every kind by default; e-mail is on by default for quota_80 (the same switch as quotaWarnings), the mandatory quota_100 and video_bandwidth_* (their e-mail cannot be turned off) and conflict_branches_expiring, and off for the others */
                            notifications: {
                                quota_80: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                quota_100: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_bandwidth_degraded: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_bandwidth_over_110: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_bandwidth_suspended: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                conflict_branches_expiring: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                conflict_branch_created: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_ready: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_failed: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                api_key_created: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                api_key_revoked: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                oauth_authorized: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                device_signed_in: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                password_changed: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                sign_in_failures: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                new_sign_in: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                two_factor_enabled: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                two_factor_disabled: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                recovery_code_used: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                passkey_added: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                passkey_removed: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                sync_v1_final_reminder: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                export_ready: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                export_failed: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                webhook_disabled: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                            };
                            twoFactor: {
                                /** @description signing in asks for a code of an authenticator app after the password */
                                totp: boolean;
                                /** @description unused recovery codes (0 while two factors are off) */
                                recoveryCodesLeft: number;
                            };
                            /** @description false for an account made by signing in through the instance's OpenID provider until it sets a password (POST /v1/auth/password-reset) */
                            hasPassword: boolean;
                            /** Format: date-time */
                            createdAt: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchV1UserMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    nickname?: ((string | null) | null) | null;
                    docVersioningEnabled?: boolean;
                    docVersioningMax?: number;
                    quotaWarnings?: boolean;
                    notifications?: {
                        quota_80?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        quota_100?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        video_bandwidth_degraded?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        video_bandwidth_over_110?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        video_bandwidth_suspended?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        conflict_branches_expiring?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        conflict_branch_created?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        video_ready?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        video_failed?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        api_key_created?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        api_key_revoked?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        oauth_authorized?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        device_signed_in?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        password_changed?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        sign_in_failures?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        new_sign_in?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        two_factor_enabled?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        two_factor_disabled?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        recovery_code_used?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        passkey_added?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        passkey_removed?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        sync_v1_final_reminder?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        export_ready?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        export_failed?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                        webhook_disabled?: {
                            email?: boolean;
                            inApp?: boolean;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: string;
                            email: string;
                            /** @description the owner opened a link mailed to this address (a sign-up's, an address change's or a password reset's) */
                            emailVerified: boolean;
                            nickname: ((string | null) | null) | null;
                            /** @enum {string} */
                            plan: "trial" | "pro" | "pro_plus";
                            planActive: boolean;
                            /** Format: date-time */
                            planExpiresAt: ((string | null) | null) | null;
                            isAdmin: boolean;
                            docVersioningEnabled: boolean;
                            docVersioningMax: number;
                            /** @description whether the optional 80% quota e-mails are sent (100% and video bandwidth e-mails always are) */
                            quotaWarnings: boolean;
                            /** @description per notification kind, whether it is e-mailed and whether it is listed in-app. In-app is on for every kind by default; e-mail is on by default for quota_80 (the same switch as quotaWarnings), the mandatory quota_100 and video_bandwidth_* (their e-mail cannot be turned off) and conflict_branches_expiring, and off for the others */
                            notifications: {
                                quota_80: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                quota_100: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_bandwidth_degraded: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_bandwidth_over_110: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_bandwidth_suspended: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                conflict_branches_expiring: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                conflict_branch_created: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_ready: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_failed: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                api_key_created: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                api_key_revoked: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                oauth_authorized: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                device_signed_in: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                password_changed: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                sign_in_failures: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                new_sign_in: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                two_factor_enabled: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                two_factor_disabled: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                recovery_code_used: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                passkey_added: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                passkey_removed: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                sync_v1_final_reminder: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                export_ready: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                export_failed: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                webhook_disabled: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                            };
                            twoFactor: {
                                /** @description signing in asks for a code of an authenticator app after the password */
                                totp: boolean;
                                /** @description unused recovery codes (0 while two factors are off) */
                                recoveryCodesLeft: number;
                            };
                            /** @description false for an account made by signing in through the instance's OpenID provider until it sets a password (POST /v1/auth/password-reset) */
                            hasPassword: boolean;
                            /** Format: date-time */
                            createdAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1UserMePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currentPassword: string;
                    newPassword: string;
                };
            };
        };
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1UserMeEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    newEmail: string;
                    currentPassword: string;
                };
            };
        };
        responses: {
            /** @description status 202 */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description the same words whether the address has an account or not */
                            message: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1UserMe2faTotp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description the base32 secret, for an authenticator app that cannot read the URL; shown here only */
                            secret: string;
                            /** @description otpauth://totp/... for an authenticator app */
                            otpauthUrl: string;
                            /** @description the otpauth URL as a QR code: a data:image/svg+xml;base64 URL for an <img> */
                            qrCode: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1UserMe2faTotpConfirm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the 6-digit code the authenticator app shows */
                    code: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description single-use codes that sign in instead of a TOTP code; shown this once, only their hashes are stored */
                            recoveryCodes: string[];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "postV1UserMe2faRecovery-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the 6-digit code the authenticator app shows */
                    code: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description single-use codes that sign in instead of a TOTP code; shown this once, only their hashes are stored */
                            recoveryCodes: string[];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1UserMe2fa: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description the account's password, or a current code */
        requestBody: {
            content: {
                "application/json": {
                    password?: string;
                    /** @description the 6-digit code the authenticator app shows */
                    code?: string;
                };
            };
        };
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1UserMeSessions: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                /** @description the session of the access token that asked */
                                current: boolean;
                                /** @description browser and system read from the User-Agent, e.g. "Firefox 133 on Linux" */
                                device: ((string | null) | null) | null;
                                /** @description the User-Agent of the sign-in, as sent */
                                userAgent: ((string | null) | null) | null;
                                /** @description the client address of the sign-in, then of the latest refresh */
                                address: ((string | null) | null) | null;
                                /**
                                 * Format: date-time
                                 * @description the sign-in
                                 */
                                createdAt: string;
                                /**
                                 * Format: date-time
                                 * @description the latest sign-in or refresh (access tokens are refreshed every few minutes of use)
                                 */
                                lastUsedAt: ((string | null) | null) | null;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1UserMeSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description how many sessions were ended */
                            ended: number;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1UserMeSessionsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1UserMePasskeysOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description PublicKeyCredentialCreationOptionsJSON for navigator.credentials.create() (PublicKeyCredential.parseCreationOptionsFromJSON, or @simplewebauthn/browser's startRegistration); its challenge works once, for 5 minutes */
                            options: {
                                challenge: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1UserMePasskeys: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                name: string;
                                /**
                                 * @description multiDevice: a synced passkey (a password manager's, a platform's account)
                                 * @enum {string}
                                 */
                                deviceType: "singleDevice" | "multiDevice";
                                /** @description the passkey is backed up (synced): losing this device does not lose it */
                                backedUp: boolean;
                                /** Format: date-time */
                                createdAt: string;
                                /**
                                 * Format: date-time
                                 * @description its latest sign-in or second step
                                 */
                                lastUsedAt: ((string | null) | null) | null;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1UserMePasskeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description a name the owner knows it by ("Laptop", "Phone") */
                    name: string;
                    /** @description the authenticator's answer: PublicKeyCredential.toJSON() of navigator.credentials.create() */
                    response: {
                        /** @description the credential id, base64url */
                        id: string;
                        rawId: string;
                        /** @constant */
                        type: "public-key";
                        clientExtensionResults: {
                            [key: string]: unknown;
                        };
                        authenticatorAttachment?: string;
                        response: {
                            clientDataJSON: string;
                            attestationObject: string;
                            transports?: string[];
                            authenticatorData?: string;
                            publicKey?: string;
                            publicKeyAlgorithm?: number;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            passkey: {
                                id: string;
                                name: string;
                                /**
                                 * @description multiDevice: a synced passkey (a password manager's, a platform's account)
                                 * @enum {string}
                                 */
                                deviceType: "singleDevice" | "multiDevice";
                                /** @description the passkey is backed up (synced): losing this device does not lose it */
                                backedUp: boolean;
                                /** Format: date-time */
                                createdAt: string;
                                /**
                                 * Format: date-time
                                 * @description its latest sign-in or second step
                                 */
                                lastUsedAt: ((string | null) | null) | null;
                            };
                            /** @description when this passkey is the account's first factor beyond the password: 10 single-use recovery codes, shown this once; else null */
                            recoveryCodes: ((string[] | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1UserMePasskeysById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description the account's password, or a current code */
        requestBody: {
            content: {
                "application/json": {
                    password?: string;
                    /** @description the 6-digit code the authenticator app shows */
                    code?: string;
                };
            };
        };
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchV1UserMePasskeysById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description a name the owner knows it by ("Laptop", "Phone") */
                    name: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: string;
                            name: string;
                            /**
                             * @description multiDevice: a synced passkey (a password manager's, a platform's account)
                             * @enum {string}
                             */
                            deviceType: "singleDevice" | "multiDevice";
                            /** @description the passkey is backed up (synced): losing this device does not lose it */
                            backedUp: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @description its latest sign-in or second step
                             */
                            lastUsedAt: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1AuthPasskeyOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description PublicKeyCredentialRequestOptionsJSON for navigator.credentials.get() (PublicKeyCredential.parseRequestOptionsFromJSON, or startAuthentication); no allowCredentials: any passkey of this site may answer (conditional UI too) */
                            options: {
                                challenge: string;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description seconds the challenge is good for */
                            expiresIn: number;
                        };
                    };
                };
            };
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1AuthPasskey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: {
                shelf_refresh?: string;
                shelf_device?: string;
            };
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the authenticator's answer: PublicKeyCredential.toJSON() of navigator.credentials.get() */
                    response: {
                        /** @description the credential id, base64url */
                        id: string;
                        rawId: string;
                        /** @constant */
                        type: "public-key";
                        clientExtensionResults: {
                            [key: string]: unknown;
                        };
                        authenticatorAttachment?: string;
                        response: {
                            clientDataJSON: string;
                            authenticatorData: string;
                            signature: string;
                            userHandle?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description the refresh cookie as above, and the device cookie: shelf_device=<proof>; Max-Age=15552000; Path=/v1/auth/login; HttpOnly; SameSite=Lax (and Secure on https) */
                    "Set-Cookie": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            user: {
                                id: string;
                                email: string;
                                nickname: ((string | null) | null) | null;
                                /** @enum {string} */
                                plan: "trial" | "pro" | "pro_plus";
                                isAdmin: boolean;
                            };
                            accessToken: string;
                            /** @description seconds */
                            expiresIn: number;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "getV1Api-keys": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                name: string;
                                last4: string;
                                scopes: ("media.read" | "media.write" | "media.delete" | "kb.read" | "kb.write" | "account.read" | "usage.read")[];
                                /** Format: date-time */
                                lastUsedAt: ((string | null) | null) | null;
                                /** Format: date-time */
                                createdAt: string;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "postV1Api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description scope names or a legacy tier: read, read_write, read_write_delete. Default: every *.read and *.write scope */
                    scopes?: string[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: string;
                            name: string;
                            /** @description shown once; only its hash is stored */
                            key: string;
                            last4: string;
                            scopes: ("media.read" | "media.write" | "media.delete" | "kb.read" | "kb.write" | "account.read" | "usage.read")[];
                            /** Format: date-time */
                            createdAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "getV1Api-keysScopes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            scopes: {
                                /** @enum {string} */
                                name: "media.read" | "media.write" | "media.delete" | "kb.read" | "kb.write" | "account.read" | "usage.read";
                                /** @description what a credential with it may do, as a person reads it */
                                description: string;
                                /** @description a key made without `scopes` gets it */
                                default: boolean;
                            }[];
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "deleteV1Api-keysById": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1UserMeIdentities: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                /** @description the provider (OIDC_ISSUER when it was linked) */
                                issuer: string;
                                /** @description the account's identifier at the provider (the ID token's sub) */
                                subject: string;
                                /** @description the address the provider gave when it was linked */
                                email: ((string | null) | null) | null;
                                /**
                                 * Format: date-time
                                 * @description when it was linked
                                 */
                                createdAt: string;
                                /**
                                 * Format: date-time
                                 * @description its latest sign-in
                                 */
                                lastUsedAt: ((string | null) | null) | null;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1UserMeIdentitiesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1UserMeUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            plan: string;
                            planActive: boolean;
                            image: {
                                storage: {
                                    used: number;
                                    /** @description -1 means no cap */
                                    limit: number;
                                };
                                bandwidth: {
                                    used: number;
                                    limit: number;
                                    monthYear: string;
                                };
                            };
                            video: {
                                /** @description audio and video bytes (media_storage) */
                                storage: {
                                    used: number;
                                    /** @description -1 means no cap */
                                    limit: number;
                                };
                                bandwidth: {
                                    used: number;
                                    limit: number;
                                    monthYear: string;
                                };
                                /** @enum {string} */
                                status: "ok" | "degraded" | "suspended";
                            };
                            doc: {
                                count: {
                                    used: number;
                                    /** @description -1 means no cap */
                                    limit: number;
                                };
                            };
                            planLimits: {
                                /** @description -1 means no cap */
                                docCount: number;
                                /** @description the most bytes of version history the account keeps (docs.revisionBytes); a replacement past it prunes the account's oldest revisions, it is never refused; -1 means no cap */
                                revisionBytes: number;
                            };
                            docs: {
                                revisionCount: number;
                                revisionBytes: number;
                            };
                            uploads: {
                                day: {
                                    used: number;
                                    /** @description -1 means no cap */
                                    limit: number;
                                };
                                month: {
                                    used: number;
                                    /** @description -1 means no cap */
                                    limit: number;
                                };
                            };
                            trashBytes: number;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1UserMeUsageDaily: {
        parameters: {
            query?: {
                month?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            month: string;
                            /** @description every day of the month up to today, oldest first; zero where nothing was served */
                            days: {
                                /** @description YYYY-MM-DD (UTC) */
                                day: string;
                                /** @description image bytes served that day */
                                imageBandwidth: number;
                                /** @description video and audio bytes served that day (the edge's and a hosted provider's) */
                                mediaBandwidth: number;
                            }[];
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1Notifications: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                unread?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                /** @description what happened: quota_80, quota_100, video_bandwidth_*, conflict_branches_expiring, conflict_branch_created, video_ready, video_failed, api_key_created, api_key_revoked, oauth_authorized, device_signed_in, password_changed, sign_in_failures, new_sign_in, two_factor_enabled, two_factor_disabled, recovery_code_used, passkey_added, passkey_removed, export_ready, export_failed */
                                kind: string;
                                title: string;
                                /** @description plain text */
                                body: string;
                                /** @description the event's own fields (ids of the video, key, branch, client...) */
                                data: {
                                    [key: string]: unknown;
                                };
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                readAt: ((string | null) | null) | null;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                            /** @description how many of the user's notifications are unread, in all (not only this page) */
                            unreadCount: number;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "getV1NotificationsUnread-count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description how many of the user's notifications are unread */
                            unreadCount: number;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "postV1NotificationsRead-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description how many notifications were unread and are now read */
                            marked: number;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1NotificationsByIdRead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: string;
                            /** @description what happened: quota_80, quota_100, video_bandwidth_*, conflict_branches_expiring, conflict_branch_created, video_ready, video_failed, api_key_created, api_key_revoked, oauth_authorized, device_signed_in, password_changed, sign_in_failures, new_sign_in, two_factor_enabled, two_factor_disabled, recovery_code_used, passkey_added, passkey_removed, export_ready, export_failed */
                            kind: string;
                            title: string;
                            /** @description plain text */
                            body: string;
                            /** @description the event's own fields (ids of the video, key, branch, client...) */
                            data: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            readAt: ((string | null) | null) | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1Images: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                tag?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                /** @description permanent public URL: MEDIA_URL/<id>.<ext> */
                                url: string;
                                filename: string;
                                /** @description bytes of the stored original (metadata stripped) */
                                size: number;
                                width: number;
                                height: number;
                                is_public: boolean;
                                tags: string[];
                                /** @description a small variant for lists: url?w=256 (the shape kept; an SVG's url as it is); any allowed size works the same way */
                                thumbnail_url: string;
                                /** @description ThumbHash (base64, about 30 characters) to paint before the bytes arrive; null until made, or when the picture gives none */
                                placeholder: ((string | null) | null) | null;
                                /** Format: date-time */
                                created_at: string;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                            /** @description all images in the library */
                            total: number;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1Images: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description JPEG, PNG, GIF, WebP, AVIF or SVG; at most 50 MB (SVG 10 MB)
                     */
                    file: Blob;
                    /** @description JSON array of at most 10 tags of at most 32 characters, e.g. ["cats","2024"] */
                    tags?: string;
                    /**
                     * @description default true; a private image is not served to anonymous requests
                     * @enum {string}
                     */
                    is_public?: "true" | "false";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** UploadedImage */
                        data: {
                            id: string;
                            /** @description permanent public URL: MEDIA_URL/<id>.<ext> */
                            url: string;
                            filename: string;
                            /** @description bytes of the stored original (metadata stripped) */
                            size: number;
                            width: number;
                            height: number;
                            /** Format: date-time */
                            created_at: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            /** @description status 451 */
            451: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1ImagesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Image */
                        data: {
                            id: string;
                            /** @description permanent public URL: MEDIA_URL/<id>.<ext> */
                            url: string;
                            filename: string;
                            /** @description bytes of the stored original (metadata stripped) */
                            size: number;
                            width: number;
                            height: number;
                            is_public: boolean;
                            tags: string[];
                            /** @description a small variant for lists: url?w=256 (the shape kept; an SVG's url as it is); any allowed size works the same way */
                            thumbnail_url: string;
                            /** @description ThumbHash (base64, about 30 characters) to paint before the bytes arrive; null until made, or when the picture gives none */
                            placeholder: ((string | null) | null) | null;
                            /** Format: date-time */
                            created_at: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1ImagesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchV1ImagesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    filename?: string;
                    is_public?: boolean;
                    tags?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Image */
                        data: {
                            id: string;
                            /** @description permanent public URL: MEDIA_URL/<id>.<ext> */
                            url: string;
                            filename: string;
                            /** @description bytes of the stored original (metadata stripped) */
                            size: number;
                            width: number;
                            height: number;
                            is_public: boolean;
                            tags: string[];
                            /** @description a small variant for lists: url?w=256 (the shape kept; an SVG's url as it is); any allowed size works the same way */
                            thumbnail_url: string;
                            /** @description ThumbHash (base64, about 30 characters) to paint before the bytes arrive; null until made, or when the picture gives none */
                            placeholder: ((string | null) | null) | null;
                            /** Format: date-time */
                            created_at: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1Docs: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                q?: string;
                tag?: string;
                isPublic?: boolean;
                sort?: "created_desc" | "created_asc" | "updated_desc" | "updated_asc";
                kbId?: string;
                inKb?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                title: string;
                                filename: string;
                                /** @enum {string} */
                                format: "markdown" | "typst";
                                sizeBytes: number;
                                wordCount: number;
                                imageCount: number;
                                rewrittenCount: number;
                                isPublic: boolean;
                                tags: string[];
                                hasInlineContent: boolean;
                                /** @description SHA-256 hex of the content */
                                sourceHash: string;
                                excerpt: string;
                                coverUrl: ((string | null) | null) | null;
                                kbId: ((string | null) | null) | null;
                                relativePath: ((string | null) | null) | null;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1Docs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description the document's name; its extension (.md, .markdown or .typ) decides the format
                     * @example notes.md
                     */
                    filename: string;
                    /** @description the document's text; at most the plan's doc_max_file_bytes after image rewriting */
                    content: string;
                    tags?: string[];
                    /** @description default false */
                    isPublic?: boolean;
                    /** @description store inline data: images as hosted images (Markdown only) */
                    rewriteImages?: boolean;
                    title?: string;
                    kbId?: string;
                    /** @description POSIX relative path in the KB (NFC-normalized) */
                    relativePath?: string;
                };
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description the document's text in UTF-8 (at most 64 MiB); its name is the document's filename unless `filename` is sent
                     */
                    file: Blob;
                    /**
                     * @description the document's name; default: the file part's name. Its extension (.md, .markdown or .typ) decides the format
                     * @example notes.md
                     */
                    filename?: string;
                    /** @description explicit title, 1 to 255 characters */
                    title?: string;
                    /** @description a JSON array of up to 10 tags, such as ["notes", "work"] */
                    tags?: string;
                    /**
                     * @description default false
                     * @enum {string}
                     */
                    isPublic?: "true" | "false";
                    /**
                     * @description store inline data: images as hosted images (Markdown only)
                     * @enum {string}
                     */
                    rewriteImages?: "true" | "false";
                    /** @description the KB to place the document in (with relativePath) */
                    kbId?: string;
                    /** @description POSIX relative path in the KB (NFC-normalized) */
                    relativePath?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** DocUploadResult */
                        data: {
                            id: string;
                            title: string;
                            /** @enum {string} */
                            format: "markdown" | "typst";
                            sizeBytes: number;
                            /** @description SHA-256 hex of the content */
                            sourceHash: string;
                            imageCount: number;
                            rewrittenCount: number;
                            failedCount: number;
                            failures: {
                                /** @description the image reference's position among the document's images, from 0 */
                                index: number;
                                reason: string;
                                message: string;
                            }[];
                            /** @description Markdown: images left as they were; Typst: the compile check's diagnostics (the document is stored whatever they say) */
                            warnings: ({
                                /** @description the image reference's position among the document's images, from 0 */
                                index: number;
                                reason: string;
                                message: string;
                            } | {
                                /** @enum {string} */
                                reason: "TYPST_DIAGNOSTIC" | "TYPST_CHECK_STOPPED" | "TYPST_CHECK_SKIPPED" | "TYPST_UNAVAILABLE";
                                /** @enum {string} */
                                severity: "error" | "warning" | "info";
                                message: string;
                                /** @description from 1, where the compiler knows the place */
                                line?: number;
                                /** @description from 1 */
                                column?: number;
                            })[];
                            duplicate: boolean;
                            hasInlineContent: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** DocUploadResult */
                        data: {
                            id: string;
                            title: string;
                            /** @enum {string} */
                            format: "markdown" | "typst";
                            sizeBytes: number;
                            /** @description SHA-256 hex of the content */
                            sourceHash: string;
                            imageCount: number;
                            rewrittenCount: number;
                            failedCount: number;
                            failures: {
                                /** @description the image reference's position among the document's images, from 0 */
                                index: number;
                                reason: string;
                                message: string;
                            }[];
                            /** @description Markdown: images left as they were; Typst: the compile check's diagnostics (the document is stored whatever they say) */
                            warnings: ({
                                /** @description the image reference's position among the document's images, from 0 */
                                index: number;
                                reason: string;
                                message: string;
                            } | {
                                /** @enum {string} */
                                reason: "TYPST_DIAGNOSTIC" | "TYPST_CHECK_STOPPED" | "TYPST_CHECK_SKIPPED" | "TYPST_UNAVAILABLE";
                                /** @enum {string} */
                                severity: "error" | "warning" | "info";
                                message: string;
                                /** @description from 1, where the compiler knows the place */
                                line?: number;
                                /** @description from 1 */
                                column?: number;
                            })[];
                            duplicate: boolean;
                            hasInlineContent: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            /** @description status 451 */
            451: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1Docs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ids: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            results: {
                                id: string;
                                deleted: boolean;
                                /** @constant */
                                reason?: "NOT_FOUND";
                            }[];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1DocsSearch: {
        parameters: {
            query: {
                q: string;
                kbId?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                /** @description null outside any KB */
                                kbId: ((string | null) | null) | null;
                                /** @description null outside any KB */
                                relativePath: ((string | null) | null) | null;
                                title: string;
                                /** @enum {string} */
                                format: "markdown" | "typst";
                                /** Format: date-time */
                                updatedAt: string;
                                /** @description relevance (Postgres ts_rank_cd): higher is better; a title match weighs most, then the path, then the text */
                                rank: number;
                                /** @description one line of plain text (not HTML) from the title and content, each matched word between « and », fragments joined by … */
                                snippet: string;
                                /** @description where the matched words are in snippet, in order, the « and » left out: a « or » of the document's own text is in none */
                                marks: {
                                    /** @description offset of the match's first character in snippet (UTF-16 code units, as JavaScript indexes strings) */
                                    start: number;
                                    /** @description offset just past its last character: the » that closes it */
                                    end: number;
                                }[];
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1DocsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Document */
                        data: {
                            id: string;
                            title: string;
                            filename: string;
                            /** @enum {string} */
                            format: "markdown" | "typst";
                            sizeBytes: number;
                            wordCount: number;
                            imageCount: number;
                            rewrittenCount: number;
                            isPublic: boolean;
                            tags: string[];
                            hasInlineContent: boolean;
                            /** @description SHA-256 hex of the content */
                            sourceHash: string;
                            excerpt: string;
                            coverUrl: ((string | null) | null) | null;
                            kbId: ((string | null) | null) | null;
                            relativePath: ((string | null) | null) | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1DocsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchV1DocsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string;
                    isPublic?: boolean;
                    tags?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Document */
                        data: {
                            id: string;
                            title: string;
                            filename: string;
                            /** @enum {string} */
                            format: "markdown" | "typst";
                            sizeBytes: number;
                            wordCount: number;
                            imageCount: number;
                            rewrittenCount: number;
                            isPublic: boolean;
                            tags: string[];
                            hasInlineContent: boolean;
                            /** @description SHA-256 hex of the content */
                            sourceHash: string;
                            excerpt: string;
                            coverUrl: ((string | null) | null) | null;
                            kbId: ((string | null) | null) | null;
                            relativePath: ((string | null) | null) | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1DocsByIdRevisions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            revisions: {
                                id: string;
                                revNumber: number;
                                sizeBytes: number;
                                /** @enum {string} */
                                origin: "upload" | "sync" | "restore";
                                /** @description SHA-256 hex of the content */
                                sourceHash: string;
                                /** Format: date-time */
                                createdAt: string;
                            }[];
                            totalBytes: number;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1DocsByIdRevisionsByRevId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                revId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** DocRevisionContent */
                        data: {
                            id: string;
                            revNumber: number;
                            sizeBytes: number;
                            /** @enum {string} */
                            origin: "upload" | "sync" | "restore";
                            /** @description SHA-256 hex of the content */
                            sourceHash: string;
                            /** Format: date-time */
                            createdAt: string;
                            content: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1DocsByIdRevisionsByRevIdRestore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                revId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: string;
                            duplicate: boolean;
                            /** @description SHA-256 hex of the content */
                            sourceHash: string;
                            sizeBytes: number;
                            /** Format: date-time */
                            updatedAt: string;
                            savedRevision: (({
                                id: string;
                                revNumber: number;
                            } | null) | null) | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "deleteV1UserMeDoc-revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            deleted: number;
                            freedBytes: number;
                            hasMore: boolean;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "getV1AdminDoc-cdn-hosts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            hosts: string[];
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "putV1AdminDoc-cdn-hosts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    hosts: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            hosts: string[];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1KbsByIdConflicts: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                branchId: string;
                                docId: string;
                                /** @description the path the client pushed to */
                                relativePath: string;
                                /**
                                 * @description document: the branch holds a text; file: it names the owner's file bytes by sourceHash (GET /v1/kbs/{id}/files/{sha256})
                                 * @enum {string}
                                 */
                                kind: "document" | "file";
                                /** @description SHA-256 hex of the content */
                                sourceHash: string;
                                sizeBytes: number;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                expiresAt: string;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1KbsByIdConflictsByBranchId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                branchId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** ConflictBranchContent */
                        data: {
                            branchId: string;
                            docId: string;
                            /** @description the path the client pushed to */
                            relativePath: string;
                            /**
                             * @description document: the branch holds a text; file: it names the owner's file bytes by sourceHash (GET /v1/kbs/{id}/files/{sha256})
                             * @enum {string}
                             */
                            kind: "document" | "file";
                            /** @description SHA-256 hex of the content */
                            sourceHash: string;
                            sizeBytes: number;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            expiresAt: string;
                            /** @description the master's hash when the branch was opened */
                            masterHash: string;
                            /** @description SHA-256 hex of the content */
                            currentMasterHash: ((string | null) | null) | null;
                            /** Format: date-time */
                            currentMasterUpdatedAt: ((string | null) | null) | null;
                            /** @description the master's path now (it may have moved) */
                            currentMasterPath: ((string | null) | null) | null;
                            /** @description the branch's text; null for a file branch (its bytes: GET /v1/kbs/{id}/files/{sourceHash}) */
                            content: ((string | null) | null) | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1KbsByIdConflictsByBranchId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                branchId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1KbsByIdConflictsByBranchIdAccept: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                branchId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            branchId: string;
                            /** @constant */
                            status: "adopted";
                            docId: string;
                            /** @description the document's path */
                            relativePath: string;
                            /** @description SHA-256 hex of the content */
                            sourceHash: string;
                            sizeBytes: number;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description the revision the previous master was saved as; null with version history off, when the master was deleted, or when it already held this content */
                            savedRevision: (({
                                id: string;
                                revNumber: number;
                            } | null) | null) | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putV1KbsByIdFilesBySha256: {
        parameters: {
            query?: {
                name?: string;
            };
            header?: never;
            path: {
                id: string;
                sha256: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": Blob;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** KbStoredFile */
                        data: {
                            sha256: string;
                            sizeBytes: number;
                            /** @description told from the bytes when they were first stored (else from `name`, else application/octet-stream) */
                            contentType: string;
                            /**
                             * @description new: stored now (201); existing: the owner held these bytes already, and the body was not read (200)
                             * @enum {string}
                             */
                            stored: "new" | "existing";
                        };
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** KbStoredFile */
                        data: {
                            sha256: string;
                            sizeBytes: number;
                            /** @description told from the bytes when they were first stored (else from `name`, else application/octet-stream) */
                            contentType: string;
                            /**
                             * @description new: stored now (201); existing: the owner held these bytes already, and the body was not read (200)
                             * @enum {string}
                             */
                            stored: "new" | "existing";
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description status 411 */
            411: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            /** @description status 451 */
            451: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    headV1KbsByIdFilesBySha256: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                sha256: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    /** @description the file's size in bytes */
                    "Content-Length": string;
                    /** @description the file's type, told from its bytes when stored */
                    "Content-Type": string;
                    /** @description the SHA-256 of the bytes */
                    "X-Source-Hash": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1KbsByIdBacklinks: {
        parameters: {
            query: {
                path: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** KbBacklinks */
                        data: {
                            /** @description by path */
                            items: {
                                /** @description the linking note's path */
                                relativePath: string;
                                /** @description the linking note's title */
                                title: string;
                            }[];
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1Kbs: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                sort?: "updated_at" | "name";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                name: string;
                                slug: string;
                                description: ((string | null) | null) | null;
                                /** @description active documents */
                                docCount: number;
                                /** @description active files (attachments) */
                                fileCount: number;
                                /** @description bytes of the active documents and files */
                                sizeBytes: number;
                                isDefault: boolean;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1Kbs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description derived from the name when omitted (lower case, spaces become -) */
                    slug?: string;
                    description?: ((string | null) | null) | null;
                    isDefault?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** KbItem */
                        data: {
                            id: string;
                            name: string;
                            slug: string;
                            description: ((string | null) | null) | null;
                            /** @description active documents */
                            docCount: number;
                            /** @description active files (attachments) */
                            fileCount: number;
                            /** @description bytes of the active documents and files */
                            sizeBytes: number;
                            isDefault: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1KbsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** KbItem */
                        data: {
                            id: string;
                            name: string;
                            slug: string;
                            description: ((string | null) | null) | null;
                            /** @description active documents */
                            docCount: number;
                            /** @description active files (attachments) */
                            fileCount: number;
                            /** @description bytes of the active documents and files */
                            sizeBytes: number;
                            isDefault: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1KbsById: {
        parameters: {
            query?: {
                cascade?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchV1KbsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: ((string | null) | null) | null;
                    isDefault?: boolean;
                    /** @description immutable: accepted only when equal to the KB's slug */
                    slug?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** KbItem */
                        data: {
                            id: string;
                            name: string;
                            slug: string;
                            description: ((string | null) | null) | null;
                            /** @description active documents */
                            docCount: number;
                            /** @description active files (attachments) */
                            fileCount: number;
                            /** @description bytes of the active documents and files */
                            sizeBytes: number;
                            isDefault: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1KbsByIdManifest: {
        parameters: {
            query?: {
                since?: string;
                cursor?: string;
                limit?: number;
                include?: string;
                syncVersion?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    /** @description `true` from SYNC_V1_DEPRECATED_AT on (v1 is deprecated) */
                    Deprecation?: string;
                    /** @description from SYNC_V1_DEPRECATED_AT on: the HTTP-date from which v1 answers 410 SYNC_V1_SUNSET */
                    Sunset?: string;
                    /** @description v2: weak; send it as If-None-Match for a 304 when nothing changed */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            kbId: string;
                            items: {
                                relativePath: string;
                                /** @description SHA-256 hex of the content */
                                sourceHash: ((string | null) | null) | null;
                                sizeBytes: ((number | null) | null) | null;
                                /** Format: date-time */
                                updatedAt: ((string | null) | null) | null;
                                /** Format: date-time */
                                deletedAt: ((string | null) | null) | null;
                                /** @description v2: the document's id (kept across moves) */
                                docId?: string;
                                /**
                                 * @description v2: what the path holds: a document (text: Markdown or Typst) or a file (any bytes, an attachment)
                                 * @enum {string}
                                 */
                                kind?: "document" | "file";
                                /** @description v2, an active file: its Content-Type, decided from its bytes when stored (raw by path answers it) */
                                contentType?: string;
                                /** @description v2: the document has pending conflict branches (GET /v1/kbs/{id}/conflicts lists them) */
                                hasPendingBranches?: boolean;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                            /** Format: date-time */
                            serverTime: string;
                            /** @description v2, on the last page: the `since` of the next incremental read */
                            sinceCursor?: string;
                            /** @description v2 with include=tombstones, on the last page: paths gone after `since` */
                            tombstones?: {
                                docId: string;
                                relativePath: string;
                                /** @description SHA-256 hex of the content */
                                sourceHash: string;
                                /**
                                 * @description v2: what the path holds: a document (text: Markdown or Typst) or a file (any bytes, an attachment)
                                 * @enum {string}
                                 */
                                kind: "document" | "file";
                                /** Format: date-time */
                                deletedAt: string;
                            }[];
                            /**
                             * @description v2: `since` is older than the plan's tombstone retention; read again without it
                             * @constant
                             */
                            tombstoneCursorExpired?: true;
                            retentionDays?: number;
                            hint?: string;
                        };
                    };
                };
            };
            /** @description No Content */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description status 410 */
            410: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1KbsByIdSync: {
        parameters: {
            query?: {
                syncVersion?: string;
                conflictResolution?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description v1: 1 to 100 ops, v2: 1 to 200 (more: 422 INVALID_OP_BATCH_SIZE), each applied or refused on its own */
                    ops: {
                        /**
                         * @description v1: upsert, delete; v2 also update, move, rename (a move within the document's folder), tombstone_ack
                         * @enum {string}
                         */
                        op: "upsert" | "delete" | "update" | "move" | "rename" | "tombstone_ack";
                        /** @description POSIX relative path in the KB (NFC-normalized by the server); one that breaks a path rule skips its op (VALIDATION_ERROR) */
                        relativePath?: string;
                        /**
                         * @description v2 upsert and update: document (the default: content carries the text) or file (no content: sourceHash names bytes the owner holds, stored by PUT /v1/kbs/{id}/files/{sha256}; skipped FILE_MISSING otherwise)
                         * @enum {string}
                         */
                        kind?: "document" | "file";
                        /** @description upsert, update of a document */
                        content?: string;
                        /** @description SHA-256 hex of content (upsert, update), or of the text held at fromPath (move) or of the document (rename); v2 requires it */
                        sourceHash?: string;
                        /**
                         * Format: date-time
                         * @description the updatedAt of the last manifest or sync answer; omit to create
                         */
                        baseUpdatedAt?: ((string | null) | null) | null;
                        /** @description v2: the master hash last seen; wins over baseUpdatedAt */
                        baseHash?: string;
                        /** @description v2 upsert: replace whatever the path holds, whatever its version (no base; its text is kept as a revision where history is on); with a base the op is skipped (VALIDATION_ERROR) */
                        overwrite?: boolean;
                        /** @description v2 update, rename and tombstone_ack: the document */
                        docId?: string;
                        /** @description POSIX relative path in the KB (NFC-normalized by the server); one that breaks a path rule skips its op (VALIDATION_ERROR) */
                        fromPath?: string;
                        /** @description POSIX relative path in the KB (NFC-normalized by the server); one that breaks a path rule skips its op (VALIDATION_ERROR) */
                        toPath?: string;
                        /** @description v2 rename: the document's new file name, one path segment (no / or \) in its folder; one that breaks a path rule skips its op (VALIDATION_ERROR) */
                        newName?: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    /** @description `true` from SYNC_V1_DEPRECATED_AT on (v1 is deprecated) */
                    Deprecation?: string;
                    /** @description from SYNC_V1_DEPRECATED_AT on: the HTTP-date from which v1 answers 410 SYNC_V1_SUNSET */
                    Sunset?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            applied: {
                                /** @description the op's position in the request's ops, from 0 */
                                opIndex: number;
                                /** @enum {string} */
                                op: "upsert" | "delete";
                                relativePath: string;
                                id: string;
                                /** Format: date-time */
                                updatedAt: string;
                                /** @description SHA-256 hex of the content */
                                sourceHash: ((string | null) | null) | null;
                            }[];
                            conflicts: {
                                /** @description the op's position in the request's ops, from 0 */
                                opIndex: number;
                                /** @enum {string} */
                                op: "upsert" | "delete";
                                relativePath: string;
                                /** @enum {string} */
                                reason: "LOCAL_HASH_MISMATCH" | "BASE_MISSING" | "REMOTE_NEWER" | "REMOTE_DELETED" | "PATH_CASE_CONFLICT";
                                remote: {
                                    /** @description SHA-256 hex of the content */
                                    sourceHash: ((string | null) | null) | null;
                                    sizeBytes: ((number | null) | null) | null;
                                    /** Format: date-time */
                                    updatedAt: ((string | null) | null) | null;
                                    /** Format: date-time */
                                    deletedAt: ((string | null) | null) | null;
                                    /** @description the path as the server spells it (differs in letter case for PATH_CASE_CONFLICT) */
                                    relativePath: ((string | null) | null) | null;
                                };
                            }[];
                            skipped: {
                                /** @description the op's position in the request's ops, from 0 */
                                opIndex: number;
                                /** @enum {string} */
                                op: "upsert" | "delete";
                                /** @description NFC-normalized; as sent when the path itself broke a rule */
                                relativePath: string;
                                /**
                                 * @description VALIDATION_ERROR: a value of the op broke a rule (a path rule, NUL or a lone surrogate in the content, a base that is no instant or no SHA-256 hex); meta.path names the field (body.ops.<i>.<field>), meta.problem the rule. The other ops of the batch still apply. FILE_MISSING (v2, a file op): the owner holds no bytes with its sourceHash (meta.sourceHash): PUT them, then send the op again. PATH_HOLDS_FILE (v1): the path holds a file, which v1 does not show or replace.
                                 * @enum {string}
                                 */
                                reason: "VALIDATION_ERROR" | "NOT_FOUND" | "ALREADY_DELETED" | "INVALID_FILE_TYPE" | "DOC_FILE_TOO_LARGE" | "QUOTA_EXCEEDED" | "STORAGE_ERROR" | "COMPLIANCE_BLOCKED" | "DEPENDENCY_UNAVAILABLE" | "FILE_MISSING" | "PATH_HOLDS_FILE";
                                message: string;
                                meta?: {
                                    [key: string]: unknown;
                                };
                            }[];
                            /** Format: date-time */
                            serverTime: string;
                        } | {
                            results: {
                                /** @description the op's position in the request's ops, from 0 */
                                opIndex: number;
                                /** @enum {string} */
                                op: "upsert" | "delete" | "update" | "move" | "rename" | "tombstone_ack";
                                /** @enum {string} */
                                status: "applied" | "conflict" | "skipped" | "conflict_branch_created";
                                docId: ((string | null) | null) | null;
                                /** @description the op's path (a move's or rename's: the new path when applied, the old one otherwise); as sent when it broke a rule */
                                relativePath?: string;
                                /** @description an applied move or rename: the path it left */
                                fromPath?: string;
                                /**
                                 * @description an applied op: what its path now holds (a delete: what it held)
                                 * @enum {string}
                                 */
                                kind?: "document" | "file";
                                /**
                                 * @description an applied upsert: created where the path held no active document, updated where it replaced one's text, unchanged where the document already had this text
                                 * @enum {string}
                                 */
                                change?: "created" | "updated" | "unchanged";
                                /** Format: date-time */
                                updatedAt?: string;
                                /** @description SHA-256 hex of the content */
                                sourceHash?: ((string | null) | null) | null;
                                /** @description conflict: a conflict reason; skipped: why (VALIDATION_ERROR, NOT_FOUND, ALREADY_DELETED, INVALID_FILE_TYPE, DOC_FILE_TOO_LARGE, QUOTA_EXCEEDED, STORAGE_ERROR, COMPLIANCE_BLOCKED, DEPENDENCY_UNAVAILABLE, FILE_MISSING, PATH_HOLDS_FILE). VALIDATION_ERROR: a value of the op broke a rule (a path rule, NUL or a lone surrogate in the content, a base that is no instant or no SHA-256 hex); meta.path names the field (body.ops.<i>.<field>), meta.problem the rule. The other ops of the batch still apply. FILE_MISSING (v2, a file op): the owner holds no bytes with its sourceHash (meta.sourceHash): PUT them, then send the op again. PATH_HOLDS_FILE (v1): the path holds a file, which v1 does not show or replace. */
                                reason?: string;
                                message?: string;
                                meta?: {
                                    [key: string]: unknown;
                                };
                                /** @description SHA-256 hex of the content */
                                currentMasterHash?: ((string | null) | null) | null;
                                /** Format: date-time */
                                currentMasterUpdatedAt?: ((string | null) | null) | null;
                                branchId?: string;
                                /** @description an applied upsert or update of a .typ: the compile check's diagnostics, as POST /v1/docs reports them */
                                warnings?: {
                                    /** @enum {string} */
                                    reason: "TYPST_DIAGNOSTIC" | "TYPST_CHECK_STOPPED" | "TYPST_CHECK_SKIPPED" | "TYPST_UNAVAILABLE";
                                    /** @enum {string} */
                                    severity: "error" | "warning" | "info";
                                    message: string;
                                    /** @description from 1, where the compiler knows the place */
                                    line?: number;
                                    /** @description from 1 */
                                    column?: number;
                                }[];
                            }[];
                            /** Format: date-time */
                            serverTime: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            /** @description status 410 */
            410: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1KbsByIdTree: {
        parameters: {
            query?: {
                prefix?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: ({
                                /** @constant */
                                kind: "folder";
                                /** @description the folder's name (one path segment) */
                                name: string;
                                /** @description its relative path: pass it as prefix to list it */
                                path: string;
                                /** @description active documents anywhere under it */
                                docCount: number;
                                /** @description active files (attachments) anywhere under it */
                                fileCount: number;
                                /** @description the bytes of both */
                                sizeBytes: number;
                                /** Format: date-time */
                                updatedAt: string;
                            } | {
                                /** @constant */
                                kind: "document";
                                /** @description the file name (the last path segment) */
                                name: string;
                                /** @description its relative path */
                                path: string;
                                id: string;
                                /** @enum {string} */
                                format: "markdown" | "typst";
                                sizeBytes: number;
                                /** @description SHA-256 hex of the content */
                                sourceHash: string;
                                /** Format: date-time */
                                updatedAt: string;
                            } | {
                                /** @constant */
                                kind: "file";
                                /** @description the file name (the last path segment) */
                                name: string;
                                /** @description its relative path: GET /v1/kbs/{id}/raw?path= answers its bytes */
                                path: string;
                                id: string;
                                sizeBytes: number;
                                /** @description SHA-256 hex of the content */
                                sourceHash: string;
                                /** Format: date-time */
                                updatedAt: string;
                            })[];
                            nextCursor: ((string | null) | null) | null;
                            /** @description the folder listed, normalized; empty for the top level */
                            prefix: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1KbsByIdRead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 50 relative paths; answered in this order, each read or failed on its own */
                    paths: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            docs: {
                                /** @description the path as sent */
                                path: string;
                                /** @description the document's path as stored (its letter case may differ from the path sent) */
                                relativePath: string;
                                id: string;
                                /** @description the document's title (PATCH /v1/docs/{id} changes it) */
                                title: string;
                                /** @enum {string} */
                                format: "markdown" | "typst";
                                content: string;
                                /** @description SHA-256 hex of the content */
                                sourceHash: string;
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                            failed: {
                                /** @description the path as sent */
                                path: string;
                                /** @enum {string} */
                                reason: "NOT_FOUND" | "VALIDATION_ERROR" | "CONTENT_FETCH_FAILED";
                                message: string;
                            }[];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1KbsByIdEdit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the relative path of the document to edit */
                    path: string;
                    /** @description text that occurs exactly once in the document, letter for letter (line breaks, spaces and case included) */
                    oldText: string;
                    /** @description what replaces it; empty deletes it */
                    newText: string;
                    /** @description the sourceHash you read: a document changed since is refused (409 CONFLICT, meta.reason stale_base) */
                    baseHash?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: string;
                            relativePath: string;
                            /**
                             * @description unchanged when newText equals oldText
                             * @enum {string}
                             */
                            change: "updated" | "unchanged";
                            /** @description SHA-256 hex of the content */
                            sourceHash: string;
                            /** @description the sourceHash the edit was applied to */
                            previousHash: string;
                            sizeBytes: number;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description a Typst document's compile check, as a sync result's (never a refusal) */
                            warnings?: {
                                /** @enum {string} */
                                reason: "TYPST_DIAGNOSTIC" | "TYPST_CHECK_STOPPED" | "TYPST_CHECK_SKIPPED" | "TYPST_UNAVAILABLE";
                                /** @enum {string} */
                                severity: "error" | "warning" | "info";
                                message: string;
                                /** @description from 1, where the compiler knows the place */
                                line?: number;
                                /** @description from 1 */
                                column?: number;
                            }[];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            /** @description status 451 */
            451: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1OauthDeviceVerify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description as the device shows it; case, dashes and spaces are ignored */
                    userCode: string;
                    /** @enum {string} */
                    decision: "approve" | "deny";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description XXXX-XXXX */
                            userCode: string;
                            /** @enum {string} */
                            decision: "approve" | "deny";
                            clientId: string;
                            clientName: string;
                            /** @description a registered client no administrator has approved yet */
                            unverified: boolean;
                            scopes: ("media.read" | "media.write" | "media.delete" | "kb.read" | "kb.write" | "account.read" | "usage.read")[];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "getV1UserMeOauth-grants": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                clientId: string;
                                clientName: string;
                                /** @description a registered client no administrator has approved yet: its name is its developer's word */
                                unverified: boolean;
                                scopes: ("media.read" | "media.write" | "media.delete" | "kb.read" | "kb.write" | "account.read" | "usage.read")[];
                                /** Format: date-time */
                                createdAt: string;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "deleteV1UserMeOauth-grantsById": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "getV1AdminOauth-clients": {
        parameters: {
            query?: {
                status?: "pending" | "approved" | "rejected";
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                name: string;
                                redirectUris: string[];
                                grantTypes: string[];
                                scopes: ("media.read" | "media.write" | "media.delete" | "kb.read" | "kb.write" | "account.read" | "usage.read")[];
                                /** @enum {string} */
                                status: "pending" | "approved" | "rejected";
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                decidedAt: ((string | null) | null) | null;
                                /** @description the earliest client, pending or approved, that registered exactly the same (name, redirect URIs, grant types and scopes) before this one; null when this one is the first */
                                duplicateOf: (({
                                    id: string;
                                    /** @enum {string} */
                                    status: "pending" | "approved";
                                    /** Format: date-time */
                                    createdAt: string;
                                } | null) | null) | null;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "patchV1AdminOauth-clientsById": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    status: "approved" | "rejected";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: string;
                            name: string;
                            redirectUris: string[];
                            grantTypes: string[];
                            scopes: ("media.read" | "media.write" | "media.delete" | "kb.read" | "kb.write" | "account.read" | "usage.read")[];
                            /** @enum {string} */
                            status: "pending" | "approved" | "rejected";
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            decidedAt: ((string | null) | null) | null;
                            /** @description the earliest client, pending or approved, that registered exactly the same (name, redirect URIs, grant types and scopes) before this one; null when this one is the first */
                            duplicateOf: (({
                                id: string;
                                /** @enum {string} */
                                status: "pending" | "approved";
                                /** Format: date-time */
                                createdAt: string;
                            } | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWebhooksByProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                provider: "local" | "mux";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** VideoCallbackAnswer */
                        data: {
                            received: boolean;
                            /** @enum {string} */
                            outcome: "applied" | "replayed" | "stale" | "ignored";
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationError"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1VideosByIdSign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description seconds the URL plays; default 3600 */
                    ttlSeconds?: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** SignedPlayback */
                        data: {
                            /** @description the master playlist, signed: MEDIA_URL/v/<id>/s.<expiry>.<mac>/master.m3u8; its variants and segments carry the signature by their relative URIs */
                            url: string;
                            /**
                             * Format: date-time
                             * @description when the URL stops playing
                             */
                            expiresAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1VideosByIdCaptions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                /** @description its BCP 47 tag, canonical (en, pt-BR) */
                                language: string;
                                /** @description the name players show */
                                label: string;
                                /** @description bytes of its WebVTT file, counted in image storage */
                                sizeBytes: number;
                                /** Format: date-time */
                                updatedAt: string;
                                /** @description its WebVTT file on the media edge (signed for a couple of hours while the video is private) */
                                url: string;
                            }[];
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putV1VideosByIdCaptionsByLanguage: {
        parameters: {
            query?: {
                label?: string;
            };
            header?: never;
            path: {
                id: string;
                language: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "text/vtt": string;
                "application/x-subrip": string;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Caption */
                        data: {
                            /** @description its BCP 47 tag, canonical (en, pt-BR) */
                            language: string;
                            /** @description the name players show */
                            label: string;
                            /** @description bytes of its WebVTT file, counted in image storage */
                            sizeBytes: number;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description its WebVTT file on the media edge (signed for a couple of hours while the video is private) */
                            url: string;
                        };
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Caption */
                        data: {
                            /** @description its BCP 47 tag, canonical (en, pt-BR) */
                            language: string;
                            /** @description the name players show */
                            label: string;
                            /** @description bytes of its WebVTT file, counted in image storage */
                            sizeBytes: number;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description its WebVTT file on the media edge (signed for a couple of hours while the video is private) */
                            url: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1VideosByIdCaptionsByLanguage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                language: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1Videos: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                tag?: string;
                status?: string;
                isPublic?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                title: string;
                                filename: string;
                                /** @description bytes of the uploaded original */
                                sizeBytes: number;
                                /** @enum {string} */
                                status: "processing" | "ready" | "failed";
                                isPublic: boolean;
                                tags: string[];
                                /** @description once ready */
                                duration_seconds?: number;
                                /** @description once ready, or a custom thumbnail */
                                thumbnail_url?: string;
                                /** @description ThumbHash (base64) of the thumbnail, to paint before its bytes arrive; null until made, or when there is none */
                                placeholder: ((string | null) | null) | null;
                                /** Format: date-time */
                                createdAt: string;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1Videos: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description MP4, MOV, MKV, WebM or AVI; at most the plan's video size (pro 500 MB, pro_plus 2 GB)
                     */
                    file: Blob;
                    /** @description default: the file name */
                    title?: string;
                    /** @description JSON array of at most 10 tags of at most 32 characters, e.g. ["talks"] */
                    tags?: string;
                    /**
                     * @description default true; a private video plays only through a signed URL
                     * @enum {string}
                     */
                    isPublic?: "true" | "false";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** UploadedVideo */
                        data: {
                            id: string;
                            title: string;
                            filename: string;
                            /** @description bytes of the uploaded original */
                            sizeBytes: number;
                            /** @enum {string} */
                            status: "processing" | "ready" | "failed";
                            isPublic: boolean;
                            tags: string[];
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            /** @description status 451 */
            451: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1VideosById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Video */
                        data: {
                            id: string;
                            title: string;
                            filename: string;
                            /** @description bytes of the uploaded original */
                            sizeBytes: number;
                            /** @enum {string} */
                            status: "processing" | "ready" | "failed";
                            isPublic: boolean;
                            tags: string[];
                            /** @description once ready */
                            duration_seconds?: number;
                            /** @description HLS master playlist, once ready; a private video's needs a signature (POST .../sign) */
                            playback_url?: string;
                            /** @description progressive MP4, once ready */
                            direct_url?: string;
                            thumbnail_url?: string;
                            /** @description ThumbHash (base64) of the thumbnail; null until made, or when there is none */
                            placeholder: ((string | null) | null) | null;
                            /** @description why transcoding failed (status failed) */
                            failure_reason?: string;
                            /** @description while processing: how far transcoding is, 0 to 1, as GET /v1/videos/{id}/status gives it */
                            progress?: number;
                            /**
                             * @description the owner's video bandwidth state, in GET /v1/videos/{id}
                             * @enum {string}
                             */
                            bandwidth_state?: "ok" | "degraded" | "suspended";
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1VideosById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchV1VideosById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string;
                    isPublic?: boolean;
                    tags?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Video */
                        data: {
                            id: string;
                            title: string;
                            filename: string;
                            /** @description bytes of the uploaded original */
                            sizeBytes: number;
                            /** @enum {string} */
                            status: "processing" | "ready" | "failed";
                            isPublic: boolean;
                            tags: string[];
                            /** @description once ready */
                            duration_seconds?: number;
                            /** @description HLS master playlist, once ready; a private video's needs a signature (POST .../sign) */
                            playback_url?: string;
                            /** @description progressive MP4, once ready */
                            direct_url?: string;
                            thumbnail_url?: string;
                            /** @description ThumbHash (base64) of the thumbnail; null until made, or when there is none */
                            placeholder: ((string | null) | null) | null;
                            /** @description why transcoding failed (status failed) */
                            failure_reason?: string;
                            /** @description while processing: how far transcoding is, 0 to 1, as GET /v1/videos/{id}/status gives it */
                            progress?: number;
                            /**
                             * @description the owner's video bandwidth state, in GET /v1/videos/{id}
                             * @enum {string}
                             */
                            bandwidth_state?: "ok" | "degraded" | "suspended";
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1VideosByIdStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** VideoStatus */
                        data: {
                            /** @enum {string} */
                            status: "processing" | "ready" | "failed";
                            progress: number;
                            /** @description best effort */
                            eta_seconds: ((number | null) | null) | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1VideosByIdThumbnail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description JPEG, PNG or WebP, at most 2 MB; 1280x720 recommended
                     */
                    file: Blob;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Video */
                        data: {
                            id: string;
                            title: string;
                            filename: string;
                            /** @description bytes of the uploaded original */
                            sizeBytes: number;
                            /** @enum {string} */
                            status: "processing" | "ready" | "failed";
                            isPublic: boolean;
                            tags: string[];
                            /** @description once ready */
                            duration_seconds?: number;
                            /** @description HLS master playlist, once ready; a private video's needs a signature (POST .../sign) */
                            playback_url?: string;
                            /** @description progressive MP4, once ready */
                            direct_url?: string;
                            thumbnail_url?: string;
                            /** @description ThumbHash (base64) of the thumbnail; null until made, or when there is none */
                            placeholder: ((string | null) | null) | null;
                            /** @description why transcoding failed (status failed) */
                            failure_reason?: string;
                            /** @description while processing: how far transcoding is, 0 to 1, as GET /v1/videos/{id}/status gives it */
                            progress?: number;
                            /**
                             * @description the owner's video bandwidth state, in GET /v1/videos/{id}
                             * @enum {string}
                             */
                            bandwidth_state?: "ok" | "degraded" | "suspended";
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            /** @description status 451 */
            451: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1VideosByIdThumbnail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Video */
                        data: {
                            id: string;
                            title: string;
                            filename: string;
                            /** @description bytes of the uploaded original */
                            sizeBytes: number;
                            /** @enum {string} */
                            status: "processing" | "ready" | "failed";
                            isPublic: boolean;
                            tags: string[];
                            /** @description once ready */
                            duration_seconds?: number;
                            /** @description HLS master playlist, once ready; a private video's needs a signature (POST .../sign) */
                            playback_url?: string;
                            /** @description progressive MP4, once ready */
                            direct_url?: string;
                            thumbnail_url?: string;
                            /** @description ThumbHash (base64) of the thumbnail; null until made, or when there is none */
                            placeholder: ((string | null) | null) | null;
                            /** @description why transcoding failed (status failed) */
                            failure_reason?: string;
                            /** @description while processing: how far transcoding is, 0 to 1, as GET /v1/videos/{id}/status gives it */
                            progress?: number;
                            /**
                             * @description the owner's video bandwidth state, in GET /v1/videos/{id}
                             * @enum {string}
                             */
                            bandwidth_state?: "ok" | "degraded" | "suspended";
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOembed: {
        parameters: {
            query: {
                url: string;
                format?: string;
                maxwidth?: number;
                maxheight?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        version: "1.0";
                        /** @enum {string} */
                        type: "video" | "rich";
                        provider_name: string;
                        provider_url: string;
                        title: string;
                        /** @description an <iframe> of the player page */
                        html: string;
                        width: number;
                        height: number;
                        thumbnail_url?: string;
                    };
                };
            };
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            500: components["responses"]["Internal"];
            /** @description status 501 */
            501: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1Audio: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description MP3, M4A, WAV, FLAC or Ogg, told by its first bytes; at most the plan's audio size and duration (trial 50 MB / 10 min, pro 100 MB / 1 h, pro_plus 500 MB / 4 h)
                     */
                    file: Blob;
                    /** @description at most 255 characters; default: the title the file's tags carry, else the file name */
                    title?: string;
                    /**
                     * @description default true; a private file plays only for its owner
                     * @enum {string}
                     */
                    isPublic?: "true" | "false";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Audio */
                        data: {
                            id: string;
                            /** @constant */
                            type: "audio";
                            /** @description plays at once on the media edge (ranges); a private file only with its owner's credential */
                            url: string;
                            filename: string;
                            /** @description bytes of the stored file */
                            sizeBytes: number;
                            /** @description from the file's bytes, not the name or the declared type */
                            mimeType: string;
                            title: string;
                            /** @description the embedded cover (JPEG), else the format's default SVG */
                            thumbnailUrl: string;
                            /** @description ThumbHash (base64) of the cover, to paint before its bytes arrive; null when there is no cover, or until made */
                            placeholder: ((string | null) | null) | null;
                            /** @description null when the file does not say */
                            durationSeconds: ((number | null) | null) | null;
                            /** @description kbps; null when the file does not say */
                            bitrate: ((number | null) | null) | null;
                            /** @constant */
                            status: "ready";
                            isPublic: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** @description Hz */
                            sampleRate: ((number | null) | null) | null;
                            channels: ((number | null) | null) | null;
                            codec: ((string | null) | null) | null;
                            /** @description the file's own tags, as read at upload */
                            tags: {
                                title?: string;
                                artist?: string;
                                album?: string;
                                albumArtist?: string;
                                genre?: string;
                                year?: number;
                                track?: number;
                            };
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            /** @description status 451 */
            451: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1AudioById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Audio */
                        data: {
                            id: string;
                            /** @constant */
                            type: "audio";
                            /** @description plays at once on the media edge (ranges); a private file only with its owner's credential */
                            url: string;
                            filename: string;
                            /** @description bytes of the stored file */
                            sizeBytes: number;
                            /** @description from the file's bytes, not the name or the declared type */
                            mimeType: string;
                            title: string;
                            /** @description the embedded cover (JPEG), else the format's default SVG */
                            thumbnailUrl: string;
                            /** @description ThumbHash (base64) of the cover, to paint before its bytes arrive; null when there is no cover, or until made */
                            placeholder: ((string | null) | null) | null;
                            /** @description null when the file does not say */
                            durationSeconds: ((number | null) | null) | null;
                            /** @description kbps; null when the file does not say */
                            bitrate: ((number | null) | null) | null;
                            /** @constant */
                            status: "ready";
                            isPublic: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** @description Hz */
                            sampleRate: ((number | null) | null) | null;
                            channels: ((number | null) | null) | null;
                            codec: ((string | null) | null) | null;
                            /** @description the file's own tags, as read at upload */
                            tags: {
                                title?: string;
                                artist?: string;
                                album?: string;
                                albumArtist?: string;
                                genre?: string;
                                year?: number;
                                track?: number;
                            };
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1AudioById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchV1AudioById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string;
                    is_public?: boolean;
                    isPublic?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Audio */
                        data: {
                            id: string;
                            /** @constant */
                            type: "audio";
                            /** @description plays at once on the media edge (ranges); a private file only with its owner's credential */
                            url: string;
                            filename: string;
                            /** @description bytes of the stored file */
                            sizeBytes: number;
                            /** @description from the file's bytes, not the name or the declared type */
                            mimeType: string;
                            title: string;
                            /** @description the embedded cover (JPEG), else the format's default SVG */
                            thumbnailUrl: string;
                            /** @description ThumbHash (base64) of the cover, to paint before its bytes arrive; null when there is no cover, or until made */
                            placeholder: ((string | null) | null) | null;
                            /** @description null when the file does not say */
                            durationSeconds: ((number | null) | null) | null;
                            /** @description kbps; null when the file does not say */
                            bitrate: ((number | null) | null) | null;
                            /** @constant */
                            status: "ready";
                            isPublic: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            /** @description Hz */
                            sampleRate: ((number | null) | null) | null;
                            channels: ((number | null) | null) | null;
                            codec: ((string | null) | null) | null;
                            /** @description the file's own tags, as read at upload */
                            tags: {
                                title?: string;
                                artist?: string;
                                album?: string;
                                albumArtist?: string;
                                genre?: string;
                                year?: number;
                                track?: number;
                            };
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1Uploads: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/offset+octet-stream": Blob;
            };
        };
        responses: {
            /** @description No Content */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    /** @description 1.0.0, on every answer */
                    "Tus-Resumable": string;
                    /** @description bytes stored so far */
                    "Upload-Offset": number;
                    /** @description the upload's URL, as an absolute path */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            /** @description status 412 */
            412: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            /** @description status 451 */
            451: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description status 460 */
            460: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1UploadsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** UploadState */
                        data: {
                            id: string;
                            /**
                             * @description uploading: bytes still arriving; processing: every byte is in and the file is going through its kind's pipeline; complete: `resource` exists; failed: the pipeline refused the file (`failure` says why)
                             * @enum {string}
                             */
                            status: "uploading" | "processing" | "complete" | "failed";
                            /** @enum {string} */
                            kind: "video" | "audio" | "image" | "archive";
                            /** @description bytes stored so far (Upload-Offset) */
                            offset: number;
                            /** @description the whole file's bytes (Upload-Length) */
                            length: number;
                            filename: string;
                            /**
                             * Format: date-time
                             * @description unfinished by then, the upload expires (Upload-Expires)
                             */
                            expiresAt: string;
                            /** Format: date-time */
                            createdAt: string;
                            /** UploadResource */
                            resource: ((({
                                id: string;
                                /** @enum {string} */
                                type: "video" | "audio" | "image" | "archive";
                                /** @description images and audio: the file's public URL; videos: the video's API resource (its playback URL comes once it is ready) */
                                url?: string;
                            } & {
                                [key: string]: unknown;
                            }) | null) | null) | null;
                            failure?: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description status 410 */
            410: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description status 412 */
            412: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1UploadsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    /** @description 1.0.0, on every answer */
                    "Tus-Resumable": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            /** @description status 412 */
            412: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    headV1UploadsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    /** @description 1.0.0, on every answer */
                    "Tus-Resumable": string;
                    /** @description bytes stored so far */
                    "Upload-Offset": number;
                    "Upload-Length": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** UploadState */
                        data: {
                            id: string;
                            /**
                             * @description uploading: bytes still arriving; processing: every byte is in and the file is going through its kind's pipeline; complete: `resource` exists; failed: the pipeline refused the file (`failure` says why)
                             * @enum {string}
                             */
                            status: "uploading" | "processing" | "complete" | "failed";
                            /** @enum {string} */
                            kind: "video" | "audio" | "image" | "archive";
                            /** @description bytes stored so far (Upload-Offset) */
                            offset: number;
                            /** @description the whole file's bytes (Upload-Length) */
                            length: number;
                            filename: string;
                            /**
                             * Format: date-time
                             * @description unfinished by then, the upload expires (Upload-Expires)
                             */
                            expiresAt: string;
                            /** Format: date-time */
                            createdAt: string;
                            /** UploadResource */
                            resource: ((({
                                id: string;
                                /** @enum {string} */
                                type: "video" | "audio" | "image" | "archive";
                                /** @description images and audio: the file's public URL; videos: the video's API resource (its playback URL comes once it is ready) */
                                url?: string;
                            } & {
                                [key: string]: unknown;
                            }) | null) | null) | null;
                            failure?: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description status 410 */
            410: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description status 412 */
            412: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchV1UploadsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/offset+octet-stream": Blob;
            };
        };
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    /** @description 1.0.0, on every answer */
                    "Tus-Resumable": string;
                    /** @description bytes stored so far */
                    "Upload-Offset": number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            /** @description status 410 */
            410: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description status 412 */
            412: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            /** @description status 451 */
            451: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description status 460 */
            460: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1Media: {
        parameters: {
            query?: {
                type?: "video" | "audio";
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: ({
                                /** @constant */
                                type: "video";
                                id: string;
                                title: string;
                                filename: string;
                                /** @description bytes of the uploaded original */
                                sizeBytes: number;
                                /** @enum {string} */
                                status: "processing" | "ready" | "failed";
                                isPublic: boolean;
                                tags: string[];
                                /** @description once ready */
                                duration_seconds?: number;
                                /** @description once ready, or a custom thumbnail */
                                thumbnail_url?: string;
                                /** @description ThumbHash (base64) of the thumbnail, to paint before its bytes arrive; null until made, or when there is none */
                                placeholder: ((string | null) | null) | null;
                                /** Format: date-time */
                                createdAt: string;
                            } | {
                                id: string;
                                /** @constant */
                                type: "audio";
                                /** @description plays at once on the media edge (ranges); a private file only with its owner's credential */
                                url: string;
                                filename: string;
                                /** @description bytes of the stored file */
                                sizeBytes: number;
                                /** @description from the file's bytes, not the name or the declared type */
                                mimeType: string;
                                title: string;
                                /** @description the embedded cover (JPEG), else the format's default SVG */
                                thumbnailUrl: string;
                                /** @description ThumbHash (base64) of the cover, to paint before its bytes arrive; null when there is no cover, or until made */
                                placeholder: ((string | null) | null) | null;
                                /** @description null when the file does not say */
                                durationSeconds: ((number | null) | null) | null;
                                /** @description kbps; null when the file does not say */
                                bitrate: ((number | null) | null) | null;
                                /** @constant */
                                status: "ready";
                                isPublic: boolean;
                                /** Format: date-time */
                                createdAt: string;
                            })[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1Media: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 50 distinct video or audio ids */
                    ids: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description one per requested id, in request order */
                            results: {
                                id: string;
                                /**
                                 * @description the kind deleted; absent when nothing of the caller's has the id
                                 * @enum {string}
                                 */
                                type?: "video" | "audio";
                                deleted: boolean;
                                /** @constant */
                                reason?: "NOT_FOUND";
                            }[];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1Trash: {
        parameters: {
            query?: {
                kind?: "image" | "video" | "audio" | "document" | "kb";
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                /** @description the item's own id: the one it had, and has again once restored */
                                id: string;
                                /** @enum {string} */
                                kind: "image" | "video" | "audio" | "document" | "kb";
                                /** @description an image's or a KB's name, a video's, an audio file's or a document's title */
                                name: string;
                                /** @description bytes it holds, still counted in storage (and in usage's trashBytes) until purged */
                                size: number;
                                /** Format: date-time */
                                deletedAt: string;
                                /**
                                 * Format: date-time
                                 * @description when the scheduled purge removes it for good (deletedAt + the retention the operator set)
                                 */
                                purgeAt: string;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1Trash: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** PurgedTrash */
                        data: {
                            /** @description how many items were removed for good */
                            purged: number;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1TrashByIdRestore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** RestoredTrashItem */
                        data: {
                            id: string;
                            /** @enum {string} */
                            kind: "image" | "video" | "audio" | "document" | "kb";
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1TrashById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1Collections: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                title: string;
                                description: ((string | null) | null) | null;
                                /** @description items its listing shows (one deleted since is not counted) */
                                itemCount: number;
                                /** @description null when the collection has no item */
                                cover: (({
                                    /**
                                     * @description image, video or audio
                                     * @enum {string}
                                     */
                                    kind: "image" | "video" | "audio";
                                    id: string;
                                    /** @description the item's thumbnail; null for a video without one yet */
                                    thumbnailUrl: ((string | null) | null) | null;
                                    /** @description true when set by PATCH; false when it is the first item, shown for want of one */
                                    chosen: boolean;
                                } | null) | null) | null;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1Collections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                    description?: ((string | null) | null) | null;
                    /** @description its first items, in order (at most 100, no repeats) */
                    items?: {
                        /**
                         * @description image, video or audio
                         * @enum {string}
                         */
                        kind: "image" | "video" | "audio";
                        id: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Collection */
                        data: {
                            id: string;
                            title: string;
                            description: ((string | null) | null) | null;
                            /** @description items its listing shows (one deleted since is not counted) */
                            itemCount: number;
                            /** @description null when the collection has no item */
                            cover: (({
                                /**
                                 * @description image, video or audio
                                 * @enum {string}
                                 */
                                kind: "image" | "video" | "audio";
                                id: string;
                                /** @description the item's thumbnail; null for a video without one yet */
                                thumbnailUrl: ((string | null) | null) | null;
                                /** @description true when set by PATCH; false when it is the first item, shown for want of one */
                                chosen: boolean;
                            } | null) | null) | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1CollectionsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Collection */
                        data: {
                            id: string;
                            title: string;
                            description: ((string | null) | null) | null;
                            /** @description items its listing shows (one deleted since is not counted) */
                            itemCount: number;
                            /** @description null when the collection has no item */
                            cover: (({
                                /**
                                 * @description image, video or audio
                                 * @enum {string}
                                 */
                                kind: "image" | "video" | "audio";
                                id: string;
                                /** @description the item's thumbnail; null for a video without one yet */
                                thumbnailUrl: ((string | null) | null) | null;
                                /** @description true when set by PATCH; false when it is the first item, shown for want of one */
                                chosen: boolean;
                            } | null) | null) | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1CollectionsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchV1CollectionsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string;
                    description?: ((string | null) | null) | null;
                    /** @description an item of the collection (409 COLLECTION_COVER_NOT_ITEM otherwise); null: the first item */
                    cover?: (({
                        /**
                         * @description image, video or audio
                         * @enum {string}
                         */
                        kind: "image" | "video" | "audio";
                        id: string;
                    } | null) | null) | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Collection */
                        data: {
                            id: string;
                            title: string;
                            description: ((string | null) | null) | null;
                            /** @description items its listing shows (one deleted since is not counted) */
                            itemCount: number;
                            /** @description null when the collection has no item */
                            cover: (({
                                /**
                                 * @description image, video or audio
                                 * @enum {string}
                                 */
                                kind: "image" | "video" | "audio";
                                id: string;
                                /** @description the item's thumbnail; null for a video without one yet */
                                thumbnailUrl: ((string | null) | null) | null;
                                /** @description true when set by PATCH; false when it is the first item, shown for want of one */
                                chosen: boolean;
                            } | null) | null) | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1CollectionsByIdItems: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                /**
                                 * @description image, video or audio
                                 * @enum {string}
                                 */
                                kind: "image" | "video" | "audio";
                                id: string;
                                /** @description its place in the order, from 0 */
                                position: number;
                                /** Format: date-time */
                                addedAt: string;
                                /** @description the item as its kind lists it: an image as GET /v1/images/{id}, a video as GET /v1/videos lists it, an audio file as GET /v1/media lists it */
                                item: {
                                    id: string;
                                    /** @description permanent public URL: MEDIA_URL/<id>.<ext> */
                                    url: string;
                                    filename: string;
                                    /** @description bytes of the stored original (metadata stripped) */
                                    size: number;
                                    width: number;
                                    height: number;
                                    is_public: boolean;
                                    tags: string[];
                                    /** @description a small variant for lists: url?w=256 (the shape kept; an SVG's url as it is); any allowed size works the same way */
                                    thumbnail_url: string;
                                    /** @description ThumbHash (base64, about 30 characters) to paint before the bytes arrive; null until made, or when the picture gives none */
                                    placeholder: ((string | null) | null) | null;
                                    /** Format: date-time */
                                    created_at: string;
                                } | {
                                    id: string;
                                    title: string;
                                    filename: string;
                                    /** @description bytes of the uploaded original */
                                    sizeBytes: number;
                                    /** @enum {string} */
                                    status: "processing" | "ready" | "failed";
                                    isPublic: boolean;
                                    tags: string[];
                                    /** @description once ready */
                                    duration_seconds?: number;
                                    /** @description once ready, or a custom thumbnail */
                                    thumbnail_url?: string;
                                    /** @description ThumbHash (base64) of the thumbnail, to paint before its bytes arrive; null until made, or when there is none */
                                    placeholder: ((string | null) | null) | null;
                                    /** Format: date-time */
                                    createdAt: string;
                                } | {
                                    id: string;
                                    /** @constant */
                                    type: "audio";
                                    /** @description plays at once on the media edge (ranges); a private file only with its owner's credential */
                                    url: string;
                                    filename: string;
                                    /** @description bytes of the stored file */
                                    sizeBytes: number;
                                    /** @description from the file's bytes, not the name or the declared type */
                                    mimeType: string;
                                    title: string;
                                    /** @description the embedded cover (JPEG), else the format's default SVG */
                                    thumbnailUrl: string;
                                    /** @description ThumbHash (base64) of the cover, to paint before its bytes arrive; null when there is no cover, or until made */
                                    placeholder: ((string | null) | null) | null;
                                    /** @description null when the file does not say */
                                    durationSeconds: ((number | null) | null) | null;
                                    /** @description kbps; null when the file does not say */
                                    bitrate: ((number | null) | null) | null;
                                    /** @constant */
                                    status: "ready";
                                    isPublic: boolean;
                                    /** Format: date-time */
                                    createdAt: string;
                                };
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1CollectionsByIdItems: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description at most 100, no repeats; one already in the collection keeps its place */
                    items: {
                        /**
                         * @description image, video or audio
                         * @enum {string}
                         */
                        kind: "image" | "video" | "audio";
                        id: string;
                    }[];
                    /** @description where the first goes (0: first); past the end, or absent: at the end */
                    position?: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description items put in */
                            added: number;
                            /** @description items that were in it already (left where they were) */
                            alreadyIn: number;
                            /** Collection */
                            collection: {
                                id: string;
                                title: string;
                                description: ((string | null) | null) | null;
                                /** @description items its listing shows (one deleted since is not counted) */
                                itemCount: number;
                                /** @description null when the collection has no item */
                                cover: (({
                                    /**
                                     * @description image, video or audio
                                     * @enum {string}
                                     */
                                    kind: "image" | "video" | "audio";
                                    id: string;
                                    /** @description the item's thumbnail; null for a video without one yet */
                                    thumbnailUrl: ((string | null) | null) | null;
                                    /** @description true when set by PATCH; false when it is the first item, shown for want of one */
                                    chosen: boolean;
                                } | null) | null) | null;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1CollectionsByIdItems: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description at most 100, no repeats; one not in the collection is passed by */
                    items: {
                        /**
                         * @description image, video or audio
                         * @enum {string}
                         */
                        kind: "image" | "video" | "audio";
                        id: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description items taken out */
                            removed: number;
                            /** @description items named that were not in it */
                            notIn: number;
                            /** Collection */
                            collection: {
                                id: string;
                                title: string;
                                description: ((string | null) | null) | null;
                                /** @description items its listing shows (one deleted since is not counted) */
                                itemCount: number;
                                /** @description null when the collection has no item */
                                cover: (({
                                    /**
                                     * @description image, video or audio
                                     * @enum {string}
                                     */
                                    kind: "image" | "video" | "audio";
                                    id: string;
                                    /** @description the item's thumbnail; null for a video without one yet */
                                    thumbnailUrl: ((string | null) | null) | null;
                                    /** @description true when set by PATCH; false when it is the first item, shown for want of one */
                                    chosen: boolean;
                                } | null) | null) | null;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putV1CollectionsByIdOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description every item of the collection, each once, in the new order */
                    items: {
                        /**
                         * @description image, video or audio
                         * @enum {string}
                         */
                        kind: "image" | "video" | "audio";
                        id: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Collection */
                        data: {
                            id: string;
                            title: string;
                            description: ((string | null) | null) | null;
                            /** @description items its listing shows (one deleted since is not counted) */
                            itemCount: number;
                            /** @description null when the collection has no item */
                            cover: (({
                                /**
                                 * @description image, video or audio
                                 * @enum {string}
                                 */
                                kind: "image" | "video" | "audio";
                                id: string;
                                /** @description the item's thumbnail; null for a video without one yet */
                                thumbnailUrl: ((string | null) | null) | null;
                                /** @description true when set by PATCH; false when it is the first item, shown for want of one */
                                chosen: boolean;
                            } | null) | null) | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1Backup: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                /**
                                 * @description queued, running (progress moves), ready (downloadUrl until expiresAt), failed (failureReason), expired (the archive is removed)
                                 * @enum {string}
                                 */
                                state: "queued" | "running" | "ready" | "failed" | "expired";
                                kinds: ("images" | "videos" | "audio" | "documents" | "kbs")[];
                                /** @description the KBs it holds; null: every KB */
                                kbIds: ((string[] | null) | null) | null;
                                progress: {
                                    /** @description items (each original, document, revision and KB file) copied into the archive */
                                    itemsDone: number;
                                    /** @description items to copy, counted when the export starts (0 before) */
                                    itemsTotal: number;
                                    bytesDone: number;
                                    bytesTotal: number;
                                };
                                /** @description the archive's size, once ready */
                                archiveBytes: ((number | null) | null) | null;
                                /** @description what the download is named (Content-Disposition) */
                                filename: string;
                                /** @description ready only: a signed URL of the zip that needs no credential (ranges, HEAD), good until expiresAt or until the export is deleted. Handed to the owner only: keep it as you would a password */
                                downloadUrl: ((string | null) | null) | null;
                                /** Format: date-time */
                                expiresAt: ((string | null) | null) | null;
                                failureReason: ((string | null) | null) | null;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                startedAt: ((string | null) | null) | null;
                                /** Format: date-time */
                                finishedAt: ((string | null) | null) | null;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1Backup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description what the archive holds: images, videos, audio, documents (those outside any KB), kbs; all of them when absent */
                    kinds?: ("images" | "videos" | "audio" | "documents" | "kbs")[];
                    /** @description only these KBs (with kinds holding kbs, or absent); every KB when absent. 404 for one that is not the caller's */
                    kbIds?: string[];
                };
            };
        };
        responses: {
            /** @description status 202 */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** AccountExport */
                        data: {
                            id: string;
                            /**
                             * @description queued, running (progress moves), ready (downloadUrl until expiresAt), failed (failureReason), expired (the archive is removed)
                             * @enum {string}
                             */
                            state: "queued" | "running" | "ready" | "failed" | "expired";
                            kinds: ("images" | "videos" | "audio" | "documents" | "kbs")[];
                            /** @description the KBs it holds; null: every KB */
                            kbIds: ((string[] | null) | null) | null;
                            progress: {
                                /** @description items (each original, document, revision and KB file) copied into the archive */
                                itemsDone: number;
                                /** @description items to copy, counted when the export starts (0 before) */
                                itemsTotal: number;
                                bytesDone: number;
                                bytesTotal: number;
                            };
                            /** @description the archive's size, once ready */
                            archiveBytes: ((number | null) | null) | null;
                            /** @description what the download is named (Content-Disposition) */
                            filename: string;
                            /** @description ready only: a signed URL of the zip that needs no credential (ranges, HEAD), good until expiresAt or until the export is deleted. Handed to the owner only: keep it as you would a password */
                            downloadUrl: ((string | null) | null) | null;
                            /** Format: date-time */
                            expiresAt: ((string | null) | null) | null;
                            failureReason: ((string | null) | null) | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            startedAt: ((string | null) | null) | null;
                            /** Format: date-time */
                            finishedAt: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1BackupById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** AccountExport */
                        data: {
                            id: string;
                            /**
                             * @description queued, running (progress moves), ready (downloadUrl until expiresAt), failed (failureReason), expired (the archive is removed)
                             * @enum {string}
                             */
                            state: "queued" | "running" | "ready" | "failed" | "expired";
                            kinds: ("images" | "videos" | "audio" | "documents" | "kbs")[];
                            /** @description the KBs it holds; null: every KB */
                            kbIds: ((string[] | null) | null) | null;
                            progress: {
                                /** @description items (each original, document, revision and KB file) copied into the archive */
                                itemsDone: number;
                                /** @description items to copy, counted when the export starts (0 before) */
                                itemsTotal: number;
                                bytesDone: number;
                                bytesTotal: number;
                            };
                            /** @description the archive's size, once ready */
                            archiveBytes: ((number | null) | null) | null;
                            /** @description what the download is named (Content-Disposition) */
                            filename: string;
                            /** @description ready only: a signed URL of the zip that needs no credential (ranges, HEAD), good until expiresAt or until the export is deleted. Handed to the owner only: keep it as you would a password */
                            downloadUrl: ((string | null) | null) | null;
                            /** Format: date-time */
                            expiresAt: ((string | null) | null) | null;
                            failureReason: ((string | null) | null) | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            startedAt: ((string | null) | null) | null;
                            /** Format: date-time */
                            finishedAt: ((string | null) | null) | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1BackupById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1Migration: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                /**
                                 * @description queued, running (progress moves), completed (report), failed (report.error; nothing was imported)
                                 * @enum {string}
                                 */
                                status: "queued" | "running" | "completed" | "failed";
                                progress: {
                                    itemsDone: number;
                                    /** @description the archive's items, known once its manifest is read (0 before) */
                                    itemsTotal: number;
                                };
                                archiveBytes: number;
                                /** MigrationReport */
                                report: (({
                                    counts: {
                                        imported: number;
                                        skipped: number;
                                        /** @description earlier texts of KB documents replayed into their history */
                                        revisions: number;
                                        /** @description knowledge bases made (a KB the account had already is filled, not counted) */
                                        kbs: number;
                                        /** @description collections made again, with their items' ids here (one an earlier import of the archive made, still here, is not made again) */
                                        collections: number;
                                        /** @description media links in Markdown documents written with this instance's MEDIA_URL (and new ids) */
                                        rewrittenLinks: number;
                                    };
                                    imported: {
                                        /** @description image, video, audio, document, kb_document or kb_file */
                                        kind: string;
                                        /** @description its id in the archive */
                                        sourceId: string;
                                        /** @description its id here: the same where it was free */
                                        id: ((string | null) | null) | null;
                                        name: string;
                                        /** @description why it was skipped, or why it has a new id */
                                        reason?: string;
                                    }[];
                                    skipped: {
                                        /** @description image, video, audio, document, kb_document or kb_file */
                                        kind: string;
                                        /** @description its id in the archive */
                                        sourceId: string;
                                        /** @description its id here: the same where it was free */
                                        id: ((string | null) | null) | null;
                                        name: string;
                                        /** @description why it was skipped, or why it has a new id */
                                        reason?: string;
                                    }[];
                                    error: (({
                                        /** @description why the archive was refused (docs/api.md, "Migration"); nothing of it was kept */
                                        code: string;
                                        message: string;
                                        /** @description the archive member at fault */
                                        member?: string;
                                    } | null) | null) | null;
                                    /** @description the lists hold their first 2000 entries each; the counts are whole */
                                    truncated: boolean;
                                } | null) | null) | null;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                startedAt: ((string | null) | null) | null;
                                /** Format: date-time */
                                finishedAt: ((string | null) | null) | null;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1Migration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description the zip of an account export (GET /v1/backup/{id}'s downloadUrl)
                     */
                    file: Blob;
                };
                "application/json": {
                    /** @description a finished upload of kind archive (/v1/uploads) */
                    uploadId: string;
                };
            };
        };
        responses: {
            /** @description status 202 */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Migration */
                        data: {
                            id: string;
                            /**
                             * @description queued, running (progress moves), completed (report), failed (report.error; nothing was imported)
                             * @enum {string}
                             */
                            status: "queued" | "running" | "completed" | "failed";
                            progress: {
                                itemsDone: number;
                                /** @description the archive's items, known once its manifest is read (0 before) */
                                itemsTotal: number;
                            };
                            archiveBytes: number;
                            /** MigrationReport */
                            report: (({
                                counts: {
                                    imported: number;
                                    skipped: number;
                                    /** @description earlier texts of KB documents replayed into their history */
                                    revisions: number;
                                    /** @description knowledge bases made (a KB the account had already is filled, not counted) */
                                    kbs: number;
                                    /** @description collections made again, with their items' ids here (one an earlier import of the archive made, still here, is not made again) */
                                    collections: number;
                                    /** @description media links in Markdown documents written with this instance's MEDIA_URL (and new ids) */
                                    rewrittenLinks: number;
                                };
                                imported: {
                                    /** @description image, video, audio, document, kb_document or kb_file */
                                    kind: string;
                                    /** @description its id in the archive */
                                    sourceId: string;
                                    /** @description its id here: the same where it was free */
                                    id: ((string | null) | null) | null;
                                    name: string;
                                    /** @description why it was skipped, or why it has a new id */
                                    reason?: string;
                                }[];
                                skipped: {
                                    /** @description image, video, audio, document, kb_document or kb_file */
                                    kind: string;
                                    /** @description its id in the archive */
                                    sourceId: string;
                                    /** @description its id here: the same where it was free */
                                    id: ((string | null) | null) | null;
                                    name: string;
                                    /** @description why it was skipped, or why it has a new id */
                                    reason?: string;
                                }[];
                                error: (({
                                    /** @description why the archive was refused (docs/api.md, "Migration"); nothing of it was kept */
                                    code: string;
                                    message: string;
                                    /** @description the archive member at fault */
                                    member?: string;
                                } | null) | null) | null;
                                /** @description the lists hold their first 2000 entries each; the counts are whole */
                                truncated: boolean;
                            } | null) | null) | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            startedAt: ((string | null) | null) | null;
                            /** Format: date-time */
                            finishedAt: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1MigrationById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Migration */
                        data: {
                            id: string;
                            /**
                             * @description queued, running (progress moves), completed (report), failed (report.error; nothing was imported)
                             * @enum {string}
                             */
                            status: "queued" | "running" | "completed" | "failed";
                            progress: {
                                itemsDone: number;
                                /** @description the archive's items, known once its manifest is read (0 before) */
                                itemsTotal: number;
                            };
                            archiveBytes: number;
                            /** MigrationReport */
                            report: (({
                                counts: {
                                    imported: number;
                                    skipped: number;
                                    /** @description earlier texts of KB documents replayed into their history */
                                    revisions: number;
                                    /** @description knowledge bases made (a KB the account had already is filled, not counted) */
                                    kbs: number;
                                    /** @description collections made again, with their items' ids here (one an earlier import of the archive made, still here, is not made again) */
                                    collections: number;
                                    /** @description media links in Markdown documents written with this instance's MEDIA_URL (and new ids) */
                                    rewrittenLinks: number;
                                };
                                imported: {
                                    /** @description image, video, audio, document, kb_document or kb_file */
                                    kind: string;
                                    /** @description its id in the archive */
                                    sourceId: string;
                                    /** @description its id here: the same where it was free */
                                    id: ((string | null) | null) | null;
                                    name: string;
                                    /** @description why it was skipped, or why it has a new id */
                                    reason?: string;
                                }[];
                                skipped: {
                                    /** @description image, video, audio, document, kb_document or kb_file */
                                    kind: string;
                                    /** @description its id in the archive */
                                    sourceId: string;
                                    /** @description its id here: the same where it was free */
                                    id: ((string | null) | null) | null;
                                    name: string;
                                    /** @description why it was skipped, or why it has a new id */
                                    reason?: string;
                                }[];
                                error: (({
                                    /** @description why the archive was refused (docs/api.md, "Migration"); nothing of it was kept */
                                    code: string;
                                    message: string;
                                    /** @description the archive member at fault */
                                    member?: string;
                                } | null) | null) | null;
                                /** @description the lists hold their first 2000 entries each; the counts are whole */
                                truncated: boolean;
                            } | null) | null) | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            startedAt: ((string | null) | null) | null;
                            /** Format: date-time */
                            finishedAt: ((string | null) | null) | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1AdminUsers: {
        parameters: {
            query?: {
                email?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                email: string;
                                /** @description the owner opened a link mailed to this address (a sign-up's, an address change's or a password reset's) */
                                emailVerified: boolean;
                                nickname: ((string | null) | null) | null;
                                /** @enum {string} */
                                plan: "trial" | "pro" | "pro_plus";
                                planActive: boolean;
                                /** Format: date-time */
                                planExpiresAt: ((string | null) | null) | null;
                                isAdmin: boolean;
                                docVersioningEnabled: boolean;
                                docVersioningMax: number;
                                /** @description whether the optional 80% quota e-mails are sent (100% and video bandwidth e-mails always are) */
                                quotaWarnings: boolean;
                                /** @description per notification kind, whether it is e-mailed and whether it is listed in-app. In-app is on for every kind by default; e-mail is on by default for quota_80 (the same switch as quotaWarnings), the mandatory quota_100 and video_bandwidth_* (their e-mail cannot be turned off) and conflict_branches_expiring, and off for the others */
                                notifications: {
                                    quota_80: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    quota_100: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    video_bandwidth_degraded: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    video_bandwidth_over_110: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    video_bandwidth_suspended: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    conflict_branches_expiring: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    conflict_branch_created: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    video_ready: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    video_failed: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    api_key_created: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    api_key_revoked: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    oauth_authorized: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    device_signed_in: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    password_changed: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    sign_in_failures: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    new_sign_in: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    two_factor_enabled: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    two_factor_disabled: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    recovery_code_used: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    passkey_added: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    passkey_removed: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    sync_v1_final_reminder: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    export_ready: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    export_failed: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                    webhook_disabled: {
                                        /** @description sent by e-mail */
                                        email: boolean;
                                        /** @description listed at GET /v1/notifications */
                                        inApp: boolean;
                                        /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                        emailMandatory: boolean;
                                    };
                                };
                                twoFactor: {
                                    /** @description signing in asks for a code of an authenticator app after the password */
                                    totp: boolean;
                                    /** @description unused recovery codes (0 while two factors are off) */
                                    recoveryCodesLeft: number;
                                };
                                /** @description false for an account made by signing in through the instance's OpenID provider until it sets a password (POST /v1/auth/password-reset) */
                                hasPassword: boolean;
                                /** Format: date-time */
                                createdAt: string;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1AdminPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                /** @enum {string} */
                                name: "trial" | "pro" | "pro_plus";
                                limits: {
                                    imageStorageBytes: number;
                                    imageBandwidthBytes: number;
                                    mediaStorageBytes: number;
                                    mediaBandwidthBytes: number;
                                    imageMaxBytes: number;
                                    uploadsPerDay: number;
                                    uploadsPerMonth: number;
                                    apiKeyCount: number;
                                    docCount: number;
                                    docMaxFileBytes: number;
                                    docMaxImagesPerDoc: number;
                                    kbCount: number;
                                    videoAllowed: boolean;
                                    videoMaxBytes: number;
                                    videoMaxSeconds: number;
                                    audioAllowed: boolean;
                                    audioMaxBytes: number;
                                    audioMaxSeconds: number;
                                    tombstoneRetentionDays: number;
                                    attachmentMaxBytes: number;
                                    maxBranchBytes: number;
                                    maxPendingBranches: number;
                                    revisionBytes: number;
                                    exportsPerDay: number;
                                    uploadBurst: -1 | number;
                                    uploadRefillPerMinute: number;
                                    transcodeBurst: -1 | number;
                                    transcodeRefillPerMinute: number;
                                    syncOpBurst: -1 | number;
                                    syncOpRefillPerMinute: number;
                                    mcpCallBurst: -1 | number;
                                    mcpCallRefillPerMinute: number;
                                };
                            }[];
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchV1AdminUsersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    plan?: "trial" | "pro" | "pro_plus";
                    /** Format: date-time */
                    planExpiresAt?: ((string | null) | null) | null;
                    isAdmin?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: string;
                            email: string;
                            /** @description the owner opened a link mailed to this address (a sign-up's, an address change's or a password reset's) */
                            emailVerified: boolean;
                            nickname: ((string | null) | null) | null;
                            /** @enum {string} */
                            plan: "trial" | "pro" | "pro_plus";
                            planActive: boolean;
                            /** Format: date-time */
                            planExpiresAt: ((string | null) | null) | null;
                            isAdmin: boolean;
                            docVersioningEnabled: boolean;
                            docVersioningMax: number;
                            /** @description whether the optional 80% quota e-mails are sent (100% and video bandwidth e-mails always are) */
                            quotaWarnings: boolean;
                            /** @description per notification kind, whether it is e-mailed and whether it is listed in-app. In-app is on for every kind by default; e-mail is on by default for quota_80 (the same switch as quotaWarnings), the mandatory quota_100 and video_bandwidth_* (their e-mail cannot be turned off) and conflict_branches_expiring, and off for the others */
                            notifications: {
                                quota_80: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                quota_100: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_bandwidth_degraded: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_bandwidth_over_110: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_bandwidth_suspended: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                conflict_branches_expiring: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                conflict_branch_created: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_ready: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                video_failed: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                api_key_created: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                api_key_revoked: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                oauth_authorized: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                device_signed_in: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                password_changed: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                sign_in_failures: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                new_sign_in: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                two_factor_enabled: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                two_factor_disabled: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                recovery_code_used: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                passkey_added: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                passkey_removed: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                sync_v1_final_reminder: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                export_ready: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                export_failed: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                                webhook_disabled: {
                                    /** @description sent by e-mail */
                                    email: boolean;
                                    /** @description listed at GET /v1/notifications */
                                    inApp: boolean;
                                    /** @description the e-mail cannot be turned off (a quota used up, video bandwidth) */
                                    emailMandatory: boolean;
                                };
                            };
                            twoFactor: {
                                /** @description signing in asks for a code of an authenticator app after the password */
                                totp: boolean;
                                /** @description unused recovery codes (0 while two factors are off) */
                                recoveryCodesLeft: number;
                            };
                            /** @description false for an account made by signing in through the instance's OpenID provider until it sets a password (POST /v1/auth/password-reset) */
                            hasPassword: boolean;
                            /** Format: date-time */
                            createdAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1AdminJobs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                name: string;
                                schedule: string;
                                description: string;
                                lastRun: (({
                                    id: string;
                                    name: string;
                                    trigger: string;
                                    outcome: string;
                                    /** Format: date-time */
                                    startedAt: string;
                                    /** Format: date-time */
                                    finishedAt: ((string | null) | null) | null;
                                    summary: ((string | null) | null) | null;
                                    counts: (({
                                        [key: string]: number;
                                    } | null) | null) | null;
                                    error: ((string | null) | null) | null;
                                } | null) | null) | null;
                            }[];
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1AdminJobsByNameRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: string;
                            name: string;
                            trigger: string;
                            outcome: string;
                            /** Format: date-time */
                            startedAt: string;
                            /** Format: date-time */
                            finishedAt: ((string | null) | null) | null;
                            summary: ((string | null) | null) | null;
                            counts: (({
                                [key: string]: number;
                            } | null) | null) | null;
                            error: ((string | null) | null) | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1Shares: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                target: {
                                    /** @enum {string} */
                                    kind: "image" | "video" | "audio" | "document" | "kb";
                                    id: string;
                                    path?: string;
                                };
                                /** @description the anonymous page: CENTER_URL/s/<token> */
                                url: string;
                                hasPassword: boolean;
                                /** Format: date-time */
                                expiresAt: ((string | null) | null) | null;
                                /** Format: date-time */
                                revokedAt: ((string | null) | null) | null;
                                /** @description opens now: neither revoked nor expired */
                                active: boolean;
                                /** @description page views that showed the content (media requests and password forms are not counted) */
                                viewCount: number;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1Shares: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    target: {
                        /** @enum {string} */
                        kind: "image" | "video" | "audio" | "document" | "kb";
                        id: string;
                        /** @description kb only: a folder of the KB, relative to its root (omitted or empty: the whole KB) */
                        path?: string;
                    };
                    /**
                     * Format: date-time
                     * @description when the link stops opening (ISO 8601, in the future)
                     */
                    expiresAt?: ((string | null) | null) | null;
                    password?: ((string | null) | null) | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Share */
                        data: {
                            id: string;
                            target: {
                                /** @enum {string} */
                                kind: "image" | "video" | "audio" | "document" | "kb";
                                id: string;
                                path?: string;
                            };
                            /** @description the anonymous page: CENTER_URL/s/<token> */
                            url: string;
                            hasPassword: boolean;
                            /** Format: date-time */
                            expiresAt: ((string | null) | null) | null;
                            /** Format: date-time */
                            revokedAt: ((string | null) | null) | null;
                            /** @description opens now: neither revoked nor expired */
                            active: boolean;
                            /** @description page views that showed the content (media requests and password forms are not counted) */
                            viewCount: number;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1SharesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Share */
                        data: {
                            id: string;
                            target: {
                                /** @enum {string} */
                                kind: "image" | "video" | "audio" | "document" | "kb";
                                id: string;
                                path?: string;
                            };
                            /** @description the anonymous page: CENTER_URL/s/<token> */
                            url: string;
                            hasPassword: boolean;
                            /** Format: date-time */
                            expiresAt: ((string | null) | null) | null;
                            /** Format: date-time */
                            revokedAt: ((string | null) | null) | null;
                            /** @description opens now: neither revoked nor expired */
                            active: boolean;
                            /** @description page views that showed the content (media requests and password forms are not counted) */
                            viewCount: number;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1SharesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchV1SharesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description when the link stops opening (ISO 8601, in the future)
                     */
                    expiresAt?: ((string | null) | null) | null;
                    password?: ((string | null) | null) | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** Share */
                        data: {
                            id: string;
                            target: {
                                /** @enum {string} */
                                kind: "image" | "video" | "audio" | "document" | "kb";
                                id: string;
                                path?: string;
                            };
                            /** @description the anonymous page: CENTER_URL/s/<token> */
                            url: string;
                            hasPassword: boolean;
                            /** Format: date-time */
                            expiresAt: ((string | null) | null) | null;
                            /** Format: date-time */
                            revokedAt: ((string | null) | null) | null;
                            /** @description opens now: neither revoked nor expired */
                            active: boolean;
                            /** @description page views that showed the content (media requests and password forms are not counted) */
                            viewCount: number;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1WebhooksEndpoints: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                url: string;
                                events: string[];
                                enabled: boolean;
                                /** @description why it is disabled: by its owner, or after deliveries kept failing */
                                disabledReason: ((string | null) | null) | null;
                                /** @description deliveries given up in a row since the last one delivered */
                                failureCount: number;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1WebhooksEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description http or https address the events are posted to */
                    url: string;
                    /** @description the event types it is sent */
                    events: ("upload.completed" | "video.ready" | "video.failed" | "document.changed" | "kb.conflict" | "quota.threshold")[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** WebhookEndpointWithSecret */
                        data: {
                            id: string;
                            url: string;
                            events: string[];
                            enabled: boolean;
                            /** @description why it is disabled: by its owner, or after deliveries kept failing */
                            disabledReason: ((string | null) | null) | null;
                            /** @description deliveries given up in a row since the last one delivered */
                            failureCount: number;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description whsec_ and a base64 key: shown this once; verify each delivery's webhook-signature with it */
                            secret: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1WebhooksEndpointsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** WebhookEndpoint */
                        data: {
                            id: string;
                            url: string;
                            events: string[];
                            enabled: boolean;
                            /** @description why it is disabled: by its owner, or after deliveries kept failing */
                            disabledReason: ((string | null) | null) | null;
                            /** @description deliveries given up in a row since the last one delivered */
                            failureCount: number;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteV1WebhooksEndpointsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    patchV1WebhooksEndpointsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description http or https address the events are posted to */
                    url?: string;
                    /** @description the event types it is sent */
                    events?: ("upload.completed" | "video.ready" | "video.failed" | "document.changed" | "kb.conflict" | "quota.threshold")[];
                    /** @description true enables it again and clears its failure count */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** WebhookEndpoint */
                        data: {
                            id: string;
                            url: string;
                            events: string[];
                            enabled: boolean;
                            /** @description why it is disabled: by its owner, or after deliveries kept failing */
                            disabledReason: ((string | null) | null) | null;
                            /** @description deliveries given up in a row since the last one delivered */
                            failureCount: number;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "postV1WebhooksEndpointsByIdRotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** WebhookEndpointWithSecret */
                        data: {
                            id: string;
                            url: string;
                            events: string[];
                            enabled: boolean;
                            /** @description why it is disabled: by its owner, or after deliveries kept failing */
                            disabledReason: ((string | null) | null) | null;
                            /** @description deliveries given up in a row since the last one delivered */
                            failureCount: number;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            /** @description whsec_ and a base64 key: shown this once; verify each delivery's webhook-signature with it */
                            secret: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getV1WebhooksEndpointsByIdDeliveries: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                /** @description the webhook-id header, the same on every try */
                                eventId: string;
                                /** @description an event type, or webhook.test */
                                type: string;
                                /** @enum {string} */
                                status: "pending" | "delivered" | "failed";
                                attempts: number;
                                /** Format: date-time */
                                nextAttemptAt: ((string | null) | null) | null;
                                /** @description the HTTP status of the last try; null when it got no answer */
                                responseStatus: ((number | null) | null) | null;
                                /** @description the first KB of the last answer's body */
                                responseBody: ((string | null) | null) | null;
                                durationMs: ((number | null) | null) | null;
                                /** @description why the last try was not delivered */
                                error: ((string | null) | null) | null;
                                /** @description the body posted: { type, timestamp, data } */
                                payload: unknown;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                lastAttemptAt: ((string | null) | null) | null;
                                /** Format: date-time */
                                deliveredAt: ((string | null) | null) | null;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postV1WebhooksEndpointsByIdTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description status 202 */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** WebhookDelivery */
                        data: {
                            id: string;
                            /** @description the webhook-id header, the same on every try */
                            eventId: string;
                            /** @description an event type, or webhook.test */
                            type: string;
                            /** @enum {string} */
                            status: "pending" | "delivered" | "failed";
                            attempts: number;
                            /** Format: date-time */
                            nextAttemptAt: ((string | null) | null) | null;
                            /** @description the HTTP status of the last try; null when it got no answer */
                            responseStatus: ((number | null) | null) | null;
                            /** @description the first KB of the last answer's body */
                            responseBody: ((string | null) | null) | null;
                            durationMs: ((number | null) | null) | null;
                            /** @description why the last try was not delivered */
                            error: ((string | null) | null) | null;
                            /** @description the body posted: { type, timestamp, data } */
                            payload: unknown;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            lastAttemptAt: ((string | null) | null) | null;
                            /** Format: date-time */
                            deliveredAt: ((string | null) | null) | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "getV1Published-pages": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            items: {
                                id: string;
                                kbId: string;
                                /** @description the published folder ("": the whole KB) */
                                path: string;
                                slug: string;
                                /** @description the site: CENTER_URL/p/<slug> */
                                url: string;
                                /** Format: date-time */
                                createdAt: string;
                            }[];
                            nextCursor: ((string | null) | null) | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "postV1Published-pages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    kbId: string;
                    /** @description a folder of the KB, relative to its root (omitted or empty: the whole KB) */
                    path?: string;
                    /** @description the site's name in its URL; omitted: the KB's slug, or it with a random ending when taken */
                    slug?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** PublishedPage */
                        data: {
                            id: string;
                            kbId: string;
                            /** @description the published folder ("": the whole KB) */
                            path: string;
                            slug: string;
                            /** @description the site: CENTER_URL/p/<slug> */
                            url: string;
                            /** Format: date-time */
                            createdAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "getV1Published-pagesById": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** PublishedPage */
                        data: {
                            id: string;
                            kbId: string;
                            /** @description the published folder ("": the whole KB) */
                            path: string;
                            slug: string;
                            /** @description the site: CENTER_URL/p/<slug> */
                            url: string;
                            /** Format: date-time */
                            createdAt: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "deleteV1Published-pagesById": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
