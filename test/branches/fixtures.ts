// Conflict branches for tests: opened through the documents module's openBranch inside a
// transaction that holds the KB's lock and the document's row lock, as a sync batch does.
import type { Deps } from "../../src/wiring/deps.ts";
import { newId } from "../../src/infra/ids.ts";
import { lockAtPath, normalizePath, removeObjects, sha256Hex, storeContent, utf8Length } from "../../src/modules/library/public.ts";
import { requireUser } from "../../src/modules/identity/public.ts";
import { lockKb, openBranch } from "../../src/modules/library/public.ts";
import { counterTotal } from "../../src/modules/usage/public.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { newKb, pushed, upsert } from "../kbs/fixtures.ts";

/**
 * Keeps `content` as a pending branch of the document at `relativePath` (which must
 * exist); `deps` may carry another clock or plan table. Throws what openBranch throws.
 */
export async function openTestBranch(userId: string, kbId: string, relativePath: string, content: string, deps?: Deps) {
  const d = deps ?? (await testContext()).deps;
  const user = await requireUser(d.db, userId);
  const path = normalizePath(relativePath);
  if (!path.ok) throw new Error(`bad path ${relativePath}`);
  const sizeBytes = utf8Length(content);
  const stored = await storeContent(d, userId, newId(), content, sizeBytes);
  try {
    return await d.db.transaction(async (tx) => {
      await lockKb(tx, { userId, id: kbId });
      const doc = await lockAtPath(tx, { userId, kbId, pathKey: path.key });
      if (!doc) throw new Error(`no document at ${relativePath}`);
      return openBranch(
        tx,
        { userId, limits: d.plans[user.plan], now: d.clock.now() },
        { doc, relativePath: path.path, stored, sourceHash: sha256Hex(content), sizeBytes },
      );
    });
  } catch (e) {
    await removeObjects(d, [stored.objectKey]);
    throw e;
  }
}

/** A user with a KB holding `docs` (path -> content) pushed through v1 sync. */
export async function kbWith(docs: Record<string, string>, opts: Parameters<typeof makeClient>[0] = {}) {
  const client = await makeClient(opts);
  const kb = await newKb(client.key);
  const out = await pushed(
    client.key,
    kb.id,
    Object.entries(docs).map(([p, c]) => upsert(p, c)),
  );
  const ids = Object.fromEntries(out.applied.map((a) => [a.relativePath, a.id]));
  return { ...client, kb, ids, applied: out.applied };
}

/** The user's all-time img_storage and pending-branch counters. */
export async function counters(userId: string) {
  const { deps } = await testContext();
  return { imgStorage: await counterTotal(deps.db, userId, "img_storage"), branches: await counterTotal(deps.db, userId, "conflict_branches") };
}

/** Every pending branch of a KB, page after page. */
export async function allConflicts(token: string, kbId: string) {
  const items: { branchId: string; docId: string; relativePath: string; sourceHash: string; sizeBytes: number; createdAt: string; expiresAt: string }[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: any } = await callJson("GET", `/v1/kbs/${kbId}/conflicts${cursor ? `?cursor=${cursor}` : ""}`, { token });
    if (res.status !== 200) throw new Error(`conflicts answered ${res.status}: ${JSON.stringify(res.body)}`);
    items.push(...res.body.data.items);
    cursor = res.body.data.nextCursor;
  } while (cursor);
  return items;
}
