// Names hold no invisible characters (text.ts): zero-width and other format characters,
// U+2028 and U+2029 are refused (422) in JSON names and stripped from upload file names,
// as control and bidi characters are. A joiner that shapes its script's letters, and in
// titles and tags a joiner between emoji and the tags of a subdivision flag, stay.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { callJson } from "../helpers/context.ts";
import { makeClient, makeUser } from "../helpers/factories.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2028", "\u2029", "\u00ad", "\u2060", "\u2063", "\ufeff", "\u180e", "\u{e0041}", "\u{1d173}"];
const hex = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`;

describe("JSON names refuse invisible characters with 422", () => {
  test("a nickname, a key name and a KB name with one are 422 VALIDATION_ERROR naming the field, and nothing changes", async () => {
    const u = await makeUser();
    for (const c of INVISIBLE) {
      const me = await callJson("PATCH", "/v1/user/me", { token: u.jwt, json: { nickname: `Ad${c}a` } });
      expect([hex(c), me.status]).toEqual([hex(c), 422]);
      expect(me.body).toMatchObject({ code: "VALIDATION_ERROR", meta: { path: "body.nickname" } });
      const key = await callJson("POST", "/v1/api-keys", { token: u.jwt, json: { name: `deploy${c}` } });
      expect([hex(c), key.status, key.body.meta?.path]).toEqual([hex(c), 422, "body.name"]);
      expect(key.body.error).toContain("name must not contain invisible characters");
      const kb = await callJson("POST", "/v1/kbs", { token: u.jwt, json: { name: `Notes${c}` } });
      expect([hex(c), kb.status, kb.body.meta?.path]).toEqual([hex(c), 422, "body.name"]);
    }
    expect((await callJson("GET", "/v1/user/me", { token: u.jwt })).body.data.nickname).toBeNull();
    expect((await callJson("GET", "/v1/api-keys", { token: u.jwt })).body.data.items).toEqual([]);
  });

  test("an image's file name or tag with U+200B is 422 in PATCH", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, await png(), { filename: "plain.png" });
    expect((await callJson("PATCH", `/v1/images/${d.id}`, { token: key, json: { filename: "pla\u200bin.png" } })).body.meta.path).toBe("body.filename");
    expect((await callJson("PATCH", `/v1/images/${d.id}`, { token: key, json: { tags: ["ok", "x\ufeff"] } })).body.meta.path).toBe("body.tags.1");
  });

  test("emoji sequences with joiners and a subdivision flag, and Persian and Devanagari joiners, are accepted", async () => {
    const { user, key } = await makeClient();
    const nickname = "می\u200cخواهم क्\u200dष";
    const me = await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { nickname } });
    expect(me.status).toBe(200);
    expect(me.body.data.nickname).toBe(nickname);
    const d = await uploaded(key, await png());
    const tags = ["👨\u200d👩\u200d👧", "🏳️\u200d🌈", "🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}"];
    const res = await callJson("PATCH", `/v1/images/${d.id}`, { token: key, json: { filename: "🧑\u200d⚕️ visit.png", tags } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ filename: "🧑\u200d⚕️ visit.png", tags });
    // A tag character with no flag before it is not a flag's.
    expect((await callJson("PATCH", `/v1/images/${d.id}`, { token: key, json: { tags: ["hi\u{e0067}"] } })).status).toBe(422);
    // A joiner between letters of a script that does not join is refused there too.
    expect((await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { nickname: "Shelf\u200dSync" } })).status).toBe(422);
  });
});

describe("upload file names have them stripped", () => {
  test("every invisible character is stripped from an upload's file name; an emoji sequence is kept whole", async () => {
    const { key } = await makeClient();
    // Not U+2028 and U+2029: the multipart parser ends a header's quoted value at them before the name reaches the rule.
    const inHeader = INVISIBLE.filter((c) => c !== "\u2028" && c !== "\u2029");
    const d = await uploaded(key, await png(), { filename: `a${inHeader.join("")}b.png` });
    expect(d.filename).toBe("ab.png");
    const e = await uploaded(key, await png(), { filename: "❤️\u200d🔥.png" });
    expect(e.filename).toBe("❤️\u200d🔥.png");
  });
});
