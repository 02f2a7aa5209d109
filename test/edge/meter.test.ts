// The edge's bandwidth meter on its own: what a node served is tallied in the process and
// written to the kv hashes as one HINCRBY per dimension, day and owner at each flush, and a
// write the kv refuses is kept for the next flush rather than lost.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Kv } from "../../src/infra/kv/index.ts";
import { BANDWIDTH_HASHES, createMeter } from "../../src/modules/edge/meter.ts";
import { captureLog } from "../helpers/log-capture.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

/** A kv that records each HINCRBY, refusing the ones `refuse` names while it says so. */
function recordingKv(refuse: (field: string) => boolean = () => false) {
  const written: { hash: string; field: string; by: number }[] = [];
  const kv = {
    hincrby: async (hash: string, field: string, by: number) => {
      if (refuse(field)) throw new Error("kv unavailable");
      written.push({ hash, field, by });
    },
  } as unknown as Kv;
  return { kv, written };
}

describe("the edge's bandwidth meter", () => {
  test("one write per dimension, day and owner, with the bytes of every hit in it", async () => {
    const { kv, written } = recordingKv();
    const meter = createMeter(kv, captureLog().log);
    try {
      meter.add("image_bandwidth", "2026-11-27", "alice", 100);
      meter.add("image_bandwidth", "2026-11-27", "alice", 250);
      meter.add("image_bandwidth", "2026-11-27", "bob", 7);
      meter.add("image_bandwidth", "2026-11-28", "alice", 1);
      meter.add("media_bandwidth", "2026-11-27", "alice", 4000);
      meter.add("media_bandwidth", "2026-11-27", "alice", 0);
      await meter.flush();
      expect(written.sort((a, b) => `${a.hash}${a.field}`.localeCompare(`${b.hash}${b.field}`))).toEqual([
        { hash: BANDWIDTH_HASHES.image_bandwidth, field: "2026-11-27:alice", by: 350 },
        { hash: BANDWIDTH_HASHES.image_bandwidth, field: "2026-11-27:bob", by: 7 },
        { hash: BANDWIDTH_HASHES.image_bandwidth, field: "2026-11-28:alice", by: 1 },
        { hash: BANDWIDTH_HASHES.media_bandwidth, field: "2026-11-27:alice", by: 4000 },
      ]);
      // Flushed tallies start again from nothing.
      await meter.flush();
      expect(written).toHaveLength(4);
    } finally {
      await meter.close();
    }
  });

  test("a write the kv refuses is kept, with what is served meanwhile, for the next flush", async () => {
    let down = true;
    const { kv, written } = recordingKv((field) => down && field.endsWith(":alice"));
    const captured = captureLog();
    const meter = createMeter(kv, captured.log);
    try {
      meter.add("image_bandwidth", "2026-11-27", "alice", 300);
      meter.add("image_bandwidth", "2026-11-27", "bob", 5);
      await meter.flush();
      expect(written).toEqual([{ hash: BANDWIDTH_HASHES.image_bandwidth, field: "2026-11-27:bob", by: 5 }]);
      expect(captured.lines.some((l) => l.level === "warn" && l.msg === "bandwidth flush failed; retrying later")).toBe(true);
      down = false;
      meter.add("image_bandwidth", "2026-11-27", "alice", 20);
      await meter.close();
      expect(written.slice(1)).toEqual([{ hash: BANDWIDTH_HASHES.image_bandwidth, field: "2026-11-27:alice", by: 320 }]);
    } finally {
      await meter.close();
    }
  });
});
