// Links mailed to prove something by reading mail (a password reset, a new address, a
// sign-up's address): 32 random bytes of token in the link, only its SHA-256 stored, spent
// at most once before it expires. The flows that send them are password-reset.ts and
// email-address.ts; each names its purpose, and a link of one purpose opens nothing else.
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError, rateLimited } from "../../core/errors.ts";
import type { DbOrTx } from "../../infra/db/index.ts";
import { newId } from "../../infra/ids.ts";
import { emailLinks } from "./table.ts";
import { sha256Hex } from "./tokens.ts";

export type LinkPurpose = (typeof emailLinks.$inferInsert)["purpose"];

const WINDOW_MS = 3_600_000;
/** Asks per address an hour, of each flow: past it, 429 (it says nothing about any account). */
export const MAX_LINK_ASKS_PER_IP_HOUR = 20;
/** Links mailed per account and purpose an hour: past it, asking answers the same and mails nothing. */
export const MAX_LINKS_PER_ACCOUNT_HOUR = 3;

/** A new link's token, stored as its hash, in the caller's transaction. */
export async function issueLink(tx: DbOrTx, o: { userId: string; purpose: LinkPurpose; address: string; now: Date; ttlMs: number }): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await tx.insert(emailLinks).values({
    id: newId(),
    userId: o.userId,
    purpose: o.purpose,
    tokenHash: sha256Hex(token),
    address: o.address,
    createdAt: o.now,
    expiresAt: new Date(o.now.getTime() + o.ttlMs),
  });
  return token;
}

/**
 * Spends a link of `purpose`: the user and address it was for, and every other unspent link
 * of that user and purpose spent with it. 400 RESET_TOKEN_INVALID for a token unknown, of
 * another purpose, spent or expired. The conditional update decides between two uses.
 */
export async function spendLink(tx: DbOrTx, token: string, purpose: LinkPurpose, now: Date): Promise<{ userId: string; address: string }> {
  const [used] = await tx
    .update(emailLinks)
    .set({ usedAt: now })
    .where(and(eq(emailLinks.tokenHash, sha256Hex(token)), eq(emailLinks.purpose, purpose), isNull(emailLinks.usedAt), gt(emailLinks.expiresAt, now)))
    .returning({ userId: emailLinks.userId, address: emailLinks.address });
  if (!used) throw new AppError("RESET_TOKEN_INVALID", "this link is unknown, already used or expired; ask for a new one");
  await tx
    .update(emailLinks)
    .set({ usedAt: now })
    .where(and(eq(emailLinks.userId, used.userId), eq(emailLinks.purpose, purpose), isNull(emailLinks.usedAt)));
  return used;
}

async function counted(deps: Pick<Deps, "kv">, key: string): Promise<number> {
  try {
    return await deps.kv.incr(key, 1, WINDOW_MS);
  } catch {
    throw new AppError("SERVICE_UNAVAILABLE", "this is briefly unavailable; try again shortly", {}, { "retry-after": "30" });
  }
}

/** Counts an ask of `flow` (password-reset, email-verify) from `ip`: 429 past MAX_LINK_ASKS_PER_IP_HOUR. */
export async function countLinkAsk(deps: Pick<Deps, "kv">, flow: string, ip: string): Promise<void> {
  if ((await counted(deps, `${flow}:ip:${ip}`)) > MAX_LINK_ASKS_PER_IP_HOUR) {
    throw rateLimited(
      `too many ${flow.replace("-", " ")} requests from this address`,
      { type: flow, limit: MAX_LINK_ASKS_PER_IP_HOUR },
      { limit: MAX_LINK_ASKS_PER_IP_HOUR, resetMs: WINDOW_MS },
    );
  }
}

/** Whether the account at `email` may be mailed another link of `purpose` this hour (counted). */
export async function mayMailLink(deps: Pick<Deps, "kv">, purpose: LinkPurpose, email: string): Promise<boolean> {
  return (await counted(deps, `link-mail:${purpose}:${sha256Hex(email)}`)) <= MAX_LINKS_PER_ACCOUNT_HOUR;
}
