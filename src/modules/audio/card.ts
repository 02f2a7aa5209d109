// A public audio file as a page that embeds it describes it (oEmbed): its title and cover.
// Nothing of a private one.
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import { thumbnailUrl } from "./edge-resolver.ts";
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
