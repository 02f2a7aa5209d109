// The bounded LRU behind every in-process cache (src/infra/cache.ts): its weight bound, and
// which entry goes first when it is full.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Lru, TtlCache } from "../../src/infra/cache.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const keys = (lru: Lru<number>, all: string[]) => all.filter((k) => lru.get(k) !== undefined);

describe("Lru", () => {
  test("holds at most its weight, dropping the oldest entries first", () => {
    const lru = new Lru<number>(3);
    for (const k of ["a", "b", "c", "d", "e"]) lru.set(k, 1);
    expect(keys(lru, ["a", "b", "c", "d", "e"])).toEqual(["c", "d", "e"]);
  });

  test("weighs entries: a heavy one pushes out as many light ones as it must; one heavier than the bound is not kept", () => {
    const lru = new Lru<number>(10, (v) => v);
    lru.set("a", 4);
    lru.set("b", 4);
    lru.set("c", 5);
    expect(lru.get("a")).toBeUndefined();
    expect(lru.get("b")).toBe(4);
    expect(lru.get("c")).toBe(5);
    lru.set("huge", 11);
    expect(lru.get("huge")).toBeUndefined();
    expect(lru.get("b")).toBe(4);
  });

  test("an entry read while in the older half is kept over entries set after it", () => {
    const lru = new Lru<number>(4);
    for (const k of ["a", "b", "c", "d"]) lru.set(k, 1);
    expect(lru.get("a")).toBe(1); // the oldest: moved to the newest end
    lru.set("e", 1);
    lru.set("f", 1);
    expect(keys(lru, ["a", "b", "c", "d", "e", "f"])).toEqual(["a", "d", "e", "f"]);
  });

  test("a hot entry read on every step survives any number of newer entries", () => {
    const lru = new Lru<number>(8);
    lru.set("hot", 1);
    for (let i = 0; i < 1000; i++) {
      lru.set(`k${i}`, 1);
      expect(lru.get("hot")).toBe(1);
    }
  });

  test("set replaces an entry's value and weight; delete frees its weight", () => {
    const lru = new Lru<number>(10, (v) => v);
    lru.set("a", 6);
    lru.set("a", 2);
    lru.set("b", 8);
    expect([lru.get("a"), lru.get("b")]).toEqual([2, 8]);
    lru.delete("b");
    lru.set("c", 8);
    expect([lru.get("a"), lru.get("c")]).toEqual([2, 8]);
  });

  test("deleteWhere drops the matching entries only", () => {
    const lru = new Lru<number>(10);
    for (const [k, v] of [
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ] as const)
      lru.set(k, v);
    lru.deleteWhere((v) => v % 2 === 1);
    expect(keys(lru, ["a", "b", "c"])).toEqual(["b"]);
  });
});

describe("TtlCache", () => {
  test("serves an entry for CACHE_TTL_MS after it was set, then not; a cached null is told from a miss", () => {
    let now = 0;
    const cache = new TtlCache<string | null>(10, () => now);
    cache.set("a", null);
    expect(cache.get("a")?.v).toBeNull();
    expect(cache.get("b")).toBeUndefined();
    now = 4_999;
    expect(cache.get("a")?.v).toBeNull();
    now = 5_000;
    expect(cache.get("a")).toBeUndefined();
  });
});
