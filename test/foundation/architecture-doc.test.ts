// docs/architecture.md stays current: its module table names every folder of src/modules,
// and its diagram's arrows between modules are the imports the code has, no more, no less.
// A module added, or an import that makes a new arrow (or drops one), fails here until the
// page says so.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const ROOT = resolve(import.meta.dir, "../..");
const MODULES = join(ROOT, "src/modules");
const modules = readdirSync(MODULES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
const page = await Bun.file(join(ROOT, "docs/architecture.md")).text();

/** "from -> to" for every module whose files import another's (types included, as the folder-level cycle check counts them). */
async function importEdges(): Promise<string[]> {
  const edges = new Set<string>();
  for (const from of modules) {
    for (const file of new Bun.Glob("**/*.ts").scanSync(join(MODULES, from))) {
      const path = join(MODULES, from, file);
      const text = await Bun.file(path).text();
      for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.[^"']+)["']/g)) {
        const to = /^([^/]+)\//.exec(relative(MODULES, resolve(dirname(path), m[1]!)))?.[1];
        if (to && to !== from && modules.includes(to)) edges.add(`${from} -> ${to}`);
      }
    }
  }
  return [...edges].sort();
}

/** "from -> to" for every arrow of the page's Mermaid diagram between two modules (`a & b --> c & d`). */
function diagramEdges(): string[] {
  const diagram = /```mermaid\n([\s\S]*?)```/.exec(page)?.[1] ?? "";
  const edges = new Set<string>();
  for (const line of diagram.split("\n")) {
    const m = /^\s*([\w& -]+?)\s*-->\s*([\w& -]+?)\s*$/.exec(line);
    if (!m) continue;
    const names = (side: string) => side.split("&").map((n) => n.trim());
    for (const from of names(m[1]!)) {
      for (const to of names(m[2]!)) if (modules.includes(from) && modules.includes(to)) edges.add(`${from} -> ${to}`);
    }
  }
  return [...edges].sort();
}

test("the module table of docs/architecture.md names every folder of src/modules, and only those", () => {
  const listed = [...page.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]!).sort();
  expect(listed).toEqual(modules);
});

test("the diagram of docs/architecture.md has an arrow for each import between modules, and no other", async () => {
  const drawn = diagramEdges();
  const imported = await importEdges();
  expect({ missingFromDiagram: imported.filter((e) => !drawn.includes(e)), notImported: drawn.filter((e) => !imported.includes(e)) }).toEqual({
    missingFromDiagram: [],
    notImported: [],
  });
  expect(drawn.length).toBeGreaterThan(10);
});
