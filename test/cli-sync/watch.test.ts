// `shelf sync --watch`: a note saved in the folder is pushed (fs.watch, debounced), a change
// made elsewhere is pulled at the next poll, a poll of a KB that did not change is one
// conditional request answered 304, and the command stops on its signal. Each step waits
// on the command's own output or its next wait, never on time.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { call, tempDir, testContext } from "../helpers/context.ts";
import { makeClient, makeKey, makeUser } from "../helpers/factories.ts";
import { newKb, sync, upsert } from "../kbs/fixtures.ts";
import { Lines, Polls, runSync } from "./harness.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const SERVER = "http://shelf.test";

describe("shelf sync --watch", () => {
  test("pushes a note saved in the folder, pulls a change made elsewhere at the next poll, polls with If-None-Match, stops on its signal", async () => {
    const { app } = await testContext();
    const { key } = await makeClient();
    const kb = await newKb(key);
    const folder = tempDir("shelf-watch-");
    await Bun.write(join(folder, "first.md"), "first\n");
    mkdirSync(join(folder, "notes"));
    const lines = new Lines();
    const polls = new Polls();
    const stop = new AbortController();
    const seen: { method: string; path: string; status: number; conditional: boolean }[] = [];
    const send = async (request: Request) => {
      const res = await app.handle(request);
      seen.push({ method: request.method, path: new URL(request.url).pathname, status: res.status, conditional: request.headers.has("if-none-match") });
      return res;
    };
    const idle = polls.nextWait();
    const running = runSync(
      [folder, "--kb", kb.slug, "--server", SERVER, "--watch", "--interval", "60"],
      { env: { SHELF_API_KEY: key, SHELF_CONFIG_DIR: tempDir("shelf-config-") }, send, sleep: polls.sleep, signal: stop.signal },
      lines,
    );
    await idle;
    expect(lines.out).toContain("pushed   first.md");
    expect(polls.calls).toEqual([60_000]);

    // Polls while nothing changes anywhere: one manifest request each, answered 304, and no
    // output (the sync that pushed took the ETag of the cursor after its own push).
    const printed = lines.all.length;
    const poll = async () => {
      const at = seen.length;
      const next = polls.nextWait();
      polls.tick();
      await next;
      return seen.slice(at);
    };
    expect(await poll()).toEqual([{ method: "GET", path: `/v1/kbs/${kb.id}/manifest`, status: 304, conditional: true }]);
    expect(await poll()).toEqual([{ method: "GET", path: `/v1/kbs/${kb.id}/manifest`, status: 304, conditional: true }]);
    expect(lines.all.length).toBe(printed);

    // A note saved here, in a subfolder: pushed without any poll.
    await Bun.write(join(folder, "notes", "new.md"), "written here\n");
    await lines.waitFor("pushed   notes/new.md");

    // A folder made after the watch started, and a note written into it at once: the
    // folder's creation starts a sync, which finds the note, and the folder is watched from then on.
    const made = lines.all.length;
    mkdirSync(join(folder, "later"));
    await Bun.write(join(folder, "later", "first.md"), "in a new folder\n");
    await lines.waitFor("pushed   later/first.md", made);
    await Bun.write(join(folder, "later", "second.md"), "saved later\n");
    await lines.waitFor("pushed   later/second.md", made);

    // A change pushed by another client: pulled at the next poll.
    const from = lines.all.length;
    const remote = await sync(key, kb.id, [upsert("elsewhere.md", "from elsewhere\n")], { headers: { "service-sync-version": "2" } });
    expect(remote.status).toBe(200);
    polls.tick();
    await lines.waitFor("pulled   elsewhere.md", from);
    expect(await Bun.file(join(folder, "elsewhere.md")).text()).toBe("from elsewhere\n");

    stop.abort();
    const { code } = await running;
    expect(lines.err).toEqual([]);
    expect(code).toBe(0);
    expect(lines.out.at(-1)).toBe("stopped watching");
  });

  test("a key revoked meanwhile ends the watch with exit 1 instead of retrying for ever", async () => {
    const { app } = await testContext();
    const user = await makeUser();
    const { id, key } = await makeKey(user);
    const kb = await newKb(key);
    const folder = tempDir("shelf-watch-");
    const lines = new Lines();
    const polls = new Polls();
    const idle = polls.nextWait();
    const running = runSync(
      [folder, "--kb", kb.slug, "--server", SERVER, "--watch"],
      { env: { SHELF_API_KEY: key, SHELF_CONFIG_DIR: tempDir("shelf-config-") }, send: (request) => app.handle(request), sleep: polls.sleep },
      lines,
    );
    await idle;
    expect((await call("DELETE", `/v1/api-keys/${id}`, { token: user.jwt })).status).toBe(204);
    polls.tick();
    const { code } = await running;
    expect(code).toBe(1);
    expect(lines.err.join("\n")).toContain("401");
    expect(lines.out).not.toContain("stopped watching");
  });
});
