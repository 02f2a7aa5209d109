import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, real, text, uniqueIndex } from "drizzle-orm/pg-core";
import { bytes, ts } from "../../infra/db/columns.ts";
import { users } from "../identity/table.ts";

export const VIDEO_STATUSES = ["processing", "ready", "failed"] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];
export const VIDEO_PROVIDERS = ["local", "mux"] as const;
export type VideoProviderName = (typeof VIDEO_PROVIDERS)[number];
export const RENDITIONS = ["360p", "720p", "1080p"] as const;
export type Rendition = (typeof RENDITIONS)[number];

/**
 * A caption track: a WebVTT file stored under the video's prefix with a fresh name per
 * upload (`file`, below captions/), so a replaced one never comes from a cache.
 */
export interface CaptionTrack {
  /** A BCP 47 tag in its canonical form (en, pt-BR). */
  language: string;
  label: string;
  file: string;
  sizeBytes: number;
  updatedAt: string;
}

/**
 * One row per video. Object keys follow layout.ts; the key columns are null until the
 * object exists (renditions are written by the provider, the original by the upload).
 * `original_key` turns null when the original is gone (a failed video's, after 7 days).
 */
export const videos = pgTable(
  "videos",
  {
    /** 21 characters. */
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    filename: text("filename").notNull(),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    isPublic: boolean("is_public").notNull().default(true),
    status: text("status", { enum: VIDEO_STATUSES }).notNull().default("processing"),
    failureReason: text("failure_reason"),
    /** The uploaded original's bytes: what media_storage counts. */
    sizeBytes: bytes("size_bytes").notNull(),
    /** The container the first bytes said (mp4, mov, mkv, webm, avi). */
    container: text("container").notNull(),
    durationSeconds: real("duration_seconds"),
    /** HLS variants present under hls/, lowest first, e.g. {360p,720p}. */
    renditions: text("renditions").array().notNull().default(sql`'{}'::text[]`),
    /** 0..1, as the provider last reported it. */
    progress: real("progress").notNull().default(0),
    provider: text("provider", { enum: VIDEO_PROVIDERS }).notNull(),
    providerAssetId: text("provider_asset_id"),
    /** A hosted provider's playback id (Mux): the edge sends the player there. */
    providerPlaybackId: text("provider_playback_id"),
    originalKey: text("original_key"),
    /** The auto thumbnail (thumb.jpg), once transcoded. */
    thumbnailKey: text("thumbnail_key"),
    /** A replacement thumbnail (thumb-custom-<nanoid>.jpg); wins over thumbnail_key. */
    customThumbnailKey: text("custom_thumbnail_key"),
    /**
     * The ThumbHash of the thumbnail shown (custom, else auto), base64; null until made (the
     * video-placeholders job), "" when the picture gives none.
     */
    placeholder: text("placeholder"),
    /** The custom thumbnail's bytes, counted against image storage. */
    thumbnailBytes: bytes("thumbnail_bytes").notNull().default(0),
    /** The progressive MP4 (direct.mp4), once transcoded. */
    directKey: text("direct_key"),
    /** Its captions, one per language, in the order they were added (captions.ts). */
    captions: jsonb("captions").$type<CaptionTrack[]>().notNull().default(sql`'[]'::jsonb`),
    /** The captions' bytes, counted against image storage as the custom thumbnail's are. */
    captionBytes: bytes("caption_bytes").notNull().default(0),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
    /** When transcoding began (the eta is extrapolated from it). */
    processingStartedAt: ts("processing_started_at"),
    readyAt: ts("ready_at"),
    failedAt: ts("failed_at"),
    /** When it was moved to the trash (null: not trashed); it is purged TRASH_RETENTION_DAYS later (docs/api.md, "The trash"). */
    trashedAt: ts("trashed_at"),
  },
  (t) => [
    index("videos_owner_created_idx").on(t.ownerId, t.createdAt.desc(), t.id.desc()),
    index("videos_owner_trashed_idx").on(t.ownerId, t.trashedAt.desc(), t.id.desc()).where(sql`${t.trashedAt} is not null`),
    index("videos_processing_idx").on(t.createdAt).where(sql`${t.status} = 'processing'`),
    index("videos_failed_original_idx").on(t.failedAt).where(sql`${t.status} = 'failed' and ${t.originalKey} is not null`),
  ],
);
export type VideoRow = typeof videos.$inferSelect;

export const TRANSCODE_JOB_KINDS = ["transcode", "delete"] as const;
export type TranscodeJobKind = (typeof TRANSCODE_JOB_KINDS)[number];
export const TRANSCODE_JOB_STATES = ["queued", "running", "done", "failed"] as const;

/**
 * The local provider's work queue (and the asynchronous provider cleanup after a delete).
 * Workers claim with FOR UPDATE SKIP LOCKED and hold a lease they renew while working; a
 * lease that runs out puts the job back in reach of another worker. No foreign key to
 * videos: a delete job outlives its row.
 */
export const transcodeJobs = pgTable(
  "transcode_jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: TRANSCODE_JOB_KINDS }).notNull(),
    videoId: text("video_id").notNull(),
    ownerId: text("owner_id").notNull(),
    provider: text("provider", { enum: VIDEO_PROVIDERS }).notNull(),
    /** What the job needs beyond the ids (a delete's object keys, a provider asset id). */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    state: text("state", { enum: TRANSCODE_JOB_STATES }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    runAfter: ts("run_after").notNull(),
    leaseOwner: text("lease_owner"),
    leaseUntil: ts("lease_until"),
    lastError: text("last_error"),
    createdAt: ts("created_at").notNull(),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    index("transcode_jobs_ready_idx").on(t.runAfter).where(sql`${t.state} in ('queued', 'running')`),
    uniqueIndex("transcode_jobs_video_uq").on(t.videoId, t.kind).where(sql`${t.state} in ('queued', 'running')`),
  ],
);
export type TranscodeJobRow = typeof transcodeJobs.$inferSelect;

/** Provider callbacks already applied, so a replayed event is acknowledged and ignored. */
export const videoWebhookEvents = pgTable(
  "video_webhook_events",
  {
    provider: text("provider", { enum: VIDEO_PROVIDERS }).notNull(),
    eventId: text("event_id").notNull(),
    receivedAt: ts("received_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] }), index("video_webhook_events_received_idx").on(t.receivedAt)],
);

/**
 * Each month the month-rollover job has closed ("YYYY-MM", UTC): the owners whose video
 * playback the new month restored are counted once, by the run that inserts the row.
 */
export const monthRollovers = pgTable("month_rollovers", {
  month: text("month").primaryKey(),
  closedAt: ts("closed_at").notNull(),
  /** Owners degraded or suspended at the end of the month before, ok in this one. */
  restored: integer("restored").notNull(),
});
