// The answer of a route that opens, renews or ends a browser session: its JSON body and the
// session's cookies (identity's session-cookies.ts), for the sign-in routes of index.ts and
// passkeys.routes.ts alike.
import type { Deps } from "../../core/deps.ts";
import { addressesOf } from "../../http/addresses.ts";
import type { SessionGrant } from "./sessions.ts";
import { sessionCookies } from "./session-cookies.ts";

export function sessionAnswers(deps: Pick<Deps, "config" | "clock">) {
  const secureAt = (request: Request) => addressesOf(deps.config, request).PUBLIC_URL.startsWith("https://");
  const grantBody = (g: SessionGrant) => ({
    user: { id: g.user.id, email: g.user.email, nickname: g.user.nickname, plan: g.user.plan, isAdmin: g.user.isAdmin },
    accessToken: g.accessToken,
    expiresIn: g.expiresIn,
  });
  /**
   * The answer with the browser session's cookies: the refresh cookie and the pages'
   * tickets, or without a session the values that clear them, and `extra`. Written here
   * rather than through Elysia's cookie jar, which holds one value per name (the tickets are
   * one name on two paths) and drops its own cookies from an answer that sets others.
   */
  const withSession = (request: Request, code: number, body: unknown, session?: { refreshToken: string; sessionId: string }, extra: string[] = []) => {
    const res = code === 204 ? new Response(null, { status: 204 }) : Response.json(body, { status: code });
    const cookies = sessionCookies(deps.config, session, { secure: secureAt(request), nowMs: deps.clock.now().getTime() });
    for (const c of [...cookies, ...extra]) res.headers.append("set-cookie", c);
    return res;
  };
  return { secureAt, grantBody, withSession };
}
