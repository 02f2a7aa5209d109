// The v1 sunset (docs/sync.md), by moving the clock: no headers before SYNC_V1_DEPRECATED_AT,
// then Deprecation and Sunset on manifest and sync answers, then 410 SYNC_V1_SUNSET.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { createModuleApp } from "../../src/wiring/app.ts";
import { kbsModule } from "../../src/modules/library/kbs/index.ts";
import { createServices, routeServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { newKb, sha256, upsert } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

test("v1 manifest and sync: plain before 2026-09-01, Deprecation and Sunset from then, 410 SYNC_V1_SUNSET from 2027-03-01", async () => {
  const { deps } = await testContext();
  expect(deps.config).toMatchObject({ SYNC_V1_DEPRECATED_AT: "2026-09-01T00:00:00Z", SYNC_V1_SUNSET_AT: "2027-03-01T00:00:00Z" });
  const clock = stoppedClock(Date.parse("2026-08-31T23:59:59.000Z"));
  const services = createServices({ ...deps, clock });
  closers.push(() => services.close());
  const app = createModuleApp(services, kbsModule(routeServices(services)));
  const { key } = await makeClient();
  const kb = await newKb(key);
  const manifest = () => callJson("GET", `/v1/kbs/${kb.id}/manifest`, { token: key, app });
  let n = 0;
  const push = () => callJson("POST", `/v1/kbs/${kb.id}/sync`, { token: key, app, json: { ops: [upsert(`n${++n}.md`, "x")] } });

  for (const res of [await manifest(), await push()]) {
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBeNull();
    expect(res.headers.get("sunset")).toBeNull();
  }
  clock.advance(1000);
  for (const res of [await manifest(), await push()]) {
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBe("true");
    expect(res.headers.get("sunset")).toBe("Mon, 01 Mar 2027 00:00:00 GMT");
  }
  clock.advance(Date.parse("2027-02-28T23:59:59.999Z") - clock.nowMs());
  expect((await push()).headers.get("sunset")).toBe("Mon, 01 Mar 2027 00:00:00 GMT");
  clock.advance(1);
  for (const res of [await manifest(), await push()]) {
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ success: false, code: "SYNC_V1_SUNSET", meta: { sunset: "2027-03-01T00:00:00.000Z" } });
  }
  // What is not v1 sync goes on: the KB itself, and the text at a path.
  expect((await callJson("GET", `/v1/kbs/${kb.id}`, { token: key, app })).status).toBe(200);
  const raw = await app.handle(new Request(`http://shelf.test/v1/kbs/${kb.id}/raw?path=n1.md`, { headers: { authorization: `Bearer ${key}` } }));
  expect(raw.headers.get("x-source-hash")).toBe(sha256("x"));
});
