// The quota dimensions, described once. The ledger's reserve, release, pre-check
// and snapshot, the usage resource (its schema too) and the refusals all read
// this list, so a new dimension is one entry here; its counters live in usage_counters
// under its name and need no migration.
import { dayKey, monthKey } from "../../infra/clock.ts";
import type { PlanLimits } from "../identity/public.ts";

/** The numeric fields of a plan, where a dimension's limit comes from (-1: no cap). */
type NumericLimit = { [K in keyof PlanLimits]: PlanLimits[K] extends number ? K : never }[keyof PlanLimits];

export type Period = "total" | "month" | "day";

/**
 * How a need over the limit is answered. `quota`: refused until something is deleted
 * (403 QUOTA_EXCEEDED). `rate`: refused until the period ends, so the refusal says when
 * (429 RATE_LIMITED). `never`: measured after the fact (bandwidth) and never refused here;
 * whatever enforces it reads the counter.
 */
type Refused = "quota" | "rate" | "never";

/** How a counter shows in GET /v1/user/me/usage. */
export interface Report {
  /** Where in the resource, e.g. ["image", "storage"]. */
  at: readonly string[];
  /** `{ used, limit }`; `{ used, limit, monthYear }`; or the bare count. */
  shape: "usedLimit" | "monthly" | "used";
  /** For the OpenAPI document. */
  description?: string;
}

export interface Dimension {
  /** The counter's key, and `meta.type` of its refusals. */
  readonly name: string;
  /**
   * What a need names to move it. Several dimensions may count the same thing: one upload
   * counts against the day's and the month's uploads.
   */
  readonly counts: string;
  /**
   * total: held until given back (release); month and day: activity in a UTC calendar
   * period, which starts again from zero and is never given back.
   */
  readonly period: Period;
  /** The plan's limit; null when no plan caps it. */
  readonly limit: NumericLimit | null;
  readonly refused: Refused;
  /** null: counted, but not shown in the usage resource. */
  readonly report: Report | null;
  /**
   * The percents of the limit whose crossing is e-mailed to the owner
   * (notify.ts); none when absent.
   */
  readonly warnAt?: readonly number[];
}

const nextDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
const nextMonth = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));

/** The key of the counters that are never reset. */
export const TOTAL = "total";

/** A period's counter key at an instant, and when that counter stops applying. */
export const PERIODS: Record<Period, { key(now: Date): string; endsAt(now: Date): Date | null }> = {
  total: { key: () => TOTAL, endsAt: () => null },
  month: { key: monthKey, endsAt: nextMonth },
  day: { key: dayKey, endsAt: nextDay },
};

/** The production dimensions. Their order is the order of refusal checks and of the resource. */
export const DIMENSIONS = [
  // Images plus documents and KB files (each distinct file once); custom video thumbnails count here too.
  {
    name: "img_storage",
    counts: "imageBytes",
    period: "total",
    limit: "imageStorageBytes",
    refused: "quota",
    report: { at: ["image", "storage"], shape: "usedLimit" },
    warnAt: [80, 100],
  },
  // Image bandwidth has no hard cutoff.
  {
    name: "image_bandwidth",
    counts: "imageBandwidthBytes",
    period: "month",
    limit: "imageBandwidthBytes",
    refused: "never",
    report: { at: ["image", "bandwidth"], shape: "monthly" },
    warnAt: [80, 100],
  },
  {
    name: "media_storage",
    counts: "mediaBytes",
    period: "total",
    limit: "mediaStorageBytes",
    refused: "quota",
    report: { at: ["video", "storage"], shape: "usedLimit", description: "audio and video bytes (media_storage)" },
    warnAt: [80, 100],
  },
  // The playback edge degrades and suspends on it; nothing refuses it here. Its
  // 100%, 110% and 120% are told with the playback state they bring (bandwidth-crossings.ts,
  // recordBandwidthCrossings), under the same marks: one message per crossing.
  {
    name: "media_bandwidth",
    counts: "mediaBandwidthBytes",
    period: "month",
    limit: "mediaBandwidthBytes",
    refused: "never",
    report: { at: ["video", "bandwidth"], shape: "monthly" },
    warnAt: [80],
  },
  // A quota of the trial plan only; where the plan has no cap nothing is told.
  {
    name: "doc_count",
    counts: "docs",
    period: "total",
    limit: "docCount",
    refused: "quota",
    report: { at: ["doc", "count"], shape: "usedLimit" },
    warnAt: [80, 100],
  },
  // What an images list reports as its total; the usage resource does not show it.
  { name: "image_count", counts: "images", period: "total", limit: null, refused: "quota", report: null },
  { name: "revision_count", counts: "revisions", period: "total", limit: null, refused: "quota", report: { at: ["docs", "revisionCount"], shape: "used" } },
  // Capped by the plan but never refused: a revision that would pass the cap prunes the
  // account's oldest ones instead (documents/history.ts), so a write never fails for its
  // history. The cap shows as planLimits.revisionBytes.
  {
    name: "revision_bytes",
    counts: "revisionBytes",
    period: "total",
    limit: "revisionBytes",
    refused: "never",
    report: { at: ["docs", "revisionBytes"], shape: "used" },
  },
  // Conflict branches kept pending beside their master (at most 100 per user). Their
  // bytes count in img_storage, where they may go up to 20% past the plan's limit.
  { name: "conflict_branches", counts: "branches", period: "total", limit: "maxPendingBranches", refused: "quota", report: null },
  {
    name: "uploads_per_day",
    counts: "uploads",
    period: "day",
    limit: "uploadsPerDay",
    refused: "rate",
    report: { at: ["uploads", "day"], shape: "usedLimit" },
  },
  {
    name: "uploads_per_month",
    counts: "uploads",
    period: "month",
    limit: "uploadsPerMonth",
    refused: "rate",
    report: { at: ["uploads", "month"], shape: "usedLimit" },
  },
  // The bytes of trashed items, which img_storage and media_storage go on counting until
  // the items are purged (docs/api.md, "The trash"): what the usage resource shows as trashBytes.
  { name: "trash_bytes", counts: "trashBytes", period: "total", limit: null, refused: "never", report: { at: ["trashBytes"], shape: "used" } },
  // Account exports: a day's count, however many are deleted (their archives count in no storage).
  {
    name: "exports_per_day",
    counts: "exports",
    period: "day",
    limit: "exportsPerDay",
    refused: "rate",
    report: null,
  },
] as const satisfies readonly Dimension[];

/** The monthly dimensions measured after the fact (addBandwidthBatch). */
export type BandwidthDimension = Extract<(typeof DIMENSIONS)[number], { refused: "never"; period: "month" }>["name"];

/** The plan's limit of a dimension; -1 when there is none. */
export const limitOf = (d: Dimension, limits: PlanLimits): number => (d.limit === null ? -1 : limits[d.limit]);
