// No module fills another's slot. A module that hands another its functions through a
// variable set by a side-effect import (kbs once filled documents' "KB side" that way)
// makes a dependency no import rule sees: the arrow runs backwards in the code's behaviour
// and forwards in its imports. So, in src/modules: no import of a file for its side effect
// alone, and no exported mutable binding.
//   bun scripts/module-slots.ts     prints each place; exit 1 when there is one
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SIDE_EFFECT_IMPORT = /^\s*import\s+["'][^"']+["'];?\s*$/m;
const EXPORTED_LET = /^\s*export\s+let\s/m;

/** Why `text` (a module file) could fill a slot: the lines that break the rule. */
export function slotFaults(text: string): string[] {
  const faults: string[] = [];
  text.split("\n").forEach((line, i) => {
    if (SIDE_EFFECT_IMPORT.test(line)) faults.push(`line ${i + 1}: an import for its side effect alone: ${line.trim()}`);
    if (EXPORTED_LET.test(line)) faults.push(`line ${i + 1}: an exported mutable binding: ${line.trim()}`);
  });
  return faults;
}

export function moduleSlotFaults(root: string): string[] {
  const dir = join(root, "src/modules");
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
  return files.flatMap((f) => slotFaults(readFileSync(join(dir, f), "utf8")).map((fault) => `${relative(root, join(dir, f))} ${fault}`));
}

if (import.meta.main) {
  const faults = moduleSlotFaults(join(import.meta.dir, ".."));
  if (faults.length) {
    console.error(`module-slots: a module may not fill another's slot (scripts/module-slots.ts):\n${faults.join("\n")}`);
    process.exit(1);
  }
  console.log("module-slots: no module fills another's slot");
}
