// The center's public surface: where the embeddable player's script and the dashboard's
// stylesheet are answered, for the pages of other modules that play a video with the one
// and show a note as the dashboard does with the other (a share link's page).
import { centerAssets } from "./assets.ts";

const assetPath = (centerUrl: string, name: string) => `${new URL(centerUrl).pathname.replace(/\/+$/, "")}/_center/${name}`;

/** The player script's path below the server's root, for a dashboard at `centerUrl`. */
export const embedScriptPath = (centerUrl: string) => assetPath(centerUrl, centerAssets.embed.name);

/** The dashboard's stylesheet's path (a note's look: callouts, tasks, footnotes). */
export const centerStylePath = (centerUrl: string) => assetPath(centerUrl, centerAssets.style.name);
