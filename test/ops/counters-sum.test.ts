// Counters move with their rows. After a mixed run of uploads (images, documents,
// videos, audio), replacements with version history, conflict branches, discards and
// deletes, every all-time counter of the account equals the sum of its rows (usage verify
// finds nothing).
import { expect, setDefaultTimeout, test } from "bun:test";
import { adminCli } from "../helpers/admin-cli.ts";
import { call, callJson } from "../helpers/context.ts";
import { openTestBranch, kbWith } from "../branches/fixtures.ts";
import { postDoc, uploadedDoc } from "../documents/fixtures.ts";
import { png, uploaded } from "../images/fixtures.ts";
import { clip, uploadVideo } from "../videos/fixtures.ts";
import { fixture, uploadAudio } from "../audio/fixtures.ts";
import { countersOf } from "../jobs/world.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

test("after uploads, replacements with history, branches, discards and deletes (to the trash), every counter equals the sum of its rows", async () => {
  const { user, key, kb } = await kbWith({ "a.md": "alpha\n", "b.md": "beta\n" }, { plan: "pro" });
  const jwt = user.jwt;
  expect((await callJson("PATCH", "/v1/user/me", { token: jwt, json: { docVersioningEnabled: true, docVersioningMax: 2 } })).status).toBe(200);

  const images = [await uploaded(key, await png()), await uploaded(key, await png(30, 20))];
  expect((await call("DELETE", `/v1/images/${images[0]!.id}`, { token: jwt })).status).toBeLessThan(300);
  for (const v of ["one\n", "two .\n", "three ..\n", `four ${"x".repeat(300 * 1024)}\n`]) {
    expect([200, 201]).toContain((await postDoc(key, { filename: "n.md", content: v, kbId: kb.id, relativePath: "n.md" })).status);
  }
  const loose = await uploadedDoc(key);
  await uploadedDoc(key, { filename: "big.md", content: `# Big\n\n${"word ".repeat(60_000)}` });
  expect((await call("DELETE", `/v1/docs/${loose.id}`, { token: jwt })).status).toBeLessThan(300);
  const kept = await openTestBranch(user.id, kb.id, "a.md", "mine a\n");
  const dropped = await openTestBranch(user.id, kb.id, "b.md", "y".repeat(300 * 1024));
  expect((await call("DELETE", `/v1/kbs/${kb.id}/conflicts/${dropped.id}`, { token: jwt })).status).toBeLessThan(300);
  const video = await uploadVideo(key, await clip({ seconds: 1 }));
  expect(video.status).toBe(201);
  const second = await uploadVideo(key, await clip({ seconds: 1 }));
  expect((await call("DELETE", `/v1/videos/${second.body.data.id}`, { token: jwt })).status).toBeLessThan(300);
  const song = await uploadAudio(key, await fixture("mp3-cover"), "song.mp3");
  expect(song.status).toBe(201);
  const other = await uploadAudio(key, await fixture("flac"), "other.flac");
  expect((await call("DELETE", `/v1/audio/${other.body.data.id}`, { token: jwt })).status).toBe(204);

  const result = await adminCli("usage", "verify", "--email", user.email);
  expect(result.out).toEqual(["1 users, 0 counters differ from their rows"]);
  expect(result.code).toBe(0);
  // The run left something in every counter it is about.
  // The deletes went to the trash: what they hold counts until purged (trash_bytes says how
  // much), but for an image's place in the list's total.
  const counters = await countersOf(user.id);
  expect(counters).toMatchObject({
    "total:image_count": 1,
    "total:doc_count": 5,
    "total:revision_count": 2,
    "total:conflict_branches": 1,
    "total:media_storage": video.body.data.sizeBytes + song.body.data.sizeBytes + second.body.data.sizeBytes + other.body.data.sizeBytes,
  });
  expect(counters["total:trash_bytes"]).toBeGreaterThan(second.body.data.sizeBytes + other.body.data.sizeBytes);
  expect(kept.status).toBe("pending");
});
