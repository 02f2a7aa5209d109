// The download of a ready archive. Its URL is signed (HMAC-SHA256 over the export's id and
// the instant it expires, with a key of its own made from JWT_SECRET), so a browser, a
// download manager or curl can fetch it, resume it with ranges, without a credential in a
// header: GET /v1/backup/{id} hands it to the owner only, and it opens that one archive
// until the export expires. It stops at once when the export is deleted or expires: the
// row is read on every request.
import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError, notFound, storageError } from "../../core/errors.ts";
import { logStoreFailure } from "../../infra/storage/outages.ts";
import { notModified, parseRange } from "../edge/public.ts";
import { archiveFilename } from "./archive.ts";
import { stateAt } from "./service.ts";
import { accountExports, type ExportRow } from "./table.ts";

const KEY_LABEL = "shelf export download signature v1";
const MAC = /^[A-Za-z0-9_-]{43}$/;

export interface DownloadSigner {
  url(publicUrl: string, r: Pick<ExportRow, "id" | "ownerId" | "expiresAt">): string;
  verify(r: Pick<ExportRow, "id" | "ownerId">, expires: string, signature: string): boolean;
}

export function createDownloadSigner(secret: string): DownloadSigner {
  const key = createHmac("sha256", secret).update(KEY_LABEL).digest();
  // The owner is signed too: a URL opens one user's one archive.
  const mac = (r: Pick<ExportRow, "id" | "ownerId">, expiresS: number) =>
    createHmac("sha256", key).update(`${r.id}\n${r.ownerId}\n${expiresS}`).digest("base64url");
  return {
    url(publicUrl, r) {
      const expiresS = Math.floor((r.expiresAt?.getTime() ?? 0) / 1000);
      return `${publicUrl}/v1/backup/${r.id}/archive?expires=${expiresS}&signature=${mac(r, expiresS)}`;
    },
    verify(r, expires, signature) {
      if (!/^\d{1,12}$/.test(expires) || !MAC.test(signature)) return false;
      return timingSafeEqual(Buffer.from(signature), Buffer.from(mac(r, Number(expires))));
    },
  };
}

interface Asked {
  method: string;
  range: string | null;
  ifRange: string | null;
  ifNoneMatch: string | null;
}

/**
 * The archive as an answer: 200 whole, 206 for one range, 416 past its end; 404 for a bad
 * signature or an export that is not there, 410 EXPORT_EXPIRED once it expired, 409
 * CONFLICT while it is not ready yet.
 */
export async function serveArchive(deps: Deps, signer: DownloadSigner, id: string, q: { expires: string; signature: string }, asked: Asked) {
  const [row] = await deps.db.select().from(accountExports).where(eq(accountExports.id, id));
  // No signature of this export's: not there, as for one that does not exist.
  if (!row || !signer.verify(row, q.expires, q.signature)) throw notFound("export");
  const now = deps.clock.now();
  const state = stateAt(row, now);
  if (state === "expired" || Number(q.expires) * 1000 <= now.getTime())
    throw new AppError("EXPORT_EXPIRED", "this export has expired and its archive was removed", { entity: "export" });
  if (state !== "ready" || !row.objectKey || row.archiveBytes === null) throw new AppError("CONFLICT", `this export is ${state}, not ready`, { state });
  const size = row.archiveBytes;
  const etag = `"${row.id}-${size}"`;
  const headers: Record<string, string> = {
    "content-type": "application/zip",
    "content-disposition": `attachment; filename="${archiveFilename(row)}"`,
    "accept-ranges": "bytes",
    etag,
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
  };
  if (notModified(asked.ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  const range = parseRange(asked.range, asked.ifRange, size, etag);
  if (range === "unsatisfiable") return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${size}` } });
  const start = range ? range.start : 0;
  const end = range ? range.end : size - 1;
  if (range) headers["content-range"] = `bytes ${start}-${end}/${size}`;
  headers["content-length"] = String(end - start + 1);
  const status = range ? 206 : 200;
  if (asked.method === "HEAD" || size === 0) return new Response(null, { status, headers });
  return new Response(await bytesOf(deps, row.objectKey, size, start, end, !range), { status, headers });
}

async function bytesOf(deps: Deps, key: string, size: number, start: number, end: number, whole: boolean): Promise<BodyInit> {
  try {
    // The folder store's file goes out from disk (sendfile); another store's as a stream.
    const file = deps.storage.file?.(key);
    if (file !== undefined && file !== null && file.size === size) return whole ? file : file.slice(start, end + 1);
    if (file === undefined) {
      const stream = await deps.storage.get(key, whole ? undefined : { start, end });
      if (stream) return stream;
    }
    throw new Error("the archive is missing or of another size than its record");
  } catch (err) {
    logStoreFailure(deps.log, "export archive read failed", { key }, err);
    throw storageError(err, "the archive could not be read");
  }
}
