// The device authorization grant (RFC 8628): a device asks for a
// pair of codes, the user approves or denies the user code, and the device polls the
// token endpoint with the device code until it gets tokens or a terminal error.
import { and, eq, gt } from "drizzle-orm";
import type { Deps } from "../../core/deps.ts";
import { AppError } from "../../core/errors.ts";
import { rateLimited } from "../../core/errors.ts";
import type { Scope } from "../../core/scopes.ts";
import { newId } from "../../infra/ids.ts";
import { assertGrantType, DEVICE_GRANT, findClient, requestedScopes, requireClient } from "./clients.ts";
import { DEVICE_CODE_PATTERN, formatUserCode, newDeviceCode, newUserCode, normalizeUserCode, sha256Hex } from "./codes.ts";
import { invalidGrant, OAuthError } from "./errors.ts";
import { assertSameResource, requestedResource } from "./resources.ts";
import { createGrant, issueTokenSet, type TokenSet } from "./service.ts";
import { oauthDeviceAuthorizations } from "./table.ts";

const DEVICE_CODE_TTL_S = 600;
const POLL_INTERVAL_S = 5;
const SLOW_DOWN_STEP_S = 5;
const DEVICE_REQUESTS_PER_MINUTE = 10;

/** Wrong user codes, across codes, per user and per address, in a window (40 bits). */
const WRONG_CODE_WINDOW_MS = 15 * 60_000;
const MAX_WRONG_CODES_PER_USER = 10;
const MAX_WRONG_CODES_PER_IP = 50;

export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** POST /v1/oauth/device_authorization: at most 10 per client and address per minute. */
export async function startDeviceAuthorization(
  deps: Deps,
  input: { clientId?: string; scope?: string; resource?: string; ip: string },
): Promise<DeviceAuthorization> {
  const client = await requireClient(deps, input.clientId);
  assertGrantType(client, DEVICE_GRANT);
  const scopes = requestedScopes(client, input.scope);
  const resource = requestedResource(deps.config, input.resource);
  let window: Awaited<ReturnType<typeof deps.kv.slidingWindow>>;
  try {
    window = await deps.kv.slidingWindow(`oauth-device:${client.id}:${input.ip}`, DEVICE_REQUESTS_PER_MINUTE, 60_000, deps.clock.nowMs());
  } catch {
    throw new OAuthError("temporarily_unavailable", "device authorization is briefly unavailable; try again shortly", 503, "SERVICE_UNAVAILABLE", {
      "retry-after": "30",
    });
  }
  if (!window.allowed) {
    const refusal = rateLimited("too many device authorizations", {}, window);
    throw new OAuthError(
      "temporarily_unavailable",
      `at most ${DEVICE_REQUESTS_PER_MINUTE} device authorizations per client and address per minute`,
      429,
      "RATE_LIMITED",
      refusal.headers,
    );
  }
  const now = deps.clock.now();
  const deviceCode = newDeviceCode();
  // A user code equal to one already stored (of 2^40) is drawn again.
  for (let attempt = 0; ; attempt++) {
    const userCode = newUserCode();
    const inserted = await deps.db
      .insert(oauthDeviceAuthorizations)
      .values({
        id: newId(),
        deviceCodeHash: sha256Hex(deviceCode),
        userCode,
        clientId: client.id,
        scopes,
        resource,
        status: "pending",
        intervalS: POLL_INTERVAL_S,
        expiresAt: new Date(now.getTime() + DEVICE_CODE_TTL_S * 1000),
        createdAt: now,
      })
      .onConflictDoNothing({ target: oauthDeviceAuthorizations.userCode })
      .returning({ id: oauthDeviceAuthorizations.id });
    if (inserted.length) {
      const shown = formatUserCode(userCode);
      const uri = `${deps.config.CENTER_URL}/device`;
      return {
        device_code: deviceCode,
        user_code: shown,
        verification_uri: uri,
        verification_uri_complete: `${uri}?user_code=${shown}`,
        expires_in: DEVICE_CODE_TTL_S,
        interval: POLL_INTERVAL_S,
      };
    }
    if (attempt >= 4) throw new Error("no free user code after 5 draws");
  }
}

type PollOutcome = { tokens: TokenSet } | { refused: OAuthError };

/**
 * The device_code grant at the token endpoint. The authorization's row is locked for the
 * decision, so of two redemptions at once exactly one gets the tokens.
 */
export async function redeemDeviceCode(deps: Deps, input: { clientId: string; deviceCode: string; resource?: string }): Promise<TokenSet> {
  if (!DEVICE_CODE_PATTERN.test(input.deviceCode)) throw invalidGrant("unknown device_code");
  const outcome = await deps.db.transaction(async (tx): Promise<PollOutcome> => {
    const [row] = await tx
      .select()
      .from(oauthDeviceAuthorizations)
      .where(eq(oauthDeviceAuthorizations.deviceCodeHash, sha256Hex(input.deviceCode)))
      .for("update");
    if (!row || row.clientId !== input.clientId || row.status === "consumed") return { refused: invalidGrant("unknown or already used device_code") };
    const now = deps.clock.now();
    if (row.expiresAt <= now) return { refused: new OAuthError("expired_token", "the device_code has expired; start again") };
    if (row.status === "denied") return { refused: new OAuthError("access_denied", "the user denied the request") };
    if (row.status === "pending") {
      const early = row.lastPolledAt && now.getTime() - row.lastPolledAt.getTime() < row.intervalS * 1000;
      const intervalS = early ? row.intervalS + SLOW_DOWN_STEP_S : row.intervalS;
      await tx.update(oauthDeviceAuthorizations).set({ lastPolledAt: now, intervalS }).where(eq(oauthDeviceAuthorizations.id, row.id));
      if (early) return { refused: new OAuthError("slow_down", `polling too fast; wait at least ${intervalS} seconds between polls`) };
      return { refused: new OAuthError("authorization_pending", "the user has not decided yet") };
    }
    try {
      assertSameResource(deps.config, input.resource, row.resource);
    } catch (e) {
      return { refused: e as OAuthError };
    }
    await tx.update(oauthDeviceAuthorizations).set({ status: "consumed", lastPolledAt: now }).where(eq(oauthDeviceAuthorizations.id, row.id));
    const scopes = row.scopes as Scope[];
    const grantId = await createGrant(deps, tx, { userId: row.userId!, clientId: row.clientId, scopes, resource: row.resource, via: "device" });
    return { tokens: await issueTokenSet(deps, tx, grantId, scopes) };
  });
  if ("refused" in outcome) throw outcome.refused;
  return outcome.tokens;
}

const unavailable = () => new AppError("SERVICE_UNAVAILABLE", "code entry is briefly unavailable; try again shortly", {}, { "retry-after": "30" });

/**
 * Counts an attempt against the user's and the address's wrong codes before the code is
 * looked at, so parallel guesses cannot all pass; a right code takes its attempt back.
 * Fails closed: without the kv no code is tried.
 */
async function countCodeAttempt(deps: Deps, userId: string, ip: string): Promise<() => Promise<void>> {
  const keys = [`oauth-code-fail:user:${userId}`, `oauth-code-fail:ip:${ip}`];
  let counts: number[];
  try {
    counts = await Promise.all(keys.map((k) => deps.kv.incr(k, 1, WRONG_CODE_WINDOW_MS)));
  } catch {
    throw unavailable();
  }
  const over = (per: "user" | "address", limit: number) =>
    rateLimited("too many wrong codes; try again later", { type: "device_code_failures", per, limit }, { limit, resetMs: WRONG_CODE_WINDOW_MS });
  if (counts[0]! > MAX_WRONG_CODES_PER_USER) throw over("user", MAX_WRONG_CODES_PER_USER);
  if (counts[1]! > MAX_WRONG_CODES_PER_IP) throw over("address", MAX_WRONG_CODES_PER_IP);
  return async () => {
    await Promise.all(keys.map((k) => deps.kv.incr(k, -1, WRONG_CODE_WINDOW_MS))).catch(() => {});
  };
}

export interface DeviceDecision {
  userCode: string;
  decision: "approve" | "deny";
  clientId: string;
  clientName: string;
  /** A registered client an administrator has not approved yet. */
  unverified: boolean;
  scopes: Scope[];
}

/** POST /v1/oauth/device/verify: the signed-in user approves or denies a pending user code. */
export async function decideDevice(deps: Deps, input: { userId: string; ip: string; userCode: string; decision: "approve" | "deny" }): Promise<DeviceDecision> {
  const takeBack = await countCodeAttempt(deps, input.userId, input.ip);
  const code = normalizeUserCode(input.userCode);
  if (!code) throw noSuchCode();
  const now = deps.clock.now();
  // A client rejected while its code waited is refused here too, not only when it polls.
  const [asking] = await deps.db
    .select({ clientId: oauthDeviceAuthorizations.clientId })
    .from(oauthDeviceAuthorizations)
    .where(eq(oauthDeviceAuthorizations.userCode, code));
  if (asking && !(await findClient(deps, deps.db, asking.clientId))) {
    await takeBack();
    throw clientGone();
  }
  const [decided] = await deps.db
    .update(oauthDeviceAuthorizations)
    .set({ status: input.decision === "approve" ? "approved" : "denied", userId: input.userId })
    .where(and(eq(oauthDeviceAuthorizations.userCode, code), eq(oauthDeviceAuthorizations.status, "pending"), gt(oauthDeviceAuthorizations.expiresAt, now)))
    .returning({ clientId: oauthDeviceAuthorizations.clientId, scopes: oauthDeviceAuthorizations.scopes });
  if (decided) {
    await takeBack();
    const client = await findClient(deps, deps.db, decided.clientId);
    return {
      userCode: formatUserCode(code),
      decision: input.decision,
      clientId: decided.clientId,
      clientName: client?.name ?? decided.clientId,
      unverified: client?.unverified ?? true,
      scopes: decided.scopes as Scope[],
    };
  }
  const [row] = await deps.db
    .select({ status: oauthDeviceAuthorizations.status, expiresAt: oauthDeviceAuthorizations.expiresAt })
    .from(oauthDeviceAuthorizations)
    .where(eq(oauthDeviceAuthorizations.userCode, code));
  if (!row) throw noSuchCode();
  // A real code, expired or decided: not a guess, so it does not count against the user.
  await takeBack();
  throw undecidable(row.status);
}

const clientGone = () =>
  new AppError("NOT_FOUND", "the app asking for this code may no longer sign in; it was rejected", { entity: "user_code", reason: "client_rejected" });

const noSuchCode = () => new AppError("NOT_FOUND", "no such code; check what the device shows", { entity: "user_code" });

/** Why a real code cannot be decided on: expired while pending, or decided already. */
const undecidable = (status: string) =>
  status === "pending"
    ? new AppError("NOT_FOUND", "this code has expired; start again on the device", { entity: "user_code", reason: "expired" })
    : new AppError("CONFLICT", "this code was already used", { reason: "already_decided" });

export type DeviceRequest = Omit<DeviceDecision, "decision">;

/**
 * What a pending user code asks for, shown to the signed-in user before they decide (the
 * device page). Looking a code up is counted against the wrong codes as deciding is, so
 * it is no way around their limits; the same refusals as decideDevice.
 */
export async function reviewDevice(deps: Deps, input: { userId: string; ip: string; userCode: string }): Promise<DeviceRequest> {
  const takeBack = await countCodeAttempt(deps, input.userId, input.ip);
  const code = normalizeUserCode(input.userCode);
  if (!code) throw noSuchCode();
  const [row] = await deps.db.select().from(oauthDeviceAuthorizations).where(eq(oauthDeviceAuthorizations.userCode, code));
  if (!row) throw noSuchCode();
  await takeBack();
  if (row.status !== "pending" || row.expiresAt <= deps.clock.now()) throw undecidable(row.status);
  const client = await findClient(deps, deps.db, row.clientId);
  if (!client) throw clientGone();
  return {
    userCode: formatUserCode(code),
    clientId: row.clientId,
    clientName: client.name,
    unverified: client.unverified,
    scopes: row.scopes as Scope[],
  };
}
