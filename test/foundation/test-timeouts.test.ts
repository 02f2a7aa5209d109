// Every test file sets its own time limit (test/helpers/timeout.ts says why): a file that
// leaves it to the preload runs on Bun's 5 s whenever it is not the first file of a run,
// and fails on a busy machine for no fault of the code it tests.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const TEST_DIR = join(import.meta.dir, "..");

test("every test file sets the default timeout at its top level", () => {
  const files = readdirSync(TEST_DIR, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".test.ts"));
  expect(files.length).toBeGreaterThan(200);
  const without = files.filter((f) => !/^setDefaultTimeout\(/m.test(readFileSync(join(TEST_DIR, f), "utf8")));
  expect(without).toEqual([]);
});
