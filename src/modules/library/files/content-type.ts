// A KB file's Content-Type, and how it may be served. The type is told by the bytes (their
// signature, read by file-type) and only where they say nothing (text, most of all) by the
// name the uploader gave, else application/octet-stream. It is stored with the blob, so
// every path of the same bytes answers the same type.
//
// Served, a file is the owner's content on the API's origin, which the dashboard shares: a
// type a browser would run (HTML, SVG, XML, scripts) must never run there. Every answer
// carries nosniff and a Content-Security-Policy that runs and loads nothing (sandbox, as the
// media edge serves an SVG), and a type outside PASSIVE is sent as an attachment.
import { fileTypeFromBuffer } from "file-type";

/** How many leading bytes the signature is read from (file-type's own reasonable size). */
export const SNIFF_BYTES = 4100;

const OCTET_STREAM = "application/octet-stream";

/**
 * Signatures that name a container more specific names share (an SVG starts as XML): the
 * uploader's name may say which, when its type is of the same family.
 */
const CONTAINERS: Record<string, (byName: string) => boolean> = {
  "application/xml": (t) => t.endsWith("+xml") || t === "text/xml",
  "application/zip": (t) => t.startsWith("application/vnd.") || t === "application/epub+zip",
};

/** The type a file name's extension stands for (Bun's table), bare (no parameters); null for none. */
function typeByName(name: string | undefined): string | null {
  if (!name?.includes(".")) return null;
  const type = Bun.file(name.slice(name.lastIndexOf("/") + 1))
    .type.split(";")[0]!
    .trim()
    .toLowerCase();
  return type && type !== OCTET_STREAM ? type : null;
}

/** The Content-Type of bytes starting with `head`, uploaded under `name` (optional). */
export async function contentTypeOf(head: Uint8Array, name?: string): Promise<string> {
  const signed = head.length ? (await fileTypeFromBuffer(head))?.mime : undefined;
  const named = typeByName(name);
  if (signed) return named && CONTAINERS[signed]?.(named) ? named : signed;
  return named ?? OCTET_STREAM;
}

/** Types a browser shows without running anything of the file's: sent inline. Any other is an attachment. */
const PASSIVE = /^(image\/(?!svg)[a-z0-9.+-]+|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+|application\/pdf|application\/json|text\/(plain|csv|markdown))$/;

/** Runs nothing and loads nothing, whatever the type (the media edge's SVG policy). */
const SANDBOX = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

/** The headers that keep a served file from acting on the origin it is served from. */
export function servedAs(contentType: string, filename: string): Record<string, string> {
  const disposition = PASSIVE.test(contentType) ? "inline" : "attachment";
  return {
    "content-type": contentType,
    "content-disposition": `${disposition}; filename*=UTF-8''${encodeURIComponent(filename || "file")}`,
    "content-security-policy": SANDBOX,
    "x-content-type-options": "nosniff",
  };
}
