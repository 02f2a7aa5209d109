// Identity's public surface: users and their plans (plans.ts: what each plan allows),
// sessions, API keys and token resolution. Other modules, jobs, the CLI and test factories
// use these; identity's tables and the rest of its files are its own (a table elsewhere may
// still reference users.id).
export { createIdentity } from "./identity.ts";
export { bucketRates } from "./bucket-rates.ts";
export { createUser, getUser, getUserByEmail, hasAccounts, hashPassword, lockUser, requireUser, toMe, updateUser, type User, type UserPatch } from "./users.ts";
export { listUsers, userIdsAfter } from "./listing.ts";
export { deleteUser } from "./delete-user.ts";
export { keepAnAdmin } from "./admins.ts";
export { liveSessionUser, login, logout } from "./sessions.ts";
export { SESSION_TICKET_COOKIE, sessionCookies, ticketPaths, ticketSession } from "./session-cookies.ts";
export { completeSignIn, passkeySignInOptions, signInThroughProvider, signInWithPassword, signInWithPasskey } from "./sign-in.ts";
export { relyingPartyOf } from "./passkey-ceremony.ts";
export { createLoginLimiter } from "./login-limit.ts";
export { DEVICE_COOKIE, deviceCookie } from "./device-proof.ts";
export { createApiKey, DEFAULT_KEY_SCOPES } from "./api-keys.ts";
export { Me, PlanEnum } from "./model.ts";
export { isAccountMail, notificationChoice } from "./notification-settings.ts";
export {
  buildPlans,
  isPlanName,
  PLAN_EXPIRY_RULE,
  PLAN_NAMES,
  type PlanLimits,
  type PlanName,
  type PlanOverrides,
  type Plans,
  parsePlanExpiry,
  PlanLimitsSchema,
  planActive,
} from "../../core/plans.ts";
export type { TokenResolver } from "./principal.ts";
export { pruneSessionsJob } from "./prune-sessions.job.ts";
