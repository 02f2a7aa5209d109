// The README's tables are generated from the code; this keeps them true.
import { expect, test } from "bun:test";
import { configTable, replaceBlock, scopeTable } from "../../scripts/readme-tables.ts";
import { call } from "../helpers/context.ts";

test("the README's configuration and scope tables match the code (bun scripts/readme-tables.ts --write)", async () => {
  const readme = await Bun.file(`${import.meta.dir}/../../README.md`).text();
  const doc = (await (await call("GET", "/swagger/json")).json()) as never;
  expect(replaceBlock(readme, "config-table", configTable())).toBe(readme);
  expect(replaceBlock(readme, "scope-table", scopeTable(doc))).toBe(readme);
});
