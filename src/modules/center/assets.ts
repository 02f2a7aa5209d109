// The dashboard's embedded files, addressed by their content hash so a browser may keep
// them for a year: a new build is a new path. The entry script is named by its own hash
// (which covers the chunk names it imports, themselves named by the bundler's content hash).
import { createHash } from "node:crypto";
import { bundleCenter } from "./bundle.ts" with { type: "macro" };

const { entry, embed, chunks, css } = bundleCenter();

const hash = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 12);

export interface CenterAsset {
  name: string;
  body: string;
  type: string;
}

const JS = "text/javascript; charset=utf-8";

export const centerAssets: { script: CenterAsset; embed: CenterAsset; style: CenterAsset; chunks: CenterAsset[] } = {
  script: { name: `center.${hash(entry)}.js`, body: entry, type: JS },
  embed: { name: `embed.${hash(embed)}.js`, body: embed, type: JS },
  style: { name: `center.${hash(css)}.css`, body: css, type: "text/css; charset=utf-8" },
  chunks: Object.entries(chunks).map(([name, body]) => ({ name, body, type: JS })),
};
