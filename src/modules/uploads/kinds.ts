// What each kind a resumable upload may make asks of it, through that kind's public
// surface: the same refusals as its own upload route at creation (before a byte is
// taken), and on completion the file handed to the same pipeline its upload route runs.
import type { Deps } from "../../core/deps.ts";
import { validationError } from "../../core/errors.ts";
import { formIsPublic, formTags, mediaFormFields } from "../../core/form-fields.ts";
import { assertFileSize, baseName } from "../../core/streamed-upload.ts";
import type { Tx } from "../../infra/db/index.ts";
import { ingestAudio, precheckAudioFile, toAudio } from "../audio/public.ts";
import type { WithCompliance } from "../compliance/public.ts";
import { type PlanLimits, requireUser } from "../identity/public.ts";
import { type ImageDeps, ingestImage, precheckImageUpload, Tags, TAGS_RULE, toUploadedImage } from "../images/public.ts";
import { queueArchiveImport } from "../migration/public.ts";
import { ingestVideo, precheckVideoFile, toUploadedVideo } from "../videos/public.ts";
import type { UploadKind, UploadRow } from "./table.ts";

export type KindDeps = Deps & WithCompliance & ImageDeps;
/** Run in the transaction that records the resource, before its bytes are counted. */
type Within = (tx: Tx, resourceId: string) => Promise<void>;

/** What a finished upload made: its kind's upload answer, with its type, id and a url. */
export type Resource = Record<string, unknown> & { type: UploadKind; id: string; url: string };

interface Kind {
  /** The ledger measure its bytes are held in while it uploads; null: none (an archive counts against no quota). */
  holds: "mediaBytes" | "imageBytes" | null;
  /** The refusals of the kind's upload route for a file of `bytes` (its size, then room; 0: plan and counts only); the plan's limits. */
  precheck(deps: Deps, userId: string, bytes: number): Promise<PlanLimits>;
  /** The metadata read as the kind's upload form is read (422 naming the field). */
  fields(meta: Record<string, string>): void;
  /** The file, read back from the store, through the kind's pipeline. */
  ingest(deps: KindDeps, row: UploadRow, stream: () => Promise<ReadableStream<Uint8Array>>, within: Within): Promise<Resource>;
}

/** The file's name as a form's file part gives it: its last path segment, made safe (Uppy sends `name`). */
const filenameOf = (meta: Record<string, string>) => baseName(meta.filename ?? meta.name ?? "");

export const KINDS: Record<UploadKind, Kind> = {
  video: {
    holds: "mediaBytes",
    precheck: async (deps, userId, bytes) => (await precheckVideoFile(deps, userId, bytes)).limits,
    fields: (meta) => videoFields(meta),
    async ingest(deps, row, _stream, within) {
      const file = { key: row.dataKey, size: row.length, filename: filenameOf(row.metadata), fields: videoFields(row.metadata) };
      const video = await ingestVideo(deps, row.ownerId, file, within);
      return { type: "video", url: `${deps.config.PUBLIC_URL}/v1/videos/${video.id}`, ...toUploadedVideo(video) };
    },
  },
  audio: {
    holds: "mediaBytes",
    precheck: async (deps, userId, bytes) => (await precheckAudioFile(deps, userId, bytes)).limits,
    fields: (meta) => mediaFormFields(meta),
    async ingest(deps, row, stream, within) {
      const file = { stream: await stream(), filename: filenameOf(row.metadata), fields: mediaFormFields(row.metadata) };
      const audio = await ingestAudio(deps, row.ownerId, file, within);
      return { ...toAudio(deps.config.MEDIA_URL, audio), type: "audio" };
    },
  },
  image: {
    holds: "imageBytes",
    precheck: async (deps, userId, bytes) => (await precheckImageUpload(deps, userId, bytes)).limits,
    fields: (meta) => imageFields(meta),
    async ingest(deps, row, stream, within) {
      // An image's pipeline works on its bytes (as the upload route's does): held in
      // memory, at most the plan's image size, counted against the node's upload memory.
      const release = await deps.budgets.uploadMemory.acquire(row.length);
      try {
        const bytes = new Uint8Array(await new Response(await stream()).arrayBuffer());
        const image = await ingestImage(deps, row.ownerId, { bytes, filename: filenameOf(row.metadata), ...imageFields(row.metadata) }, row.reserved, within);
        return { type: "image", ...toUploadedImage(deps.config.MEDIA_URL, image) };
      } finally {
        release();
      }
    },
  },
  archive: {
    holds: null,
    // An archive is bounded by the node (MIGRATION_MAX_BYTES), not by a plan's room.
    precheck: async (deps, userId, bytes) => {
      const user = await requireUser(deps.db, userId);
      assertFileSize(bytes, deps.config.MIGRATION_MAX_BYTES);
      return deps.plans[user.plan];
    },
    fields: () => {},
    async ingest(deps, row, _stream, within) {
      const m = await queueArchiveImport(deps, row.ownerId, { key: row.dataKey, size: row.length, uploadId: row.id, mediaUrl: deps.config.MEDIA_URL }, within);
      return { type: "archive", id: m.id, url: `${deps.config.PUBLIC_URL}/v1/migration/${m.id}` };
    },
  },
};

/** What an upload of `kind` holds in the ledger for `bytes`: its kind's measure, or nothing. */
export const heldNeed = (kind: UploadKind, bytes: number): Record<string, number> => {
  const holds = KINDS[kind].holds;
  return holds && bytes > 0 ? { [holds]: bytes } : {};
};

/** The kind a client names in Upload-Metadata (`kind`), or 422. */
export function kindOf(meta: Record<string, string>): UploadKind {
  const k = meta.kind;
  if (k !== "video" && k !== "audio" && k !== "image" && k !== "archive")
    throw validationError("metadata.kind", "Upload-Metadata must name the kind: video, audio, image or archive");
  if (!filenameOf(meta).trim()) throw validationError("metadata.filename", "Upload-Metadata must name the file (filename)");
  return k;
}

const videoFields = (meta: Record<string, string>) => ({ ...mediaFormFields(meta), tags: formTags(meta, Tags, TAGS_RULE) });
const imageFields = (meta: Record<string, string>) => ({ isPublic: formIsPublic(meta), tags: formTags(meta, Tags, TAGS_RULE) });
