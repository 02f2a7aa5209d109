// What an operator does to an account that spans modules: deleting it. Every door (the
// CLI today) calls this one use case, so the order is the same wherever it starts.
import type { Deps } from "../../core/deps.ts";
import { deleteUser, keepAnAdmin } from "../identity/public.ts";
import { deleteOwnerVideos } from "../videos/public.ts";

export interface DeletedAccount {
  apiKeys: number;
  sessions: number;
  /** The account's videos, whose cleanup (a hosted provider's assets too) was queued. */
  videos: number;
}

/**
 * Deletes an account and everything its rows hold; 409 CONFLICT (last_admin) for the
 * instance's only administrator, with nothing deleted. Its stored objects are then named
 * by no row, and the orphan sweep removes them once older than its cutoff.
 */
export async function deleteAccount(deps: Deps, userId: string): Promise<DeletedAccount> {
  // Before the videos go: the last admin's account stays whole (deleteUser asks again under its lock).
  await deps.db.transaction((tx) => keepAnAdmin(tx, userId, "delete"));
  // Videos first: a hosted provider's assets are deleted by the jobs this queues, which
  // need the rows the account's deletion cascades away.
  const videos = await deleteOwnerVideos(deps, userId);
  const gone = await deleteUser(deps, userId);
  return { ...gone, videos };
}
