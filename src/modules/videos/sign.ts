// Signed playback of a private video. A signature is an HMAC-SHA256 over the video's id
// and an expiry, so it opens that one video until then and nothing else. It rides in the
// URL as one path segment before the file (`v/<id>/s.<expiry>.<mac>/master.m3u8`): the
// playlists name their variants and segments by relative URIs, so a player resolving them
// keeps the segment on every request it makes, and no playlist has to be rewritten.
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { notFound } from "../../core/errors.ts";
import { iso } from "../../infra/clock.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { prepared } from "../../infra/db/prepared.ts";
import { playbackUrl } from "./playback.ts";
import { videos } from "./table.ts";

/** A token lives at most this long (POST /v1/videos/:id/sign). */
export const SIGN_TTL_MAX_S = 86_400;
export const SIGN_TTL_DEFAULT_S = 3_600;

// Its own key, so a playback signature can never equal a MAC made with JWT_SECRET for anything else.
const KEY_LABEL = "shelf video playback signature v1";
const TOKEN = /^s\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface PlaybackSigner {
  /** The path segment that opens video `id` until `expiresAtS` (seconds since the epoch). */
  token(id: string, expiresAtS: number): string;
  /** True when `segment` is a token for video `id` that has not expired at `nowMs`. */
  verify(id: string, segment: string, nowMs: number): boolean;
}

export function createPlaybackSigner(secret: string): PlaybackSigner {
  const key = createHmac("sha256", secret).update(KEY_LABEL).digest();
  const mac = (id: string, expiresAtS: number) => createHmac("sha256", key).update(`${id}\n${expiresAtS}`).digest();
  return {
    token: (id, expiresAtS) => `s.${expiresAtS}.${mac(id, expiresAtS).toString("base64url")}`,
    verify(id, segment, nowMs) {
      const m = TOKEN.exec(segment);
      if (!m) return false;
      const expiresAtS = Number(m[1]);
      if (expiresAtS * 1000 <= nowMs) return false;
      // Compared as text: decoding would ignore the last character's spare bits, so two
      // spellings would pass for one signature.
      return timingSafeEqual(Buffer.from(m[2]!), Buffer.from(mac(id, expiresAtS).toString("base64url")));
    },
  };
}

const ownedQuery = (db: DbOrTx) =>
  db
    .select({ id: videos.id })
    .from(videos)
    .where(and(eq(videos.id, sql.placeholder("id")), eq(videos.ownerId, sql.placeholder("ownerId")), isNull(videos.trashedAt)))
    .prepare("video_owned_for_sign");

/**
 * A signed playback URL of the caller's video `id`, good for `ttlSeconds` (POST
 * .../sign). Any status: the URL plays once the video is ready, if it has not expired.
 */
export async function signPlayback(
  deps: Pick<Deps, "db" | "clock" | "config">,
  signer: PlaybackSigner,
  ownerId: string,
  id: string,
  ttlSeconds: number,
): Promise<{ url: string; expiresAt: string }> {
  const [owned] = await prepared(deps.db, "video_owned_for_sign", ownedQuery).execute({ id, ownerId });
  if (!owned) throw notFound("video");
  const expiresAtS = Math.floor(deps.clock.nowMs() / 1000) + ttlSeconds;
  return { url: playbackUrl(deps.config.MEDIA_URL, id, signer.token(id, expiresAtS)), expiresAt: iso(new Date(expiresAtS * 1000)) };
}
