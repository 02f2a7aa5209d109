// The benchmark gate's comparison (bench/gate-check.ts): given the recorded CPU-per-request
// ratios and measured ones, it passes a ratio down to its recorded value less the margin and
// fails one below that. The benchmarks themselves are never run by a test.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { judge, failed } from "../../bench/gate-check.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const recorded = { list: 0.8, edge: 0.5, manifest: 1.0 };

describe("the benchmark gate's comparison", () => {
  test("ratios at, above, or less than the margin below their recorded ones pass", () => {
    const v = judge(recorded, { list: 0.8, edge: 0.6, manifest: 0.86 }, 0.15);
    expect(failed(v)).toEqual([]);
    expect(v.find((x) => x.name === "manifest")!.floor).toBeCloseTo(0.85, 10);
  });

  test("a ratio more than the margin below its recorded one fails, and only that one", () => {
    const v = judge(recorded, { list: 0.67, edge: 0.5, manifest: 1.1 }, 0.15);
    expect(failed(v)).toEqual(["list"]);
    expect(v.find((x) => x.name === "list")!.why).toContain("16% under");
  });

  test("the floor is exactly recorded * (1 - margin): just under it fails, on it passes", () => {
    expect(failed(judge({ a: 1 }, { a: 0.9 }, 0.1))).toEqual([]);
    expect(failed(judge({ a: 1 }, { a: 0.8999 }, 0.1))).toEqual(["a"]);
    expect(failed(judge({ a: 1 }, { a: 0.9999 }, 0))).toEqual(["a"]);
  });

  test("a recorded comparison that was not measured fails; a new one passes until recorded", () => {
    const v = judge({ list: 0.8, gone: 0.5 }, { list: 0.8, fresh: 0.3 }, 0.15);
    expect(failed(v)).toEqual(["gone"]);
    expect(v.find((x) => x.name === "fresh")!.ok).toBe(true);
  });

  test("a measurement that is not a positive number fails", () => {
    expect(failed(judge({ a: 1, b: 1 }, { a: Number.NaN, b: 0 }, 0.15))).toEqual(["a", "b"]);
  });

  test("a margin outside 0 to 1 is refused", () => {
    expect(() => judge(recorded, recorded, 1)).toThrow();
    expect(() => judge(recorded, recorded, -0.1)).toThrow();
  });
});
