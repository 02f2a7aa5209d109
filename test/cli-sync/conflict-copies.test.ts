// Conflict copies after the conflict: while a branch is pending every run of `shelf sync`
// names it (a line, and the summary's count); once the branch is resolved on the server
// (discarded or accepted) the next run removes the copy it wrote, unless the copy was
// edited since: that one stays, and is named every run until it is removed.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { call } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { conflicted, synced as run } from "./harness.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const pendingLine = (path: string, branchId: string, copy: string) =>
  `pending  conflict ${path} (branch ${branchId}): your version is in ${copy}; accept or discard it on the server`;

describe("shelf sync: conflict copies", () => {
  test("every run names a pending conflict; discarded on the server, the next run removes the unedited copy", async () => {
    const { key, kb, a, branchId, copy, opened } = await conflicted("shared.md");
    expect(opened.out).toContain(pendingLine("shared.md", branchId, copy));
    expect(opened.summary).toMatch(/^0 change\(s\), 1 conflict\(s\); 1 pending conflict\(s\); \d+ request\(s\)$/);
    for (let i = 0; i < 2; i++) {
      const again = await run(a, kb.slug, key);
      expect(again.out).toContain(pendingLine("shared.md", branchId, copy));
      expect(again.summary).toMatch(/^up to date; 1 pending conflict\(s\); 2 request\(s\)$/);
      expect(again.seen.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/kbs/${kb.id}/manifest`, `GET /v1/kbs/${kb.id}/conflicts`]);
    }

    expect((await call("DELETE", `/v1/kbs/${kb.id}/conflicts/${branchId}`, { token: key })).status).toBe(204);
    const after = await run(a, kb.slug, key);
    expect(after.out).toContain(`resolved shared.md: its conflict was resolved on the server; removed ${copy}`);
    expect(after.out.some((l) => l.startsWith("pending "))).toBe(false);
    expect(readdirSync(a).filter((n) => n !== ".shelf-sync.json")).toEqual(["shared.md"]);
    expect(await Bun.file(join(a, "shared.md")).text()).toBe("theirs\n");
    // Nothing pending any more: one request again.
    expect((await run(a, kb.slug, key)).summary).toBe("up to date; 1 request(s)");
  });

  test("accepted on the server: the note takes the branch's text and the copy goes", async () => {
    const { key, kb, a, branchId, copy } = await conflicted("notes.md");
    expect((await call("POST", `/v1/kbs/${kb.id}/conflicts/${branchId}/accept`, { token: key })).status).toBe(200);
    const after = await run(a, kb.slug, key);
    expect(after.out).toContain("pulled   notes.md");
    expect(after.out).toContain(`resolved notes.md: its conflict was resolved on the server; removed ${copy}`);
    expect(await Bun.file(join(a, "notes.md")).text()).toBe("ours\n");
    expect(await Bun.file(join(a, copy)).exists()).toBe(false);
  });

  test("a copy edited after it was written stays when its branch is resolved, and is named every run until removed", async () => {
    const { key, kb, a, branchId, copy } = await conflicted("kept.md");
    await Bun.write(join(a, copy), "ours, edited further\n");
    expect((await call("DELETE", `/v1/kbs/${kb.id}/conflicts/${branchId}`, { token: key })).status).toBe(204);
    const after = await run(a, kb.slug, key);
    expect(after.out).toContain(`resolved kept.md: its conflict was resolved on the server; kept ${copy}, edited since it was written`);
    expect(await Bun.file(join(a, copy)).text()).toBe("ours, edited further\n");
    const kept = `kept     ${copy}: edited after its conflict was resolved on the server; not synced (rename it to keep it)`;
    expect((await run(a, kb.slug, key)).out).toContain(kept);
    expect((await run(a, kb.slug, key)).out).toContain(kept);
    rmSync(join(a, copy));
    const gone = await run(a, kb.slug, key);
    expect(gone.out.some((l) => l.startsWith("kept "))).toBe(false);
    expect(gone.summary).toBe("up to date; 1 request(s)");
  });
});
