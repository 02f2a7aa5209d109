// Modules depend one way: no two import each other, directly or through a third.
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { moduleCycles, moduleGraph } from "../../scripts/module-cycles.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const cruise = (edges: [string, string][]) => ({
  modules: [...new Set(edges.flat())].map((m) => ({
    source: `src/modules/${m}/index.ts`,
    dependencies: edges.filter(([from]) => from === m).map(([, to]) => ({ resolved: `src/modules/${to}/public.ts` })),
  })),
});

test("the check finds two modules that import each other, and a cycle through a third", () => {
  expect(
    moduleCycles(
      moduleGraph(
        cruise([
          ["a", "b"],
          ["b", "a"],
          ["c", "a"],
        ]),
      ),
    ),
  ).toEqual([["a", "b"]]);
  expect(
    moduleCycles(
      moduleGraph(
        cruise([
          ["a", "b"],
          ["b", "c"],
          ["c", "a"],
          ["d", "a"],
        ]),
      ),
    ),
  ).toEqual([["a", "b", "c"]]);
  expect(
    moduleCycles(
      moduleGraph(
        cruise([
          ["a", "b"],
          ["b", "c"],
          ["a", "c"],
        ]),
      ),
    ),
  ).toEqual([]);
});

test("the modules of src/modules depend one way (bun scripts/module-cycles.ts)", () => {
  const run = Bun.spawnSync(["bun", "--bun", "depcruise", "src", "jobs", "--config", ".dependency-cruiser.cjs", "--output-type", "json"], {
    cwd: join(import.meta.dir, "../.."),
  });
  const graph = moduleGraph(JSON.parse(run.stdout.toString()));
  // The graph is the real one: the library builds on images, media on audio and videos.
  expect(graph.get("library")?.has("images")).toBe(true);
  expect(graph.get("media")?.has("videos")).toBe(true);
  expect(moduleCycles(graph)).toEqual([]);
}, 60_000); // dependency-cruiser reads every source file: a second alone, several on a busy machine
