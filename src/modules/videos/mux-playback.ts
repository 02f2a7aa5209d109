// Playback of a Mux-hosted video: the edge admits the request as it would a local video's
// (signature, bandwidth state, owner) and then sends the player to Mux. With a signing key
// configured the assets are created signed-only, so a Mux URL plays only with a token
// minted here (https://docs.mux.com/guides/secure-video-playback): an RS256 JWT with the
// key id as `kid`, the playback id as `sub`, `aud` "v" (video) or "t" (thumbnail), and
// playback modifiers such as max_resolution as claims rather than query parameters.
import { createPrivateKey, type KeyObject } from "node:crypto";
import { SignJWT } from "jose";

const STREAM = "https://stream.mux.com";
const IMAGE = "https://image.mux.com";
/** A token's life when the request carried no signature of ours. */
const DEFAULT_TTL_S = 3_600;

interface MuxPlaybackTarget {
  playbackId: string;
  /** Only the lowest rendition (the owner's bandwidth is degraded). */
  degraded: boolean;
  /** Seconds since the epoch when our own signature expires, if the request had one. */
  signedUntilS: number | null;
  nowS: number;
}

interface MuxPlayback {
  /** Where the master playlist is. */
  stream(t: MuxPlaybackTarget): Promise<string>;
  /** Where the poster frame is. */
  thumbnail(t: MuxPlaybackTarget): Promise<string>;
}

export function muxPlayback(config: { MUX_SIGNING_KEY_ID?: string; MUX_SIGNING_KEY?: string }): MuxPlayback {
  const keyId = config.MUX_SIGNING_KEY_ID;
  let key: KeyObject | null = null;
  if (keyId && config.MUX_SIGNING_KEY) {
    // Mux hands the key out base64-encoded; a PEM pasted as it stands is taken too.
    const raw = config.MUX_SIGNING_KEY.includes("-----BEGIN") ? config.MUX_SIGNING_KEY : Buffer.from(config.MUX_SIGNING_KEY, "base64").toString("utf8");
    try {
      key = createPrivateKey(raw);
    } catch (err) {
      throw new Error("MUX_SIGNING_KEY is not an RSA private key (base64 of its PEM, as Mux gives it)", { cause: err });
    }
  }

  async function url(base: string, aud: "v" | "t", extra: Record<string, string>, t: MuxPlaybackTarget): Promise<string> {
    const claims: Record<string, string> = { ...extra, ...(t.degraded && aud === "v" && { max_resolution: "360p" }) };
    if (!key || !keyId) {
      const q = new URLSearchParams(claims).toString();
      return q ? `${base}?${q}` : base;
    }
    const exp = t.signedUntilS ?? t.nowS + DEFAULT_TTL_S;
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: keyId })
      .setSubject(t.playbackId)
      .setAudience(aud)
      .setExpirationTime(exp)
      .sign(key);
    return `${base}?token=${token}`;
  }

  return {
    stream: (t) => url(`${STREAM}/${t.playbackId}.m3u8`, "v", {}, t),
    thumbnail: (t) => url(`${IMAGE}/${t.playbackId}/thumbnail.jpg`, "t", { time: "5" }, t),
  };
}
