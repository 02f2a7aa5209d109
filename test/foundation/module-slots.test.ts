// No module fills another's slot (scripts/module-slots.ts): the rule finds the two ways a
// module hands another its functions behind the import graph's back, and src/modules has none.
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { moduleSlotFaults, slotFaults } from "../../scripts/module-slots.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

test("a side-effect import and an exported mutable binding are found; an ordinary import is not", () => {
  expect(slotFaults('import "./kb-side.ts";\nimport { a } from "./a.ts";\nexport let provided = 1;\nexport const b = 2;')).toEqual([
    'line 1: an import for its side effect alone: import "./kb-side.ts";',
    "line 3: an exported mutable binding: export let provided = 1;",
  ]);
});

test("no module of src/modules fills another's slot", () => {
  expect(moduleSlotFaults(join(import.meta.dir, "../.."))).toEqual([]);
});
