// The dashboard's two embedded files, addressed by their content hash so a browser may keep
// them for a year: a new build is a new path.
import { createHash } from "node:crypto";
import { bundleCenter } from "./bundle.ts" with { type: "macro" };

const { js, css } = bundleCenter();

const hash = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 12);

export const centerAssets = {
  script: { name: `center.${hash(js)}.js`, body: js, type: "text/javascript; charset=utf-8" },
  style: { name: `center.${hash(css)}.css`, body: css, type: "text/css; charset=utf-8" },
};
