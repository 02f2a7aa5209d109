// `shelf sync` against a server whose sync-op bucket runs out: the refused push applied
// nothing and its 429 says when to come back, so the client waits that long (its waits are
// the test's: they move the server's stopped clock) and sends the same push again.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { buildPlans } from "../../src/modules/identity/public.ts";
import { createApp } from "../../src/wiring/app.ts";
import { syncCommand } from "../../clients/sync/index.ts";
import { createServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { callJson, tempDir, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { newKb } from "../kbs/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

test("a push refused by the sync-op bucket is sent again after its Retry-After, and the sync completes", async () => {
  const { deps } = await testContext();
  const clock = stoppedClock(deps.clock.nowMs());
  const services = createServices({ ...deps, clock, plans: buildPlans({ trial: { syncOpBurst: 3, syncOpRefillPerMinute: 6 } }) });
  afterAll(() => services.close());
  const app = createApp(services);
  const { key } = await makeClient();
  const kb = await newKb(key);
  const folder = tempDir("shelf-sync-wait-");
  const sleeps: number[] = [];
  const sync = () =>
    syncCommand([folder, "--kb", kb.slug, "--server", "http://shelf.test"], {
      env: { SHELF_API_KEY: key, SHELF_CONFIG_DIR: tempDir("shelf-config-") },
      out: () => {},
      err: () => {},
      send: (request) => app.handle(request),
      sleep: async (ms) => {
        sleeps.push(ms);
        clock.advance(ms);
      },
    });

  await Bun.write(join(folder, "a.md"), "a\n");
  await Bun.write(join(folder, "b.md"), "b\n");
  expect(await sync()).toBe(0);
  expect(sleeps).toEqual([]);
  // Two more ops with one token left: one more at 6 a minute is 10 s away.
  await Bun.write(join(folder, "c.md"), "c\n");
  await Bun.write(join(folder, "d.md"), "d\n");
  expect(await sync()).toBe(0);
  expect(sleeps).toEqual([10_000]);
  const manifest = await callJson("GET", `/v1/kbs/${kb.id}/manifest`, { token: key });
  expect(manifest.body.data.items.map((i: { relativePath: string }) => i.relativePath).sort()).toEqual(["a.md", "b.md", "c.md", "d.md"]);
});
