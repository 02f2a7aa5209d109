// Every relative link of the documentation leads somewhere: the file exists, and an
// #anchor names a heading of the page it points into (as a forge renders the page).
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const ROOT = resolve(import.meta.dir, "../..");
const PAGES = [
  "README.md",
  "CONTRIBUTING.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

/** The relative links of a Markdown page, outside code. */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l));
}

test("every relative link in the README, CONTRIBUTING and docs/ resolves to a file and a heading", async () => {
  const broken: string[] = [];
  for (const page of PAGES) {
    const text = await Bun.file(join(ROOT, page)).text();
    for (const link of linksOf(text)) {
      const [path, anchor] = link.split("#") as [string, string | undefined];
      const target = path ? resolve(dirname(join(ROOT, page)), path) : join(ROOT, page);
      if (!existsSync(target)) {
        broken.push(`${page}: ${link} (no file ${relative(ROOT, target)})`);
        continue;
      }
      if (anchor && target.endsWith(".md") && !anchorsOf(await Bun.file(target).text()).has(anchor)) {
        broken.push(`${page}: ${link} (no heading #${anchor} in ${relative(ROOT, target)})`);
      }
    }
  }
  expect(broken).toEqual([]);
});
