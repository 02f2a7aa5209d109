// The center's public surface: where the embeddable player's script is answered, for the
// pages of other modules that play a video with it (a share link's page).
import { centerAssets } from "./assets.ts";

/** The player script's path below the server's root, for a dashboard at `centerUrl`. */
export const embedScriptPath = (centerUrl: string) => `${new URL(centerUrl).pathname.replace(/\/+$/, "")}/_center/${centerAssets.embed.name}`;
