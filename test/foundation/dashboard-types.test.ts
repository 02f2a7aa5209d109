// The dashboard's API types are the server's OpenAPI document's (scripts/dashboard-types.ts):
// a route or field that changes fails here until the types are made again, and then the
// dashboard's type-check (bun run typecheck) says which screen reads it wrong.
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { dashboardTypes, TYPES_FILE } from "../../scripts/dashboard-types.ts";
import { call } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

test("dashboard/api.gen.ts is the types of the document the server serves (bun scripts/dashboard-types.ts --write)", async () => {
  const doc = (await (await call("GET", "/swagger/json")).json()) as object;
  const committed = await Bun.file(join(import.meta.dir, "../..", TYPES_FILE)).text();
  expect(committed === (await dashboardTypes(doc))).toBe(true);
});
