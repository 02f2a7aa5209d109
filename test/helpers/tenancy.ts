// The shared cross-tenant check every route's tests run: no credentials -> 401, a key
// without the route's scope -> 403, another user's resource -> 404 (existence not leaked).
import { expect } from "bun:test";
import { SCOPES, type Scope } from "../../src/core/scopes.ts";
import { call, type CallOptions } from "./context.ts";
import { makeKey, makeUser, type TestUser } from "./factories.ts";

export interface RouteUnderTest {
  method: string;
  /** The path, given the id of a resource owned by `owner` (ignored by routes without one). */
  path: (id: string) => string;
  scope: Scope;
  /** Creates a resource of `owner` and returns its id; omit for routes without a resource. */
  create?: (owner: TestUser) => Promise<string>;
  /** Body and headers for the request (besides Authorization). */
  request?: () => CallOptions;
  /** Runs after the refused attempts: asserts the owner's resource is as it was. */
  untouched?: (owner: TestUser, id: string) => Promise<void>;
}

export async function expectTenantIsolation(route: RouteUnderTest) {
  const owner = await makeUser();
  const id = route.create ? await route.create(owner) : "none";
  const path = route.path(id);
  const opts = () => route.request?.() ?? {};

  const anonymous = await call(route.method, path, opts());
  expect(anonymous.status).toBe(401);
  expect(((await anonymous.json()) as any).code).toBe("UNAUTHORIZED");

  const others = SCOPES.filter((s) => s !== route.scope);
  const { key: narrow } = await makeKey(owner, others);
  const refused = await call(route.method, path, { ...opts(), token: narrow });
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as any).code).toBe("FORBIDDEN");

  if (route.create) {
    const stranger = await makeUser();
    const { key } = await makeKey(stranger, [...SCOPES]);
    const res = await call(route.method, path, { ...opts(), token: key });
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).code).toBe("NOT_FOUND");
  }
  if (route.untouched) await route.untouched(owner, id);
}
