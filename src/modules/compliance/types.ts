// What a compliance check is given and what it answers. Every upload path builds one
// CheckInput (kinds differ in whether bytes or text come along) and every checker, built
// in or external, answers the same Verdict.

type UploadKind = "image" | "document" | "video" | "audio" | "file";

export interface CheckInput {
  kind: UploadKind;
  /** SHA-256 (hex) of the bytes as uploaded (a document: of its text, UTF-8). */
  sha256: string;
  /** Size in bytes of what the hash covers. */
  size: number;
  /** The bytes, when the upload holds them in memory (images); absent for streamed media. */
  bytes?: Uint8Array;
  /** A document's text as it would be stored. */
  text?: string;
  ownerId: string;
  filename: string;
  mimeType: string;
}

/** Why an upload was refused: which checker, its reason, and which piece of the upload. */
export interface BlockReason {
  checker: "blocklist" | "webhook";
  /** BLOCKED_HASH or BLOCKED_KEYWORD from the blocklist; the moderation service's own words from the webhook. */
  reason: string;
  kind: UploadKind;
  sha256: string;
  /** An inline image of a document: its position among the document's image references. */
  index?: number;
}

export type Verdict = { ok: true } | { ok: false; reasons: BlockReason[] };

export interface Checker {
  readonly name: BlockReason["checker"];
  /** Throws AppError DEPENDENCY_UNAVAILABLE when it cannot decide: never a silent pass. */
  check(input: CheckInput): Promise<Verdict>;
}

export const PASS: Verdict = Object.freeze({ ok: true });
