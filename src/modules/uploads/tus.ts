// The tus 1.0.0 protocol's headers (https://tus.io/protocols/resumable-upload), read and
// written here so the routes and the service deal in plain values. Errors keep the
// envelope; the status is the one the protocol fixes.
import { AppError, validationError } from "../../core/errors.ts";

export const TUS_VERSION = "1.0.0";
export const TUS_EXTENSIONS = "creation,creation-with-upload,termination,expiration,checksum";
export const CHECKSUM_ALGORITHMS = ["sha1", "sha256", "md5"] as const;
type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];
/** The body type of a PATCH (and of a POST that carries the first bytes). */
export const OFFSET_STREAM = "application/offset+octet-stream";

/** Headers every answer of /v1/uploads carries, error or not. */
export const commonHeaders = () => ({ "tus-resumable": TUS_VERSION });

/** 412 unless the request speaks tus 1.0.0 (every request but OPTIONS must say so). */
export function assertTusVersion(request: Request): void {
  const v = request.headers.get("tus-resumable");
  if (v !== TUS_VERSION) {
    throw new AppError(
      "PRECONDITION_FAILED",
      `this server speaks tus ${TUS_VERSION}; send Tus-Resumable: ${TUS_VERSION}`,
      { supported: [TUS_VERSION] },
      { "tus-version": TUS_VERSION },
    );
  }
}

/** A non-negative integer header, or undefined when absent; 400 when it is not one. */
export function intHeader(request: Request, name: string): number | undefined {
  const raw = request.headers.get(name);
  if (raw === null) return undefined;
  if (!/^\d{1,16}$/.test(raw.trim())) throw new AppError("BAD_REQUEST", `${name} must be a non-negative integer`, { header: name });
  return Number(raw.trim());
}

/**
 * Upload-Metadata: comma-separated `key base64value` pairs (a key alone has no value).
 * Keys are unique and printable ASCII without spaces or commas; values UTF-8. Any such key
 * is the client's, `__proto__` and `constructor` as much as `filename`: the record has no
 * prototype, so none of them names anything but its value.
 */
export function parseMetadata(raw: string | null): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (raw === null || raw.trim() === "") return out;
  if (raw.length > 16 * 1024) throw new AppError("BAD_REQUEST", "Upload-Metadata is too long", { header: "upload-metadata" });
  for (const pair of raw.split(",")) {
    const [key, value, ...rest] = pair.trim().split(" ");
    if (!key || rest.length || !/^[\x21-\x7e]+$/.test(key) || Object.hasOwn(out, key))
      throw new AppError("BAD_REQUEST", "Upload-Metadata is malformed", { header: "upload-metadata" });
    if (value === undefined) {
      out[key] = "";
      continue;
    }
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw new AppError("BAD_REQUEST", `Upload-Metadata: ${key} is not base64`, { header: "upload-metadata" });
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    try {
      out[key] = text.decode(Buffer.from(value, "base64"));
    } catch {
      throw validationError(`metadata.${key}`, `${key} must be UTF-8 text`);
    }
  }
  return out;
}

/** Upload-Metadata written back (HEAD answers it). */
export const formatMetadata = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([k, v]) => (v === "" ? k : `${k} ${Buffer.from(v, "utf8").toString("base64")}`))
    .join(",");

export interface Checksum {
  algorithm: ChecksumAlgorithm;
  /** The digest the client sent, as bytes. */
  digest: Buffer;
}

/** Upload-Checksum: `<algorithm> <base64 digest>`; 400 for an algorithm not supported or a malformed one. */
export function parseChecksum(raw: string | null): Checksum | undefined {
  if (raw === null) return undefined;
  const [algorithm, digest, ...rest] = raw.trim().split(" ");
  if (!CHECKSUM_ALGORITHMS.includes(algorithm as ChecksumAlgorithm)) {
    throw new AppError("BAD_REQUEST", `Upload-Checksum: the algorithm must be one of ${CHECKSUM_ALGORITHMS.join(", ")}`, { header: "upload-checksum" });
  }
  if (!digest || rest.length || !/^[A-Za-z0-9+/]+={0,2}$/.test(digest))
    throw new AppError("BAD_REQUEST", "Upload-Checksum is malformed", { header: "upload-checksum" });
  return { algorithm: algorithm as ChecksumAlgorithm, digest: Buffer.from(digest, "base64") };
}

export const checksumMismatch = () => new AppError("CHECKSUM_MISMATCH", "the body does not match Upload-Checksum; nothing of it was kept");
