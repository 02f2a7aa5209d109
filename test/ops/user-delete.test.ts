// Deleting an account (shelf admin user delete): its rows and counters go in one
// transaction, its credentials stop working at once, and its stored objects are removed by
// the orphan sweep once older than the cutoff, not before.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { call, testContext } from "../helpers/context.ts";
import { adminCli } from "../helpers/admin-cli.ts";
import { makeClient } from "../helpers/factories.ts";
import { uploadedDoc } from "../documents/fixtures.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { closeWorlds, countersOf, stoppedWorld } from "../jobs/world.ts";
import { getUser } from "../../src/modules/identity/public.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

afterAll(closeWorlds);

test("user delete: rows, counters and credentials go at once; the sweep removes the objects after its cutoff", async () => {
  const { deps, config } = await testContext();
  const { user, key } = await makeClient({ plan: "pro" });
  const image = await uploaded(key, await png());
  await uploadedDoc(key, { filename: "big.md", content: `# Big\n\n${"word ".repeat(60_000)}` });
  expect((await uploadAudio(key, await fixture("mp3-cover"), "song.mp3")).status).toBe(201);
  const objects = async () => {
    const keys: string[] = [];
    for (const prefix of ["images", "docs", "audio"]) for await (const o of deps.storage.list(`${prefix}/${user.id}/`)) keys.push(o.key);
    return keys;
  };
  const stored = await objects();
  expect(stored.length).toBeGreaterThanOrEqual(5); // image + rendition, document, audio + cover
  expect(Object.keys(await countersOf(user.id)).length).toBeGreaterThan(0);

  // Permanent, so asked for by name.
  const refused = await adminCli("user", "delete", "--email", user.email);
  expect(refused.code).toBe(2);
  expect(refused.err.join("\n")).toContain("--yes");
  expect(await getUser(deps.db, user.id)).toBeDefined();

  const done = await adminCli("user", "delete", "--email", user.email, "--yes");
  expect(done.code).toBe(0);
  expect(done.out[0]).toContain("1 API keys");
  expect(await getUser(deps.db, user.id)).toBeUndefined();
  expect(await countersOf(user.id)).toEqual({});
  expect((await call("GET", `/v1/images/${image.id}`, { token: key })).status).toBe(401);
  expect((await adminCli("user", "delete", "--email", user.email, "--yes")).code).toBe(2);

  // The objects stay until they are older than the cutoff (the store's times are the wall clock's).
  const w = await stoppedWorld(Date.now());
  const sweep = () => w.runner.runNow("orphan-sweep");
  w.clock.advance(config.ORPHAN_SWEEP_AFTER_H * 3_600_000 - 10 * 60_000);
  expect((await sweep()).outcome).toBe("ok");
  expect((await objects()).sort()).toEqual(stored.sort());
  w.clock.advance(11 * 60_000);
  expect((await sweep()).counts).toMatchObject({ deleted: expect.any(Number) });
  expect(await objects()).toEqual([]);
});
