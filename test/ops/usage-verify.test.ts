// usage verify: every all-time counter equals the sum of its rows. A counter corrupted on
// purpose is found, --fix sets it to the sum, and a second verify is clean; the operator's
// job list, run and usage commands answer under their new and their old spellings.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { adminCli } from "../helpers/admin-cli.ts";
import { call } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { uploadedDoc } from "../documents/fixtures.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { countersOf, setCounter } from "../jobs/world.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const admin = adminCli;

describe("shelf admin usage verify", () => {
  test("finds counters that differ from their rows, --fix sets them to the sum, and verify is clean again", async () => {
    const { user, key } = await makeClient();
    const image = await uploaded(key, await png());
    await uploadedDoc(key);
    await uploadedDoc(key, { filename: "big.md", content: `# Big\n\n${"word ".repeat(60_000)}` });
    const before = await countersOf(user.id);
    expect((await admin("usage", "verify", "--email", user.email)).code).toBe(0);

    await setCounter(user.id, "total", "img_storage", 5);
    await setCounter(user.id, "total", "doc_count", 9);
    await setCounter(user.id, "total", "media_storage", 77);
    const found = await admin("usage", "verify", "--email", user.email);
    expect(found.code).toBe(1);
    expect(found.out).toContain(`${user.id} img_storage: counter 5, rows ${before["total:img_storage"]}`);
    expect(found.out).toContain(`${user.id} doc_count: counter 9, rows 2`);
    expect(found.out).toContain(`${user.id} media_storage: counter 77, rows 0`);
    expect(found.out.at(-1)).toBe("1 users, 3 counters differ from their rows");
    expect(await countersOf(user.id)).toMatchObject({ "total:img_storage": 5, "total:doc_count": 9 }); // verify alone changes nothing

    const fixed = await admin("usage", "verify", "--fix", "--email", user.email);
    expect(fixed.code).toBe(0);
    expect(fixed.out.at(-1)).toBe("1 users, 3 counters fixed");
    expect(await countersOf(user.id)).toMatchObject({
      "total:img_storage": before["total:img_storage"]!,
      "total:doc_count": 2,
      "total:image_count": 1,
      "total:media_storage": 0,
    });
    expect((await admin("usage", "verify", "--email", user.email)).out.at(-1)).toBe("1 users, 0 counters differ from their rows");

    // The repaired counters are what the API reports and what deletes give back from.
    expect((await call("DELETE", `/v1/images/${image.id}`, { token: user.jwt })).status).toBeLessThan(300);
    expect((await admin("usage", "verify", "--email", user.email)).code).toBe(0);
  });

  test("an unknown email is a usage error", async () => {
    const res = await admin("usage", "verify", "--email", "nobody-at-all@example.test");
    expect(res.code).toBe(2);
    expect(res.err[0]).toContain("no user");
  });
});

describe("shelf admin jobs", () => {
  test("`jobs` and `jobs list` list every job with its schedule and last run; `job run` and `jobs run` run one and print its counts", async () => {
    for (const spelling of [["jobs"], ["jobs", "list"]]) {
      const listed = await admin(...spelling);
      expect(listed.code).toBe(0);
      for (const name of ["month-rollover", "orphan-sweep", "usage-verify", "prune-oauth", "conflict-branches"]) {
        expect(listed.out.some((l) => l.startsWith(name))).toBe(true);
      }
      expect(listed.out.find((l) => l.startsWith("month-rollover"))).toContain("5 0 1 * *");
    }
    for (const spelling of [
      ["job", "run"],
      ["jobs", "run"],
    ]) {
      const ran = await admin(...spelling, "prune-job-runs");
      expect(ran.code).toBe(0);
      expect(ran.out[0]).toMatch(/^prune-job-runs: ok \(deleted \d+ run records\)$/);
      expect(JSON.parse(ran.out[1]!)).toEqual({ deleted: expect.any(Number) });
    }
    expect((await admin("jobs")).out.find((l) => l.startsWith("prune-job-runs"))).toMatch(/ok at .*: deleted \d+ run records/);
    expect((await admin("job", "run", "no-such-job")).code).toBe(2);
    expect((await admin("job", "run")).err[0]).toContain("job run NAME");
  });
});
