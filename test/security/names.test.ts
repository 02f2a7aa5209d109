// Names (nicknames, key names, image file names, tags) hold no control characters and no
// bidi controls: refused (422) in JSON, stripped from the file name of an upload, so that
// "gnp.exe" behind U+202E never reads as "exe.png" anywhere.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { callJson } from "../helpers/context.ts";
import { makeClient, makeUser } from "../helpers/factories.ts";
import { png, upload, uploaded } from "../images/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const RLO = "\u202e";
/** Each character PlainText refuses besides C0 and DEL, one of each range and each single one. */
const REFUSED = ["\u0080", "\u0085", "\u009f", "\u061c", "\u200e", "\u200f", "\u202a", "\u202d", RLO, "\u2066", "\u2069"];
const hex = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

function expect422(res: { status: number; body: any }, path: string) {
  expect(res.status).toBe(422);
  expect(res.body.code).toBe("VALIDATION_ERROR");
  expect(res.body.meta.path).toBe(path);
}

describe("JSON names refuse C1 and bidi controls with 422", () => {
  test("a nickname with a bidi override or a C1 control is 422 and the nickname stays", async () => {
    const u = await makeUser();
    for (const c of REFUSED) {
      const res = await callJson("PATCH", "/v1/user/me", { token: u.jwt, json: { nickname: `gnp${c}.exe` } });
      expect(res.status, hex(c)).toBe(422);
      expect422(res, "body.nickname");
    }
    expect((await callJson("GET", "/v1/user/me", { token: u.jwt })).body.data.nickname).toBeNull();
  });

  test("sign-up refuses such a nickname too", async () => {
    const res = await callJson("POST", "/v1/auth/signup", {
      json: { email: `n-${crypto.randomUUID()}@example.test`, password: "a good password", nickname: `Ada${RLO}` },
    });
    expect422(res, "body.nickname");
  });

  test("a key name with a bidi override is 422 and creates no key", async () => {
    const u = await makeUser();
    const res = await callJson("POST", "/v1/api-keys", { token: u.jwt, json: { name: `deploy${RLO}yek` } });
    expect422(res, "body.name");
    expect((await callJson("GET", "/v1/api-keys", { token: u.jwt })).body.data.items).toEqual([]);
  });

  test("an image file name or tag with a bidi override is 422 in PATCH and the image is unchanged", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, await png(), { filename: "plain.png" });
    expect422(await callJson("PATCH", `/v1/images/${d.id}`, { token: key, json: { filename: `gnp${RLO}.exe` } }), "body.filename");
    expect422(await callJson("PATCH", `/v1/images/${d.id}`, { token: key, json: { filename: "a\u0085b.png" } }), "body.filename");
    expect422(await callJson("PATCH", `/v1/images/${d.id}`, { token: key, json: { tags: ["ok", `x${"\u2066"}y`] } }), "body.tags.1");
    const now = await callJson("GET", `/v1/images/${d.id}`, { token: key });
    expect(now.body.data).toMatchObject({ filename: "plain.png", tags: [] });
  });

  test("names in other scripts and with emoji are still accepted", async () => {
    const { user, key } = await makeClient();
    const me = await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { nickname: "שלום Zoë 😀" } });
    expect(me.status).toBe(200);
    expect(me.body.data.nickname).toBe("שלום Zoë 😀");
    const d = await uploaded(key, await png());
    const res = await callJson("PATCH", `/v1/images/${d.id}`, { token: key, json: { filename: "صورة 日本.png", tags: ["猫", "café"] } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ filename: "صورة 日本.png", tags: ["猫", "café"] });
  });
});

describe("upload file names have them stripped; upload tags refuse them", () => {
  test("an upload whose file name holds U+202E is stored and answered with it stripped", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, await png(), { filename: `photo${RLO}gnp.exe` });
    expect(d.filename).toBe("photognp.exe");
    const one = await callJson("GET", `/v1/images/${d.id}`, { token: key });
    expect(one.body.data.filename).toBe("photognp.exe");
    const list = await callJson("GET", "/v1/images", { token: key });
    expect(JSON.stringify(list.body)).not.toContain(RLO);
  });

  test("every refused character is stripped from an upload's file name; a name of nothing else falls back", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, await png(), { filename: `a${REFUSED.join("")}b.png` });
    expect(d.filename).toBe("ab.png");
    const bare = await uploaded(key, await png(), { filename: `${RLO}\u2066` });
    expect(bare.filename).toBe("image.png");
  });

  test("upload tags go through the same rule: a bidi override in a tag is 422", async () => {
    const { key } = await makeClient();
    const res = await upload(key, await png(), { tags: JSON.stringify(["fine", `gnp${RLO}`]) });
    expect422(res, "body.tags.1");
  });
});
