// No two modules depend on each other, directly or through a third: the import graph of
// src/modules/* folders (any file of one importing any file of another, types included)
// has no cycle. dependency-cruiser's no-circular rule sees files, not folders, so `bun run
// lint` runs this on its JSON output.
//   bun scripts/module-cycles.ts     prints each cycle; exit 1 when there is one

/** Module folder -> the module folders its files import. */
export type ModuleGraph = Map<string, Set<string>>;

const moduleOf = (path: string) => /^src\/modules\/([^/]+)\//.exec(path)?.[1];

export function moduleGraph(cruise: { modules: { source: string; dependencies: { resolved: string }[] }[] }): ModuleGraph {
  const graph: ModuleGraph = new Map();
  for (const m of cruise.modules) {
    const from = moduleOf(m.source);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const d of m.dependencies) {
      const to = moduleOf(d.resolved);
      if (to && to !== from) graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** The groups of modules that reach each other (Tarjan's strongly connected components of more than one). */
export function moduleCycles(graph: ModuleGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

if (import.meta.main) {
  const run = Bun.spawnSync(["bun", "--bun", "depcruise", "src", "jobs", "--config", ".dependency-cruiser.cjs", "--output-type", "json"], {
    stderr: "inherit",
  });
  const cycles = moduleCycles(moduleGraph(JSON.parse(run.stdout.toString())));
  for (const c of cycles) console.error(`modules that depend on each other: ${c.join(" <-> ")}`);
  if (!cycles.length) console.log("module-cycles: no two modules depend on each other");
  process.exit(cycles.length ? 1 : 0);
}
