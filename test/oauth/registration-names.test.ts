// A registered client's name is what users decide to trust it by: look-alikes that mix
// scripts ("Shеlf Sync" with a Cyrillic е) and names with invisible characters are refused
// at registration with RFC 7591's invalid_client_metadata; names in one script, or Latin
// with Han, Kana or Hangul, are not.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { oauthClients } from "../../src/modules/oauth/table.ts";
import { oauthApp } from "./flow.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();

const register = (clientName: string) =>
  o
    .call("POST", "/oauth/register", {
      app: o.app,
      json: { client_name: clientName, grant_types: ["urn:ietf:params:oauth:grant-type:device_code"] },
      headers: { "x-forwarded-for": o.ip() },
    })
    .then(async (res) => ({ status: res.status, headers: res.headers, body: await res.json() }));

async function expectRefused(clientName: string, says: string) {
  const res = await register(clientName);
  expect([clientName, res.status]).toEqual([clientName, 400]);
  expect(res.body.error).toBe("invalid_client_metadata");
  expect(res.body.error_description).toContain(says);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(await o.deps.db.select().from(oauthClients).where(eq(oauthClients.name, clientName))).toEqual([]);
}

describe("client_name at POST /oauth/register", () => {
  test("a name that mixes scripts is refused: Latin with a Cyrillic or Greek look-alike letter, Cherokee in Latin", async () => {
    for (const name of ["Sh\u0435lf Sync", "\u0405helf Sync", "Shelf Sy\u03bdc", "\u13dahelf Sync", "Notes \u0410pp"]) await expectRefused(name, "mix scripts");
  });

  test("a name with an invisible character is refused: zero-width, joiners (between emoji too), soft hyphen, word joiner, BOM, separators, tags", async () => {
    for (const c of ["\u200b", "\u200c", "\u200d", "\u00ad", "\u2060", "\u2064", "\ufeff", "\u2028", "\u2029", "\u180e", "\u{e0041}"]) {
      await expectRefused(`Shelf${c}Sync`, "invisible");
    }
    await expectRefused("Notes 👨\u200d👩\u200d👧", "invisible");
  });

  test("names in one script, or Latin with Han, Kana or Hangul, are registered as given", async () => {
    for (const name of [
      "Shelf Sync 2",
      "メモ帳",
      "メモ帳 Sync",
      "東京 Notes",
      "노트 Notes",
      "Σημειώσεις",
      "Заметки",
      "ملاحظات",
      "یادداشت\u200cها",
      "नोट्स",
      "Notes ✨ (beta)",
      "Café Crème",
    ]) {
      const res = await register(name);
      expect([name, res.status]).toEqual([name, 201]);
      expect(res.body.client_name).toBe(name);
    }
  });
});
