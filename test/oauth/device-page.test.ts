import { PASSKEY_SCRIPT, PASSKEY_SCRIPT_SOURCE } from "../../src/modules/oauth/pages/passkey-script.ts";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { servePage } from "../../src/modules/oauth/pages/layout.ts";
import { oauthDeviceAuthorizations } from "../../src/modules/oauth/table.ts";
import { PASSWORD } from "../helpers/factories.ts";
import { oauthApp } from "./flow.ts";
import { fieldOf, pageClient } from "./page-client.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp();

/** A signed-in page visitor of a fresh user at a fresh address. */
async function signedIn() {
  const user = await o.makeUser();
  const page = pageClient(o.app, { ip: o.ip() });
  const res = await page.signIn("/device", user.email, PASSWORD);
  expect(res.status).toBe(303);
  return { user, page };
}

const started = async (clientId = "shelf-sync") => {
  const res = await o.start(clientId);
  expect(res.status).toBe(200);
  return res.body as { user_code: string; device_code: string };
};
const statusOf = async (userCode: string) =>
  (
    await o.deps.db
      .select()
      .from(oauthDeviceAuthorizations)
      .where(eq(oauthDeviceAuthorizations.userCode, userCode.replace("-", "")))
  )[0]!.status;
/** How a person types a code: lower case, spaces where the dash was and around it. */
const typed = (userCode: string) => ` ${userCode.toLowerCase().replace("-", " ")} `;

describe("the device page's answers", () => {
  test("every answer is HTML that may not be framed, cached or leak its URL, and readable on a phone", async () => {
    const page = pageClient(o.app, { ip: o.ip() });
    for (const res of [await page.get("/device"), await page.postRaw("/device", { user_code: "ABCD-EFGH" })]) {
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      // The one script the pages run is the passkey form's, allowed by its hash alone.
      for (const directive of csp.split(";").filter((d) => d.trim().startsWith("script-src"))) {
        expect(directive.trim()).toBe(`script-src ${PASSKEY_SCRIPT_SOURCE}`);
      }
      expect(csp).not.toContain("unsafe-inline");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(res.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(res.html.replace(`<script>${PASSKEY_SCRIPT}</script>`, "")).not.toContain("<script");
    }
  });

  test("a first visit begins a page session: an httpOnly, SameSite=Lax cookie of the page's path alone, not Secure over http", async () => {
    const res = await pageClient(o.app, { ip: o.ip() }).get("/device");
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie();
    expect(cookie).toHaveLength(1);
    expect(cookie[0]).toMatch(/^shelf_page=[A-Za-z0-9_-]{22}; Path=\/device; HttpOnly; SameSite=Lax$/);
    expect(res.html).toContain('id="sign-in"');
  });

  test("the cookie is Secure when the service is reached over https", async () => {
    const secure = await oauthApp((d) => ({ config: { ...d.config, PUBLIC_URL: "https://shelf.test", CENTER_URL: "https://shelf.test" } }));
    const res = await secure.app.handle(new Request("https://shelf.test/device"));
    expect(res.headers.getSetCookie()[0]).toEndWith("; Secure");
  });

  test("the code of verification_uri_complete is carried through the sign-in form, escaped", async () => {
    const page = pageClient(o.app, { ip: o.ip() });
    const res = await page.get(`/device?user_code=${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(res.html).not.toContain("<script>alert(1)");
    expect(res.html).toContain('name="user_code" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });
});

describe("signing in on the device page", () => {
  test("the right password opens a session and comes back to the page with the code form, prefilled", async () => {
    const user = await o.makeUser();
    const page = pageClient(o.app, { ip: o.ip() });
    await page.get("/device?user_code=ABCD-EFGH");
    const res = await page.post("/device", { action: "sign_in", email: user.email, password: PASSWORD, user_code: "ABCD-EFGH" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("device?user_code=ABCD-EFGH");
    const cookies = res.headers.getSetCookie();
    // A new page session: the nonce changes, so no form token from before the sign-in holds.
    expect(cookies[0]).toMatch(/^shelf_page=[A-Za-z0-9_-]{22}; Path=\/device; HttpOnly; SameSite=Lax$/);
    // The browser session, for the dashboard (the refresh cookie) and both pages (the ticket).
    expect(cookies).toContainEqual(expect.stringMatching(/^shelf_refresh=[\w-]{43}; Path=\/v1\/auth; Max-Age=604800; HttpOnly; SameSite=Lax$/));
    for (const path of ["/oauth/authorize", "/device"]) {
      expect(cookies).toContainEqual(
        expect.stringMatching(new RegExp(`^shelf_session=[\\w-]+\\.\\d+\\.[\\w-]{43}; Path=${path}; Max-Age=604800; HttpOnly; SameSite=Lax$`)),
      );
    }
    const form = await page.get("/device?user_code=ABCD-EFGH");
    expect(form.html).toContain('id="code-form"');
    expect(form.html).toContain('value="ABCD-EFGH"');
    expect(form.html).toContain(user.email);
  });

  test("a wrong password shows the sign-in form again with the error, and opens no session", async () => {
    const user = await o.makeUser();
    const page = pageClient(o.app, { ip: o.ip() });
    await page.get("/device");
    const res = await page.post("/device", { action: "sign_in", email: user.email, password: "not the password" });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.html).toContain("Wrong email or password.");
    expect(res.html).toContain(`value="${user.email}"`);
    expect((await page.get("/device")).html).toContain('id="sign-in"');
  });

  test("an email that could not be an account's (a control character) is a wrong password, not a failure", async () => {
    const page = pageClient(o.app, { ip: o.ip() });
    await page.get("/device");
    expect((await page.post("/device", { action: "sign_in", email: "a\u0000@example.test", password: "x" })).status).toBe(401);
  });

  test("the login limits hold on the page: over 10 failures for an email, 429 with Retry-After, also for the right password", async () => {
    const user = await o.makeUser();
    const page = pageClient(o.app, { ip: o.ip() });
    await page.get("/device");
    for (let i = 0; i < 10; i++) expect((await page.post("/device", { action: "sign_in", email: user.email, password: "wrong" })).status).toBe(401);
    const res = await page.post("/device", { action: "sign_in", email: user.email, password: PASSWORD });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(res.html).toContain("Too many failed sign-in attempts");
  });

  test("signing in on the page signs the dashboard in; signing out there ends that session too", async () => {
    const { page } = await signedIn();
    const refreshToken = page.jar.get("shelf_refresh")!;
    const refresh = (token: string) =>
      o.app.handle(new Request("http://shelf.test/v1/auth/refresh", { method: "POST", headers: { cookie: `shelf_refresh=${token}` } }));
    const first = await refresh(refreshToken);
    expect(first.status).toBe(200);
    const rotated = /^shelf_refresh=([\w-]+);/.exec(first.headers.getSetCookie().find((c) => c.startsWith("shelf_refresh="))!)![1]!;
    await page.get("/device");
    const out = await page.post("/device", { action: "sign_out" });
    expect(out.status).toBe(303);
    expect(page.jar.get("shelf_page")).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(page.jar.has("shelf_session")).toBe(false);
    expect(page.jar.has("shelf_refresh")).toBe(false);
    expect((await refresh(rotated)).status).toBe(401);
    expect((await page.get("/device")).html).toContain('id="sign-in"');
  });

  test("once the session ends on the dashboard, or its ticket is a week old, Approve gets the sign-in form again, the code carried, and decides nothing", async () => {
    const { user_code } = await started();
    const { page } = await signedIn();
    await page.post("/device", { user_code });
    const logout = await o.app.handle(
      new Request("http://shelf.test/v1/auth/logout", { method: "POST", headers: { cookie: `shelf_refresh=${page.jar.get("shelf_refresh")}` } }),
    );
    expect(logout.status).toBe(204);
    const res = await page.post("/device", { user_code, decision: "approve" });
    expect(res.status).toBe(401);
    expect(res.html).toContain('id="sign-in"');
    expect(fieldOf(res.html, "user_code")).toBe(user_code);
    expect(await statusOf(user_code)).toBe("pending");

    const again = await signedIn();
    await again.page.post("/device", { user_code });
    o.clock.advance(7 * 86_400_000 + 1000);
    const late = await again.page.post("/device", { user_code, decision: "approve" });
    expect(late.status).toBe(401);
    expect(late.html).toContain('id="sign-in"');
    expect(await statusOf(user_code)).toBe("pending");
  });

  test("a code posted without a signed-in page session gets the sign-in form (401) and decides nothing", async () => {
    const { user_code } = await started();
    const page = pageClient(o.app, { ip: o.ip() });
    await page.get("/device");
    const res = await page.post("/device", { user_code, decision: "approve" });
    expect(res.status).toBe(401);
    expect(res.html).toContain('id="sign-in"');
    expect(await statusOf(user_code)).toBe("pending");
  });
});

describe("CSRF and Origin", () => {
  test("a form without the token, with a wrong one, or with another page session's is 403 and changes nothing", async () => {
    const { user_code } = await started();
    const { page } = await signedIn();
    const other = await signedIn();
    await other.page.get("/device");
    await page.get("/device");
    for (const csrf of [undefined, "x".repeat(43), other.page.csrf()!]) {
      const res = await page.postRaw("/device", { ...(csrf === undefined ? {} : { csrf }), user_code, decision: "approve" });
      expect(res.status).toBe(403);
      expect(res.html).toContain('id="csrf-refused"');
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    }
    expect(await statusOf(user_code)).toBe("pending");
  });

  test("a token of the device page is no token for another page, even with the same page session", async () => {
    const { page } = await signedIn();
    await page.get("/device");
    const csrf = page.csrf()!;
    // The consent page's form, as a forger holding the device page's cookie and token would send it.
    const res = await page.postRaw("/oauth/authorize", { csrf, action: "sign_out" });
    expect(res.status).toBe(403);
    expect(res.html).toContain('id="csrf-refused"');
  });

  test("a sign-in without the token is 403 and opens no session", async () => {
    const user = await o.makeUser();
    const page = pageClient(o.app, { ip: o.ip() });
    await page.get("/device");
    const res = await page.postRaw("/device", { action: "sign_in", email: user.email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  test("a post without any page session (no cookie) is 403", async () => {
    const page = pageClient(o.app, { ip: o.ip() });
    expect((await page.postRaw("/device", { csrf: "x", user_code: "ABCD-EFGH" })).status).toBe(403);
  });

  test("the right token from another site (Sec-Fetch-Site, or an Origin that names another) is 403; the page's own is let in", async () => {
    const { user_code } = await started();
    const { page } = await signedIn();
    await page.get("/device");
    const csrf = page.csrf()!;
    const foreign: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "http://shelf.test.evil.example" },
      { "sec-fetch-site": "cross-site", origin: "null" },
      { "sec-fetch-site": "same-site", origin: "http://shelf.test" },
    ];
    for (const headers of foreign) expect((await page.postRaw("/device", { csrf, user_code, decision: "approve" }, headers)).status).toBe(403);
    expect(await statusOf(user_code)).toBe("pending");
    // What a browser sends for the page's own form under its Referrer-Policy no-referrer.
    const own = await page.postRaw("/device", { csrf, user_code, decision: "approve" }, { "sec-fetch-site": "same-origin", origin: "null" });
    expect(own.status).toBe(200);
    expect(await statusOf(user_code)).toBe("approved");
  });

  test("without Sec-Fetch-Site or Origin (older clients) the token decides", async () => {
    const user = await o.makeUser();
    const page = pageClient(o.app, { ip: o.ip(), origin: null });
    expect((await page.signIn("/device", user.email, PASSWORD)).status).toBe(303);
  });

  test("a body that is not a form is 400", async () => {
    const res = await o.app.handle(new Request("http://shelf.test/device", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
    expect(res.status).toBe(400);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  test("a form far larger than the page sends (over 16 KiB) is a 400 page that says so in words; the connection closes", async () => {
    const body = `action=sign_in&email=a%40example.test&pad=${"x".repeat(20 * 1024)}`;
    const res = await o.app.handle(
      new Request("http://shelf.test/device", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("connection")).toBe("close");
    expect(res.headers.get("content-type")).toStartWith("text/html");
    expect(await res.text()).toContain("This form is far larger than the page sends");
  });
});

describe("deciding on a code", () => {
  test("a code typed in lower case with spaces shows the app and its scopes in words; Approve gives the polling device its tokens", async () => {
    const { user_code, device_code } = await started();
    const { user, page } = await signedIn();
    await page.get("/device");
    const review = await page.post("/device", { user_code: typed(user_code) });
    expect(review.status).toBe(200);
    expect(review.html).toContain('<strong class="name" id="client-name">Shelf Sync</strong>');
    expect(review.html).toContain(`<code>${user_code}</code>`);
    expect(review.html).toContain("Read your knowledge bases and documents");
    expect(review.html).not.toContain("Delete your images");
    expect(review.html).not.toContain('id="unverified"');
    // Looking at a code decides nothing.
    expect(await statusOf(user_code)).toBe("pending");
    expect(fieldOf(review.html, "user_code")).toBe(user_code);
    const done = await page.post("/device", { user_code, decision: "approve" });
    expect(done.status).toBe(200);
    expect(done.html).toContain("Return to your device");
    const tokens = await o.poll(device_code);
    expect(tokens.status).toBe(200);
    // The grant is the signed-in user's: it is in their list of authorized apps.
    const grants = await o.api("GET", "/v1/user/me/oauth-grants", user.jwt);
    expect(grants.body.data.items.map((g: { clientId: string }) => g.clientId)).toEqual(["shelf-sync"]);
    const someoneElse = await o.makeUser();
    expect((await o.api("GET", "/v1/user/me/oauth-grants", someoneElse.jwt)).body.data.items).toEqual([]);
    expect((await o.api("GET", "/v1/kbs", tokens.body.access_token)).status).toBe(200);
  });

  test("Deny: the page says so and the device gets access_denied", async () => {
    const { user_code, device_code } = await started();
    const { page } = await signedIn();
    await page.get("/device");
    await page.post("/device", { user_code: typed(user_code) });
    const done = await page.post("/device", { user_code, decision: "deny" });
    expect(done.status).toBe(200);
    expect(done.html).toContain("was not given access");
    expect((await o.poll(device_code)).body.error).toBe("access_denied");
  });

  test("a wrong code shows the code form again with the error (404), the typed code kept", async () => {
    const { page } = await signedIn();
    await page.get("/device");
    const res = await page.post("/device", { user_code: "zzzz-zzzz" });
    expect(res.status).toBe(404);
    expect(res.html).toContain("No such code; check what the device shows.");
    expect(res.html).toContain('value="zzzz-zzzz"');
  });

  test("wrong codes on the page count with the API's: after 10, even a right code is 429 on the page and at /v1/oauth/device/verify", async () => {
    const { user_code } = await started();
    const { user, page } = await signedIn();
    await page.get("/device");
    for (let i = 0; i < 10; i++) expect((await page.post("/device", { user_code: `ZZZZ-ZZZ${"23456789AB"[i]}` })).status).toBe(404);
    const res = await page.post("/device", { user_code });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(res.html).toContain("Too many wrong codes");
    expect((await o.verify(user, user_code)).status).toBe(429);
    expect(await statusOf(user_code)).toBe("pending");
  });

  test("wrong codes from one address count across its users: past 50, the next user's right code is 429 too", async () => {
    const { user_code } = await started();
    const from = o.ip();
    for (let u = 0; u < 5; u++) {
      const user = await o.makeUser();
      const page = pageClient(o.app, { ip: from });
      await page.signIn("/device", user.email, PASSWORD);
      for (let i = 0; i < 10; i++) expect((await page.post("/device", { user_code: `wrong ${u} ${i}` })).status).toBe(404);
    }
    const last = pageClient(o.app, { ip: from });
    await last.signIn("/device", (await o.makeUser()).email, PASSWORD);
    const res = await last.post("/device", { user_code, decision: "approve" });
    expect(res.status).toBe(429);
    expect(await statusOf(user_code)).toBe("pending");
  });

  test("an expired code says so", async () => {
    const { user_code } = await started();
    const { page } = await signedIn();
    await page.get("/device");
    o.clock.advance(601_000);
    const res = await page.post("/device", { user_code });
    expect(res.status).toBe(404);
    expect(res.html).toContain("This code has expired; start again on the device.");
  });

  test("a code already decided says so (409) and is not decided again", async () => {
    const { user_code } = await started();
    const { user, page } = await signedIn();
    expect((await o.verify(user, user_code, "deny")).status).toBe(200);
    await page.get("/device");
    const res = await page.post("/device", { user_code, decision: "approve" });
    expect(res.status).toBe(409);
    expect(await statusOf(user_code)).toBe("denied");
  });

  test("a registered client's name is shown escaped, with the unverified warning while it is pending", async () => {
    const reg = await o.call("POST", "/oauth/register", {
      app: o.app,
      json: { client_name: "<script>alert(1)</script> & Co", grant_types: ["urn:ietf:params:oauth:grant-type:device_code"], scope: "media.read" },
      headers: { "x-forwarded-for": o.ip() },
    });
    expect(reg.status).toBe(201);
    const { user_code } = await started(((await reg.json()) as { client_id: string }).client_id);
    const { page } = await signedIn();
    await page.get("/device");
    const review = await page.post("/device", { user_code });
    expect(review.html).not.toContain("<script>alert(1)");
    expect(review.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co");
    expect(review.html).toContain('id="unverified"');
    expect(review.html).toContain("See your images, videos and audio and their details");
    const done = await page.post("/device", { user_code, decision: "approve" });
    expect(done.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co");
  });
});

describe("when the kv cannot count", () => {
  test("codes are not looked at (503, fail closed)", async () => {
    let failing = false;
    const broken = await oauthApp((d) => ({
      kv: new Proxy(d.kv, {
        get: (kv, k) =>
          k === "incr"
            ? (...args: Parameters<typeof kv.incr>) => (failing && args[0].startsWith("oauth-code-fail") ? Promise.reject(new Error("down")) : kv.incr(...args))
            : Reflect.get(kv, k),
      }),
    }));
    const user = await broken.makeUser();
    const page = pageClient(broken.app, { ip: broken.ip() });
    expect((await page.signIn("/device", user.email, PASSWORD)).status).toBe(303);
    const { user_code } = (await broken.start()).body;
    await page.get("/device");
    failing = true;
    const res = await page.post("/device", { user_code, decision: "approve" });
    expect(res.status).toBe(503);
    expect(res.html).toContain("briefly unavailable");
  });
});

describe("where the page is mounted", () => {
  test("with CENTER_URL elsewhere, the cookie's path is the page's path there, and posts from that origin are the page's own", async () => {
    const center = await oauthApp((d) => ({ config: { ...d.config, CENTER_URL: "http://center.test/app" } }));
    const started = await center.start();
    expect(started.body.verification_uri).toBe("http://center.test/app/device");
    const user = await center.makeUser();
    const page = pageClient(center.app, { ip: center.ip(), origin: "http://center.test" });
    const first = await page.get("/device");
    expect(first.headers.getSetCookie()[0]).toContain("; Path=/app/device;");
    const res = await page.post("/device", { action: "sign_in", email: user.email, password: PASSWORD });
    expect(res.status).toBe(303);
  });
});

describe("a failure the page did not expect", () => {
  test("is a 500 page with the same security headers that says nothing of it, and is logged", async () => {
    const logged: unknown[] = [];
    const log = { ...o.deps.log, error: (...args: unknown[]) => logged.push(args) };
    const res = await servePage(log, new Request("http://shelf.test/device"), async () => {
      throw new Error("secret detail at /srv/shelf");
    });
    expect(res.status).toBe(500);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.text();
    expect(body).toContain("Something went wrong");
    expect(body).not.toContain("secret detail");
    expect(logged).toHaveLength(1);
  });
});
