// A public, ready video as a page that embeds it describes it (oEmbed): its title, the
// height of its largest rendition and its thumbnail. Nothing of a private or unready one.
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import { thumbnailUrl } from "./playback.ts";
import { getVideo } from "./service.ts";

export interface VideoCard {
  title: string;
  /** Pixels of the largest rendition (360, 720 or 1080). */
  height: number;
  thumbnailUrl: string | null;
}

export async function publicVideoCard(deps: Pick<Deps, "db" | "config">, id: string): Promise<VideoCard | null> {
  const row = await getVideo(deps.db, { id }).catch((e: unknown) => {
    if (e instanceof AppError && e.code === "NOT_FOUND") return null;
    throw e;
  });
  if (!row || row.status !== "ready") return null;
  const largest = row.renditions.at(-1);
  const thumb = row.customThumbnailKey ?? row.thumbnailKey;
  return {
    title: row.title,
    height: largest ? Number.parseInt(largest, 10) : 360,
    thumbnailUrl: thumb ? thumbnailUrl(deps.config.MEDIA_URL, row.id, thumb) : null,
  };
}

/** The owner's video as a share link's page shows it, public or not; null when it is not theirs. */
export interface OwnedVideoCard extends VideoCard {
  id: string;
  ready: boolean;
  /** The thumbnail's file name below v/<id>/, if it has one. */
  thumbnailFile: string | null;
}

export async function ownedVideoCard(deps: Pick<Deps, "db">, ownerId: string, id: string): Promise<OwnedVideoCard | null> {
  const row = await getVideo(deps.db, { userId: ownerId, id }).catch((e: unknown) => {
    if (e instanceof AppError && e.code === "NOT_FOUND") return null;
    throw e;
  });
  if (!row || row.ownerId !== ownerId) return null;
  const largest = row.renditions.at(-1);
  const thumb = row.customThumbnailKey ?? row.thumbnailKey;
  return {
    id: row.id,
    title: row.title,
    ready: row.status === "ready",
    height: largest ? Number.parseInt(largest, 10) : 360,
    thumbnailUrl: null,
    thumbnailFile: thumb ? thumb.slice(thumb.lastIndexOf("/") + 1) : null,
  };
}
