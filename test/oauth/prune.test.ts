import { expect, setDefaultTimeout, test } from "bun:test";
import { eq, inArray } from "drizzle-orm";
import { oauthAccessTokens, oauthDeviceAuthorizations, oauthGrants, oauthRefreshTokens } from "../../src/modules/oauth/table.ts";
import { oauthApp } from "./flow.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
const sha256 = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
const DAY = 86_400_000;

test("prune-oauth deletes device codes, tokens and grants a day past their end, and keeps what is live", async () => {
  const user = await o.makeUser();
  const pending = (await o.start()).body;
  const old = await o.tokensFor(user);
  const revoked = await o.tokensFor(user);
  expect((await o.call("POST", "/oauth/revoke", { app: o.app, body: new URLSearchParams({ token: revoked.refresh_token }) })).status).toBe(200);
  const grantOf = async (refreshToken: string) =>
    (
      await o.deps.db
        .select()
        .from(oauthRefreshTokens)
        .where(eq(oauthRefreshTokens.tokenHash, sha256(refreshToken)))
    )[0]?.grantId;
  const oldGrant = (await grantOf(old.refresh_token))!;
  const revokedGrant = (await grantOf(revoked.refresh_token))!;

  o.clock.advance(2 * DAY);
  const kept = await o.tokensFor(await o.makeUser());
  const keptGrant = (await grantOf(kept.refresh_token))!;
  let run = await o.services.runner.runNow("prune-oauth");
  expect(run.outcome).toBe("ok");
  // Two days on: the device codes and the first access tokens are gone, the revoked grant too; the old grant lives on its refresh token.
  expect(
    await o.deps.db
      .select()
      .from(oauthDeviceAuthorizations)
      .where(eq(oauthDeviceAuthorizations.deviceCodeHash, sha256(pending.device_code))),
  ).toEqual([]);
  expect(
    await o.deps.db
      .select()
      .from(oauthAccessTokens)
      .where(eq(oauthAccessTokens.tokenHash, sha256(old.access_token))),
  ).toEqual([]);
  expect(
    (
      await o.deps.db
        .select()
        .from(oauthGrants)
        .where(inArray(oauthGrants.id, [oldGrant, revokedGrant, keptGrant]))
    )
      .map((g) => g.id)
      .sort(),
  ).toEqual([oldGrant, keptGrant].sort());
  expect((await o.refresh(old.refresh_token)).status).toBe(200);

  o.clock.advance(31 * DAY);
  const fresh = await o.tokensFor(await o.makeUser());
  run = await o.services.runner.runNow("prune-oauth");
  expect(run.outcome).toBe("ok");
  const left = await o.deps.db
    .select()
    .from(oauthGrants)
    .where(inArray(oauthGrants.id, [oldGrant, keptGrant, (await grantOf(fresh.refresh_token))!]));
  expect(left.map((g) => g.id)).toEqual([(await grantOf(fresh.refresh_token))!]);
  expect((await o.api("GET", "/v1/images", fresh.access_token)).status).toBe(200);
});
