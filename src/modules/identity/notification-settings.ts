// The user's per-kind choice of where each notification goes: e-mail, the in-app list at
// /v1/notifications, both or neither. The catalog of kinds lives with the user's settings
// (identity) because the notifications module reads the user and the settings route is
// identity's; the modules that raise events name a kind from it.
import { validationError } from "../../core/errors.ts";

interface KindDefaults {
  /** E-mail by default (the messages mailed before the in-app list existed). */
  email: boolean;
  /** The e-mail cannot be turned off (docs/api.md, "Notifications": the 100% and video bandwidth messages are mandatory). */
  mandatory?: boolean;
}

const NOTIFICATION_KINDS = {
  quota_80: { email: true },
  quota_100: { email: true, mandatory: true },
  video_bandwidth_degraded: { email: true, mandatory: true },
  video_bandwidth_over_110: { email: true, mandatory: true },
  video_bandwidth_suspended: { email: true, mandatory: true },
  conflict_branches_expiring: { email: true },
  conflict_branch_created: { email: false },
  video_ready: { email: false },
  video_failed: { email: false },
  api_key_created: { email: false },
  api_key_revoked: { email: false },
  oauth_authorized: { email: false },
  device_signed_in: { email: false },
  password_changed: { email: false },
  // By e-mail by default: an owner kept out by the guessing may not reach the in-app list.
  sign_in_failures: { email: true },
  // By e-mail by default: a sign-in its owner did not make is what they must hear of at once.
  new_sign_in: { email: true },
  // By e-mail by default: two factors turned off or a recovery code spent by someone else
  // leaves the account open to the password alone.
  two_factor_enabled: { email: true },
  two_factor_disabled: { email: true },
  recovery_code_used: { email: true },
  // A passkey added by someone else signs in as the owner, without the password.
  passkey_added: { email: true },
  passkey_removed: { email: true },
  sync_v1_final_reminder: { email: true },
  // An export runs for minutes to hours: its owner is told by e-mail unless they turn it off.
  export_ready: { email: true },
  export_failed: { email: true },
  // Events stop reaching the owner's integration until they act: they should hear of it at once.
  webhook_disabled: { email: true },
} as const satisfies Record<string, KindDefaults>;

export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

/**
 * Mail about the account's access itself (a password reset link, an address's proof, the
 * old address told of a change): always e-mailed, never listed in the app, and no choice
 * to turn off, so not in the catalog above. Its payload's `to`, when set, is where it goes
 * (the new address to prove, the old one to tell) instead of the account's address.
 */
const ACCOUNT_MAIL_KINDS = ["password_reset", "email_verify", "email_change", "email_changed"] as const;
export type AccountMailKind = (typeof ACCOUNT_MAIL_KINDS)[number];
export const isAccountMail = (kind: string): kind is AccountMailKind => (ACCOUNT_MAIL_KINDS as readonly string[]).includes(kind);
export const NOTIFICATION_KIND_NAMES = Object.keys(NOTIFICATION_KINDS) as [NotificationKind, ...NotificationKind[]];

export interface Choice {
  email: boolean;
  inApp: boolean;
}
/** What a user changed from the defaults, per kind (the users.notification_settings column). */
export type StoredChoices = Partial<Record<string, Partial<Choice>>>;

const isKind = (k: string): k is NotificationKind => Object.hasOwn(NOTIFICATION_KINDS, k);

/**
 * The user's choice for one kind: what they set, else the default (in-app on for every kind,
 * e-mail as the catalog says). quota_80's e-mail is the older quotaWarnings switch.
 * A mandatory e-mail is always on. A kind outside the catalog has no choice to read: it goes
 * both ways, and the channel that cannot render it says so (the deliverer fails the row).
 */
export function notificationChoice(user: { quotaWarnings: boolean; notificationSettings: StoredChoices }, kind: string): Choice {
  if (isAccountMail(kind)) return { email: true, inApp: false };
  if (!isKind(kind)) return { email: true, inApp: true };
  const d: KindDefaults = NOTIFICATION_KINDS[kind];
  const set = user.notificationSettings[kind] ?? {};
  const email = d.mandatory ? true : kind === "quota_80" ? user.quotaWarnings : (set.email ?? d.email);
  return { email, inApp: set.inApp ?? true };
}

/** Every kind's choice, as GET /v1/user/me shows it, with whether its e-mail may be turned off. */
export function allChoices(user: {
  quotaWarnings: boolean;
  notificationSettings: StoredChoices;
}): Record<NotificationKind, Choice & { emailMandatory: boolean }> {
  return Object.fromEntries(
    NOTIFICATION_KIND_NAMES.map((k) => [k, { ...notificationChoice(user, k), emailMandatory: (NOTIFICATION_KINDS[k] as KindDefaults).mandatory === true }]),
  ) as Record<NotificationKind, Choice & { emailMandatory: boolean }>;
}

/**
 * Merges a PATCH into the stored choices. Turning off a mandatory e-mail is refused (422);
 * quota_80's e-mail goes to quotaWarnings, returned apart.
 */
export function mergeChoices(
  stored: StoredChoices,
  patch: Partial<Record<NotificationKind, Partial<Choice>>>,
): { stored: StoredChoices; quotaWarnings?: boolean } {
  const next: StoredChoices = { ...stored };
  let quotaWarnings: boolean | undefined;
  for (const [kind, choice] of Object.entries(patch)) {
    if (!choice || !isKind(kind)) continue;
    const d: KindDefaults = NOTIFICATION_KINDS[kind];
    if (d.mandatory && choice.email === false) throw validationError(`body.notifications.${kind}.email`, "this e-mail is mandatory and cannot be turned off");
    const { email, inApp } = choice;
    if (kind === "quota_80" && email !== undefined) quotaWarnings = email;
    const kept = { ...next[kind] };
    if (email !== undefined && !d.mandatory && kind !== "quota_80") kept.email = email;
    if (inApp !== undefined) kept.inApp = inApp;
    next[kind] = kept;
  }
  return { stored: next, quotaWarnings };
}
