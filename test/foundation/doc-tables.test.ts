// The documentation's tables are generated from the code; this keeps them true.
import { expect, setDefaultTimeout, test } from "bun:test";
import { configTable, errorTable, replaceBlock, scopeTable, TABLE_PAGES } from "../../scripts/doc-tables.ts";
import { call } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const page = (path: string) => Bun.file(`${import.meta.dir}/../../${path}`).text();

test("the configuration, scope and error tables of the docs match the code (bun scripts/doc-tables.ts --write)", async () => {
  const doc = (await (await call("GET", "/swagger/json")).json()) as never;
  const operators = await page(TABLE_PAGES["config-table"]);
  expect(replaceBlock(operators, "config-table", configTable())).toBe(operators);
  const api = await page(TABLE_PAGES["scope-table"]);
  expect(replaceBlock(api, "scope-table", scopeTable(doc))).toBe(api);
  expect(replaceBlock(api, "error-table", errorTable())).toBe(api);
});
