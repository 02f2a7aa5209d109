// The plan table: every per-plan limit (docs/operators.md), plus the numbers the spec leaves
// open (storage, bandwidth, upload counts, API keys), which operators may override with
// PLAN_OVERRIDES. -1 means "no cap" wherever a count or size is a limit. Identity owns it (a
// user is on a plan); the ledger, API keys and upload paths read it through identity's
// public surface. src/config.ts reads this file itself at load, so it imports no module file.
import { Type as T, type Static } from "@sinclair/typebox";

export const PLAN_NAMES = ["trial", "pro", "pro_plus"] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

/** A bucket's capacity: -1 (no bucket) or a positive count; one of 0 would let nothing through. */
const Burst = T.Union([T.Literal(-1), T.Integer({ minimum: 1, maximum: 1_000_000 })]);
const Refill = T.Integer({ minimum: 1, maximum: 1_000_000 });

export const PlanLimitsSchema = T.Object({
  imageStorageBytes: T.Integer(),
  imageBandwidthBytes: T.Integer(),
  mediaStorageBytes: T.Integer(),
  mediaBandwidthBytes: T.Integer(),
  imageMaxBytes: T.Integer(),
  uploadsPerDay: T.Integer(),
  uploadsPerMonth: T.Integer(),
  apiKeyCount: T.Integer(),
  docCount: T.Integer(),
  docMaxFileBytes: T.Integer(),
  docMaxImagesPerDoc: T.Integer(),
  kbCount: T.Integer(),
  videoAllowed: T.Boolean(),
  videoMaxBytes: T.Integer(),
  videoMaxSeconds: T.Integer(),
  /** False: POST /v1/audio is 403 FORBIDDEN for the plan. */
  audioAllowed: T.Boolean(),
  audioMaxBytes: T.Integer(),
  audioMaxSeconds: T.Integer(),
  tombstoneRetentionDays: T.Integer(),
  /**
   * The largest KB file (an attachment: PUT /v1/kbs/:id/files/:sha256). Its bytes count in
   * img_storage once per distinct blob. At most the server's request body cap (2 GiB and
   * a little), which no override can pass.
   */
  attachmentMaxBytes: T.Integer(),
  /** Sync limits: the largest conflict branch, and how many may be pending per user. */
  maxBranchBytes: T.Integer(),
  maxPendingBranches: T.Integer(),
  /**
   * The most bytes of version history one account keeps, over all its
   * documents: a replacement that would pass it prunes the account's oldest revisions
   * (documents/history.ts) and is never refused. -1: no cap. The defaults are a tenth of
   * the plan's image storage, where the live documents count, and each holds at least 100
   * versions of the plan's largest document.
   */
  revisionBytes: T.Integer(),
  /** Account exports (POST /v1/backup) a day, UTC; -1: no cap. Their archives count in no storage. */
  exportsPerDay: T.Integer(),
  /**
   * Token buckets (src/http/buckets.ts) that smooth costly work on top of the day and month
   * counts: a burst of `*Burst` at once (-1: no bucket), then `*RefillPerMinute` a minute.
   * upload: each upload and tus creation; transcode: each video upload; syncOp: each op of
   * a sync push; mcpCall: each tool call of the hosted MCP server.
   */
  uploadBurst: Burst,
  uploadRefillPerMinute: Refill,
  transcodeBurst: Burst,
  transcodeRefillPerMinute: Refill,
  syncOpBurst: Burst,
  syncOpRefillPerMinute: Refill,
  mcpCallBurst: Burst,
  mcpCallRefillPerMinute: Refill,
});
export type PlanLimits = Static<typeof PlanLimitsSchema>;

export const PlanOverridesSchema = T.Partial(
  T.Object(Object.fromEntries(PLAN_NAMES.map((p) => [p, T.Partial(PlanLimitsSchema, { additionalProperties: false })])), {
    additionalProperties: false,
  }),
);
export type PlanOverrides = Partial<Record<PlanName, Partial<PlanLimits>>>;

const DEFAULT_PLANS: Readonly<Record<PlanName, PlanLimits>> = {
  trial: {
    imageStorageBytes: 1 * GB,
    imageBandwidthBytes: 10 * GB,
    mediaStorageBytes: 2 * GB,
    mediaBandwidthBytes: 10 * GB,
    imageMaxBytes: 50 * MB,
    uploadsPerDay: 200,
    uploadsPerMonth: 2000,
    apiKeyCount: 5,
    docCount: 100,
    docMaxFileBytes: 1 * MB,
    docMaxImagesPerDoc: 30,
    kbCount: 5,
    videoAllowed: false,
    videoMaxBytes: 0,
    videoMaxSeconds: 0,
    audioAllowed: true,
    audioMaxBytes: 50 * MB,
    audioMaxSeconds: 10 * 60,
    tombstoneRetentionDays: 30,
    attachmentMaxBytes: 25 * MB,
    maxBranchBytes: 10 * MB,
    maxPendingBranches: 100,
    revisionBytes: 100 * MB,
    exportsPerDay: 2,
    uploadBurst: 100,
    uploadRefillPerMinute: 30,
    transcodeBurst: 5,
    transcodeRefillPerMinute: 1,
    syncOpBurst: 2000,
    syncOpRefillPerMinute: 1000,
    mcpCallBurst: 120,
    mcpCallRefillPerMinute: 60,
  },
  pro: {
    imageStorageBytes: 100 * GB,
    imageBandwidthBytes: 500 * GB,
    mediaStorageBytes: 200 * GB,
    mediaBandwidthBytes: 1000 * GB,
    imageMaxBytes: 50 * MB,
    uploadsPerDay: 5000,
    uploadsPerMonth: 50000,
    apiKeyCount: 25,
    docCount: -1,
    docMaxFileBytes: 5 * MB,
    docMaxImagesPerDoc: 100,
    kbCount: 50,
    videoAllowed: true,
    videoMaxBytes: 500 * MB,
    videoMaxSeconds: 30 * 60,
    audioAllowed: true,
    audioMaxBytes: 100 * MB,
    audioMaxSeconds: 60 * 60,
    tombstoneRetentionDays: 30,
    attachmentMaxBytes: 1 * GB,
    maxBranchBytes: 20 * MB,
    maxPendingBranches: 100,
    revisionBytes: 10 * GB,
    exportsPerDay: 10,
    uploadBurst: 300,
    uploadRefillPerMinute: 100,
    transcodeBurst: 30,
    transcodeRefillPerMinute: 10,
    syncOpBurst: 10000,
    syncOpRefillPerMinute: 5000,
    mcpCallBurst: 600,
    mcpCallRefillPerMinute: 300,
  },
  pro_plus: {
    imageStorageBytes: 500 * GB,
    imageBandwidthBytes: 2000 * GB,
    mediaStorageBytes: 1000 * GB,
    mediaBandwidthBytes: 5000 * GB,
    imageMaxBytes: 50 * MB,
    uploadsPerDay: 20000,
    uploadsPerMonth: 200000,
    apiKeyCount: 100,
    docCount: -1,
    docMaxFileBytes: 5 * MB,
    docMaxImagesPerDoc: 300,
    kbCount: 500,
    videoAllowed: true,
    videoMaxBytes: 2 * GB,
    videoMaxSeconds: 2 * 60 * 60,
    audioAllowed: true,
    audioMaxBytes: 500 * MB,
    audioMaxSeconds: 4 * 60 * 60,
    tombstoneRetentionDays: 90,
    attachmentMaxBytes: 2 * GB,
    maxBranchBytes: 50 * MB,
    maxPendingBranches: 100,
    revisionBytes: 50 * GB,
    exportsPerDay: 20,
    uploadBurst: 1000,
    uploadRefillPerMinute: 300,
    transcodeBurst: 100,
    transcodeRefillPerMinute: 30,
    syncOpBurst: 50000,
    syncOpRefillPerMinute: 20000,
    mcpCallBurst: 2000,
    mcpCallRefillPerMinute: 1000,
  },
};

export type Plans = Readonly<Record<PlanName, Readonly<PlanLimits>>>;

export function buildPlans(overrides: PlanOverrides): Plans {
  const out = {} as Record<PlanName, PlanLimits>;
  for (const name of PLAN_NAMES) out[name] = Object.freeze({ ...DEFAULT_PLANS[name], ...overrides[name] });
  return Object.freeze(out);
}

export function isPlanName(v: string): v is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(v);
}

/** A plan without an expiry never lapses; an expired plan is inactive. */
export const planActive = (u: { planExpiresAt: Date | null }, now: Date) => !u.planExpiresAt || u.planExpiresAt > now;

/** What parsePlanExpiry accepts, for error messages. */
export const PLAN_EXPIRY_RULE =
  "an ISO 8601 UTC date-time like 2031-01-01T00:00:00Z (or with an offset, or a date alone): a calendar day that exists, year 1970 to 9999";

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * A plan expiry as the admin API and CLI take it; undefined when it is not a real instant
 * the database can store. Stricter than Date.parse, which rolls 2026-02-30 over to March
 * and accepts years (0000, -000001) Postgres refuses.
 */
export function parsePlanExpiry(text: string): Date | undefined {
  const m = ISO_INSTANT.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((p) => Number(p ?? 0)) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) return undefined;
  const zone = m[8] ?? "Z";
  let offsetMinutes = 0;
  if (zone !== "Z") {
    const [oh, om] = [Number(zone.slice(1, 3)), Number(zone.slice(4, 6))];
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const ms = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000);
  return at.getUTCFullYear() <= 9999 ? at : undefined;
}
