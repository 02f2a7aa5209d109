import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { oauthAuthorizationCodes, oauthClients } from "../../src/modules/oauth/table.ts";
import { authorizeQuery, formFields, pkce, registerClient } from "./authorize-steps.ts";
import { oauthApp } from "./flow.ts";
import { pageClient } from "./page-client.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();
const REDIRECT = "http://127.0.0.1:43817/oauth/callback";
const PAGE = "/oauth/authorize";

/** A browser at an address of its own (sign-in failures are counted per address). */
const visitor = () => pageClient(o.app, { ip: o.ip() });
const codesOf = (userId: string) => o.deps.db.select().from(oauthAuthorizationCodes).where(eq(oauthAuthorizationCodes.userId, userId));

/** A signed-in visitor on the consent page of a request: the page's HTML and what it takes to post its decision. */
async function consentPage(extra: Record<string, string> = {}) {
  const user = await o.makeUser();
  const p = pkce();
  const url = `${PAGE}?${new URLSearchParams(authorizeQuery(p.challenge, { redirect_uri: REDIRECT, ...extra }))}`;
  const v = visitor();
  const signInPage = await v.get(url);
  expect(signInPage.status).toBe(200);
  const signedIn = await v.post(PAGE, { ...formFields(signInPage.html, "sign-in"), email: user.email, password: user.password });
  expect(signedIn.status).toBe(303);
  const next = new URL(signedIn.headers.get("location")!, `http://shelf.test${PAGE}`);
  expect(next.pathname).toBe(PAGE);
  const res = await v.get(next.pathname + next.search);
  const html = res.html;
  return { user, v, res, html, verifier: p.verifier, decision: formFields(html, "decision") };
}

describe("the consent page at /oauth/authorize", () => {
  test("not signed in: the sign-in form naming the app, with the pages' security headers and a page session", async () => {
    const res = await visitor().get(`${PAGE}?${new URLSearchParams(authorizeQuery(pkce().challenge, { redirect_uri: REDIRECT }))}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/html");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("set-cookie")).toContain("Path=/oauth/authorize; HttpOnly; SameSite=Lax");
    const html = res.html;
    expect(html).toContain('id="client-name">Shelf Sync<');
    expect(formFields(html, "sign-in")).toMatchObject({ client_id: "shelf-sync", redirect_uri: REDIRECT, state: "xyz-state", action: "sign_in" });
  });

  test("a request that cannot be trusted is refused on the page (400), never redirected; one that can goes back with error and state", async () => {
    const { challenge } = pkce();
    for (const extra of [{ client_id: "no-such-client" }, { redirect_uri: "https://attacker.example/cb" }] as Record<string, string>[]) {
      const res = await visitor().get(`${PAGE}?${new URLSearchParams(authorizeQuery(challenge, { redirect_uri: REDIRECT, ...extra }))}`);
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.html).toContain('id="request-refused"');
    }
    const res = await visitor().get(`${PAGE}?${new URLSearchParams(authorizeQuery(challenge, { redirect_uri: REDIRECT, code_challenge_method: "plain" }))}`);
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get("location")!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: "invalid_request", state: "xyz-state" });
  });

  test("signed in: the app, its scopes in plain words and where it returns; approve sends a code and the state back; the code gives tokens", async () => {
    const { user, v, res, html, decision, verifier } = await consentPage({ scope: "media.read kb.read" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("form-action 'self' http://127.0.0.1:43817");
    expect(html).toContain("See your images, videos and audio and their details");
    expect(html).toContain("Read your knowledge bases and documents");
    expect(html).not.toContain("Create, change and delete your documents");
    expect(html).toContain('id="redirect-host">127.0.0.1:43817<');
    expect(html).not.toContain('id="unverified"');
    const approved = await v.post(PAGE, { ...decision, decision: "approve" });
    expect(approved.status).toBe(303);
    const back = new URL(approved.headers.get("location")!);
    expect(back.searchParams.get("state")).toBe("xyz-state");
    expect(back.searchParams.get("iss")).toBe("http://shelf.test");
    const tokens = await o.post("/oauth/token", {
      grant_type: "authorization_code",
      client_id: "shelf-sync",
      code: back.searchParams.get("code")!,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body.scope).toBe("media.read kb.read");
    expect(await codesOf(user.id)).toHaveLength(1);
  });

  test("deny sends access_denied and the state back, and issues no code", async () => {
    const { user, v, decision } = await consentPage();
    const denied = await v.post(PAGE, { ...decision, decision: "deny" });
    expect(denied.status).toBe(303);
    const back = new URL(denied.headers.get("location")!);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: "access_denied", state: "xyz-state" });
    expect(back.searchParams.get("code")).toBeNull();
    expect(await codesOf(user.id)).toEqual([]);
  });

  test("a decision without the page's CSRF token, with a wrong one, or from another origin is 403 and issues nothing", async () => {
    const { user, v, decision } = await consentPage();
    const cases: [Record<string, string>, string | undefined][] = [
      [{ ...decision, csrf: "" }, undefined],
      [{ ...decision, csrf: "A".repeat(43) }, undefined],
      [decision, "https://attacker.example"],
    ];
    for (const [fields, from] of cases) {
      const res = await v.post(PAGE, { ...fields, decision: "approve" }, from ? { origin: from } : undefined);
      expect(res.status).toBe(403);
      expect(res.headers.get("location")).toBeNull();
      expect(res.html).toContain('id="csrf-refused"');
    }
    // Without the page session's cookie the token is worth nothing either.
    const stranger = await visitor().post(PAGE, { ...decision, decision: "approve" });
    expect(stranger.status).toBe(403);
    expect(await codesOf(user.id)).toEqual([]);
  });

  test("the request is checked again at the decision: a redirect_uri swapped in the form is refused on the page", async () => {
    const { user, v, decision } = await consentPage();
    const res = await v.post(PAGE, { ...decision, redirect_uri: "https://attacker.example/cb", decision: "approve" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await codesOf(user.id)).toEqual([]);
  });

  test("signing out on the consent page comes back to the same request, signed out", async () => {
    const { v, html } = await consentPage();
    const action = /<form method="post" action="(authorize\?[^"]*)">/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(action).toBeDefined();
    const out = await v.post(`/oauth/${action}`, { action: "sign_out" });
    expect(out.status).toBe(303);
    const back = new URL(out.headers.get("location")!, `http://shelf.test${PAGE}`);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ client_id: "shelf-sync", redirect_uri: REDIRECT, state: "xyz-state" });
    const again = await v.get(back.pathname + back.search);
    expect(again.status).toBe(200);
    expect(formFields(again.html, "sign-in")).toMatchObject({ client_id: "shelf-sync", action: "sign_in" });
  });

  test("a pending client is marked unverified; its name is shown as text, never as markup", async () => {
    const id = await registerClient(o, { client_name: "<script>alert(1)</script> Notes", redirect_uris: ["https://notes.example/cb"] });
    const { html } = await consentPage({ client_id: id, redirect_uri: "https://notes.example/cb" });
    expect(html).toContain('id="unverified"');
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Notes");
    expect(html).not.toContain("<script>");
  });

  test("a rejected client cannot start a flow: refused on the page", async () => {
    const id = await registerClient(o, { client_name: "Rejected App", redirect_uris: ["https://rejected.example/cb"] });
    await o.deps.db.update(oauthClients).set({ status: "rejected" }).where(eq(oauthClients.id, id));
    const res = await visitor().get(`${PAGE}?${new URLSearchParams(authorizeQuery(pkce().challenge, { client_id: id }))}`);
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });

  test("a wrong password shows the sign-in form again (401); a decision without signing in is the sign-in form too", async () => {
    const user = await o.makeUser();
    const url = `${PAGE}?${new URLSearchParams(authorizeQuery(pkce().challenge, { redirect_uri: REDIRECT }))}`;
    const v = visitor();
    const form = formFields((await v.get(url)).html, "sign-in");
    const wrong = await v.post(PAGE, { ...form, email: user.email, password: "not the password" });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('id="sign-in"');
    const { action: _, ...fields } = form;
    const unsigned = await v.post(PAGE, { ...fields, decision: "approve" });
    expect(unsigned.status).toBe(401);
    expect(await codesOf(user.id)).toEqual([]);
  });
});

describe("hostile input at the authorization and token endpoints", () => {
  test("control characters, doubled parameters and odd bytes are refused with the documented answers, never a 500", async () => {
    const { challenge } = pkce();
    const good = authorizeQuery(challenge, { redirect_uri: REDIRECT });
    const q = (extra: Record<string, string>) => new URLSearchParams({ ...good, ...extra }).toString();
    const cases: [string, number, string?][] = [
      [q({ client_id: "shelf-sync\u0000" }), 400],
      [q({ client_id: "x".repeat(5000) }), 400],
      [q({ redirect_uri: `${REDIRECT}\u0000` }), 400],
      [q({ redirect_uri: "http://127.0.0.1:43817/oauth/callback\n" }), 400],
      [`${q({})}&client_id=shelf-media`, 400],
      [`${q({})}&redirect_uri=${encodeURIComponent(REDIRECT)}`, 400],
      [q({ scope: "media.read\u0000" }), 303, "invalid_scope"],
      [q({ code_challenge: `${challenge.slice(0, 42)}\u0000` }), 303, "invalid_request"],
      [q({ state: "x".repeat(2001) }), 303, "invalid_request"],
      [`${q({})}&state=again`, 303, "invalid_request"],
      [`${q({})}&code_challenge=%FF%FE`, 303, "invalid_request"],
    ];
    for (const [query, status, error] of cases) {
      const res = await visitor().get(`${PAGE}?${query}`);
      expect(res.status, query.slice(0, 200)).toBe(status);
      if (error) expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe(error);
      else expect(res.headers.get("location")).toBeNull();
    }
    const odd = await visitor().get(`${PAGE}?${q({ state: "\u0000<b>\u202e" })}`);
    expect(odd.status).toBe(200);
    expect(odd.html).not.toContain("<b>");
    const hostile: Record<string, string>[] = [
      { code: "oac_\u0000" },
      { code_verifier: `${"a".repeat(43)}\u0000` },
      { redirect_uri: "\u0000" },
      { code: "x".repeat(10_000) },
    ];
    for (const params of hostile) {
      const res = await o.post("/oauth/token", {
        grant_type: "authorization_code",
        client_id: "shelf-sync",
        code: `oac_${"x".repeat(43)}`,
        code_verifier: "a".repeat(43),
        ...params,
      });
      expect(res.status, JSON.stringify(params).slice(0, 80)).toBe(400);
      expect(["invalid_request", "invalid_grant"]).toContain(res.body.error);
    }
  });
});
