// An images list's total is the ledger's image_count: moved by uploads and deletes in
// their own transactions, and left out of the usage resource.
import { expect, setDefaultTimeout, test } from "bun:test";
import { call, callJson } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { png, uploaded } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const smallPng = await png(8, 8);

test("total counts uploads, gives deletes (to the trash) back, and the usage resource does not show the count", async () => {
  const { key, user } = await makeClient();
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push((await uploaded(key, smallPng)).id);
  expect((await callJson("GET", "/v1/images?limit=1", { token: key })).body.data.total).toBe(3);

  expect((await call("DELETE", `/v1/images/${ids[0]}`, { token: user.jwt })).status).toBe(204);
  // A second delete of the same image is a 404 and gives nothing back twice.
  expect((await call("DELETE", `/v1/images/${ids[0]}`, { token: user.jwt })).status).toBe(404);
  expect((await callJson("GET", "/v1/images?limit=1", { token: key })).body.data.total).toBe(2);

  const usage = await callJson("GET", "/v1/user/me/usage", { token: user.jwt });
  expect(usage.status).toBe(200);
  expect(JSON.stringify(usage.body.data)).not.toMatch(/image_?count/i);
});
