// Attachments (any file that is not a note) in `shelf sync`: their bytes go up once by
// their SHA-256 and the op links them; renamed or moved here they are one op on the
// server that keeps the document, and the other folder moves its file without
// downloading it; edits and deletions follow both ways; changed on both sides, master's
// bytes stay in the file and ours go into a conflict copy and a branch, which the other
// folder learns of too.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { callJson, tempDir } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";
import { noise } from "../helpers/vault.ts";
import { newKb } from "../kbs/fixtures.ts";
import { walk2 } from "../kbs/v2-fixtures.ts";
import { conflicted, synced as run } from "./harness.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const sha = (bytes: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

const activeIds = async (key: string, kbId: string) =>
  new Map((await walk2(key, kbId)).items.filter((i) => !i.deletedAt).map((i) => [i.relativePath, i.docId]));

describe("shelf sync: attachments", () => {
  test("an attachment renamed or moved here is one op on the server (the same document), edited or deleted it follows; the other folder moves its file without downloading it", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const kb = await newKb(key);
    const a = tempDir("shelf-att-a-");
    const b = tempDir("shelf-att-b-");
    mkdirSync(join(a, "img"));
    const png = noise(5000, 3);
    const pdf = noise(7000, 4);
    await Bun.write(join(a, "img", "a.png"), png);
    await Bun.write(join(a, "img", "b.pdf"), pdf);
    await Bun.write(join(a, "note.md"), "![[a.png]]\n");
    expect((await run(a, kb.slug, key)).code).toBe(0);
    expect((await run(b, kb.slug, key)).code).toBe(0);
    const before = await activeIds(key, kb.id);

    renameSync(join(a, "img", "a.png"), join(a, "img", "a renamed.png"));
    mkdirSync(join(a, "docs"));
    renameSync(join(a, "img", "b.pdf"), join(a, "docs", "b.pdf"));
    const here = await run(a, kb.slug, key);
    expect(here.code).toBe(0);
    expect(here.pushed).toEqual([
      { op: "rename", docId: before.get("img/a.png"), newName: "a renamed.png", sourceHash: sha(png), baseUpdatedAt: expect.any(String) },
      { op: "move", fromPath: "img/b.pdf", toPath: "docs/b.pdf", sourceHash: sha(pdf), baseUpdatedAt: expect.any(String) },
    ]);
    // No bytes went up again.
    expect(here.seen.filter((r) => r.method === "PUT" || r.method === "HEAD")).toEqual([]);
    const after = await activeIds(key, kb.id);
    expect(after.get("img/a renamed.png")).toBe(before.get("img/a.png")!);
    expect(after.get("docs/b.pdf")).toBe(before.get("img/b.pdf")!);

    const there = await run(b, kb.slug, key);
    expect(there.code).toBe(0);
    expect(there.out).toContain("renamed  img/a.png -> img/a renamed.png (on the server)");
    expect(there.out).toContain(`moved    ${join("img", "b.pdf")} -> ${join("docs", "b.pdf")} (on the server)`);
    expect(there.seen.filter((r) => r.path.includes("/raw"))).toEqual([]);
    expect(sha(await Bun.file(join(b, "img", "a renamed.png")).bytes())).toBe(sha(png));

    // Edited in b: its new bytes go up and come down in a; deleted in a: gone from b.
    const edited = noise(6000, 9);
    await Bun.write(join(b, "docs", "b.pdf"), edited);
    const edit = await run(b, kb.slug, key);
    expect(edit.out).toContain(`pushed   ${join("docs", "b.pdf")}`);
    // Its op goes first; the server lacks the bytes (FILE_MISSING), so they go up, and the op once more. No HEAD.
    const editOp = { op: "upsert", kind: "file", relativePath: "docs/b.pdf", sourceHash: sha(edited), baseUpdatedAt: expect.any(String), baseHash: sha(pdf) };
    expect(edit.pushed).toEqual([editOp, editOp]);
    const writes = edit.seen.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path.replace(kb.id, ":id")}`);
    expect(writes).toEqual(["POST /v1/kbs/:id/sync", `PUT /v1/kbs/:id/files/${sha(edited)}`, "POST /v1/kbs/:id/sync"]);
    expect((await activeIds(key, kb.id)).get("docs/b.pdf")).toBe(before.get("img/b.pdf")!);
    const pulledEdit = await run(a, kb.slug, key);
    expect(pulledEdit.out).toContain(`pulled   ${join("docs", "b.pdf")}`);
    expect(sha(await Bun.file(join(a, "docs", "b.pdf")).bytes())).toBe(sha(edited));
    rmSync(join(a, "img", "a renamed.png"));
    expect((await run(a, kb.slug, key)).out).toContain(`deleted  ${join("img", "a renamed.png")}`);
    expect((await run(b, kb.slug, key)).out).toContain(`deleted  ${join("img", "a renamed.png")} (on the server)`);
    expect(await Bun.file(join(b, "img", "a renamed.png")).exists()).toBe(false);
  });

  test("an attachment changed on both sides: master's bytes in the file, ours in the copy and the branch; the other folder names the branch too", async () => {
    const ours = noise(3000, 7);
    const theirs = noise(4000, 8);
    const { key, kb, a, b, branchId, copy } = await conflicted("pic.png", ours, theirs);
    expect(copy).toBe(`pic (conflict ${branchId}).png`);
    expect(sha(await Bun.file(join(a, "pic.png")).bytes())).toBe(sha(theirs));
    expect(sha(await Bun.file(join(a, copy)).bytes())).toBe(sha(ours));
    const branch = (await callJson("GET", `/v1/kbs/${kb.id}/conflicts`, { token: key })).body.data.items[0];
    expect(branch.sourceHash).toBe(sha(ours));
    // b did not open it: it learns of it from the manifest (its ETag moved) and the list.
    const there = await run(b, kb.slug, key);
    expect(there.out).toContain(`pending  conflict pic.png (branch ${branchId}): opened elsewhere; accept or discard it on the server`);
    expect(sha(await Bun.file(join(b, "pic.png")).bytes())).toBe(sha(theirs));
  });

  test("bytes the account holds already (the same file in another KB) go up no more: their op is applied at once, with no PUT and no HEAD", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const [first, second] = [await newKb(key), await newKb(key)];
    const a = tempDir("shelf-att-held-a-");
    const b = tempDir("shelf-att-held-b-");
    const pdf = noise(9000, 11);
    await Bun.write(join(a, "paper.pdf"), pdf);
    await Bun.write(join(b, "copy of paper.pdf"), pdf);
    const one = await run(a, first.slug, key);
    expect(one.seen.filter((r) => r.method === "PUT")).toHaveLength(1);
    const two = await run(b, second.slug, key);
    expect(two.code).toBe(0);
    expect(two.out).toContain("pushed   copy of paper.pdf");
    expect(two.seen.filter((r) => r.method === "PUT" || r.method === "HEAD")).toEqual([]);
    expect(two.pushed).toHaveLength(1);
    expect((await activeIds(key, second.id)).has("copy of paper.pdf")).toBe(true);
  });
});
