// A public audio file as a page that embeds it describes it (oEmbed): its title and cover.
// Nothing of a private one.
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import { thumbnailUrl } from "./edge-resolver.ts";
import { MIME } from "./formats.ts";
import { getAudio } from "./service.ts";

export interface AudioCard {
  title: string;
  thumbnailUrl: string;
}

export async function publicAudioCard(deps: Pick<Deps, "db" | "config">, id: string): Promise<AudioCard | null> {
  const row = await getAudio(deps.db, { id }).catch((e: unknown) => {
    if (e instanceof AppError && e.code === "NOT_FOUND") return null;
    throw e;
  });
  return row ? { title: row.title, thumbnailUrl: thumbnailUrl(deps.config.MEDIA_URL, row.id, row.coverKey !== null) } : null;
}

/** The owner's audio file as a share link's page shows it, public or not: its paths below MEDIA_URL. */
export interface OwnedAudioCard {
  id: string;
  title: string;
  /** a/<id>.<ext> */
  file: string;
  contentType: string;
  /** a/<id>/cover.jpg, or the format's default picture (cover.svg). */
  cover: string;
}

export async function ownedAudioCard(deps: Pick<Deps, "db">, ownerId: string, id: string): Promise<OwnedAudioCard | null> {
  const row = await getAudio(deps.db, { userId: ownerId, id }).catch((e: unknown) => {
    if (e instanceof AppError && e.code === "NOT_FOUND") return null;
    throw e;
  });
  if (!row || row.ownerId !== ownerId) return null;
  return {
    id: row.id,
    title: row.title,
    file: `a/${row.id}.${row.format}`,
    contentType: MIME[row.format],
    cover: `a/${row.id}/cover.${row.coverKey ? "jpg" : "svg"}`,
  };
}
