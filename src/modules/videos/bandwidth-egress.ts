// Media egress a hosted video provider serves from its own CDN never passes the edge, so
// the edge cannot meter it per owner. The provider's reported total for an hour
// is split among users in proportion to the media storage each holds. The local provider
// serves nothing itself (its playback is the edge's, metered per owner), so it reports 0.
import type { Config } from "../../config.ts";

export interface ProviderEgress {
  readonly provider: string;
  /** Bytes the provider delivered in [from, to), for every user together. */
  bytesServed(from: Date, to: Date): Promise<number>;
}

const local: ProviderEgress = { provider: "local", bytesServed: async () => 0 };

/**
 * The configured provider's egress report; null when its adapter cannot report one yet
 * (Mux: its usage figures come from its Data API, which this adapter does not call).
 */
export function providerEgress(config: Pick<Config, "VIDEO_PROVIDER">): ProviderEgress | null {
  return config.VIDEO_PROVIDER === "local" ? local : null;
}

/**
 * `total` split in proportion to `holders`' bytes, in whole bytes that add up to it
 * (largest remainders get the bytes rounding left over, ties to the larger holder).
 */
export function splitByStorage(total: number, holders: readonly { ownerId: string; bytes: number }[]): { ownerId: string; bytes: number }[] {
  const sum = holders.reduce((s, h) => s + h.bytes, 0);
  if (total <= 0 || sum <= 0) return [];
  const shares = holders.map((h) => {
    const exact = (total * h.bytes) / sum;
    return { ownerId: h.ownerId, held: h.bytes, bytes: Math.floor(exact), rest: exact - Math.floor(exact) };
  });
  let left = total - shares.reduce((s, h) => s + h.bytes, 0);
  for (const s of [...shares].sort((a, b) => b.rest - a.rest || b.held - a.held)) {
    if (left <= 0) break;
    s.bytes++;
    left--;
  }
  return shares.filter((s) => s.bytes > 0).map(({ ownerId, bytes }) => ({ ownerId, bytes }));
}
