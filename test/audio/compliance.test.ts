// Audio on the mainland platform: the file, and an embedded cover as the image it becomes,
// pass the compliance check; a refusal is 451 COMPLIANCE_BLOCKED and leaves nothing.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { parseBuffer, selectCover } from "music-metadata";
import { makeClient } from "../helpers/factories.ts";
import { on, platformApp, sha256 } from "../compliance/fixtures.ts";
import { audioForm, audioObjects, fixture, usageOf } from "./fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const blockedTone = await fixture("ogg");
const covered = await fixture("mp3-cover");
const cover = selectCover((await parseBuffer(covered)).common.picture)!;

const api = on(await platformApp({ PLATFORM: "mainland", COMPLIANCE_BLOCKED_HASHES: `${sha256(blockedTone)}, ${sha256(cover.data)}` }));

describe("mainland: audio", () => {
  test("a blocklisted file: 451 COMPLIANCE_BLOCKED naming the audio, nothing stored or counted; another file is taken", async () => {
    const { user, key } = await makeClient();
    const res = await api("POST", "/v1/audio", { token: key, body: audioForm(blockedTone, "a.ogg") });
    expect(res.status).toBe(451);
    expect(res.body.code).toBe("COMPLIANCE_BLOCKED");
    expect(res.body.meta.reasons).toEqual([{ checker: "blocklist", reason: "BLOCKED_HASH", kind: "audio", sha256: sha256(blockedTone) }]);
    expect(await audioObjects(user.id)).toEqual([]);
    const u = await usageOf(user);
    expect([u.video.storage.used, u.image.storage.used, u.uploads.day.used]).toEqual([0, 0, 0]);
    expect((await api("POST", "/v1/audio", { token: key, body: audioForm(await fixture("mp3"), "b.mp3") })).status).toBe(201);
  });

  test("a file whose embedded cover is blocklisted: 451 naming the image, nothing stored", async () => {
    const { user, key } = await makeClient();
    const res = await api("POST", "/v1/audio", { token: key, body: audioForm(covered, "c.mp3") });
    expect(res.status).toBe(451);
    expect(res.body.meta.reasons[0]).toMatchObject({ checker: "blocklist", reason: "BLOCKED_HASH", kind: "image", sha256: sha256(cover.data) });
    expect(await audioObjects(user.id)).toEqual([]);
  });
});
