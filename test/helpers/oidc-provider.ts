// A real OpenID provider for the tests: oidc-provider (panva's certified implementation)
// listening on a loopback port, with a client registered for shelf and people whose
// addresses are verified or not. A test walks its own login and consent forms as a browser
// would, following each redirect by hand, and gets the callback URL the provider sends the
// browser back to shelf with.
//
// For the attacks the provider cannot be asked to make (an ID token with a wrong nonce,
// audience or expiry), `tamper` rewrites the claims of the next ID token its token endpoint
// answers, signed again with the provider's own key: the signature is right, the claims are
// not, and only shelf's checks stand in the way.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import Provider from "oidc-provider";

const SHELF_CALLBACK = "http://shelf.test/v1/auth/oidc/callback";

interface Person {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export async function startOidcProvider(opts: { clientId?: string; clientSecret?: string; redirectUris?: string[] } = {}) {
  const clientId = opts.clientId ?? "shelf";
  const clientSecret = opts.clientSecret ?? "a-client-secret-a-client-secret-0123";
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const people = new Map<string, Person>();
  let tampers: ((claims: JWTPayload) => JWTPayload)[] = [];

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris ?? [SHELF_CALLBACK],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [jwk] },
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The claims go into the ID token itself, as many providers do (no userinfo call).
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub, ...people.get(sub) }) }),
    ttl: { Interaction: 600, Session: 600, Grant: 600, AuthorizationCode: 60, AccessToken: 600, IdToken: 3600 },
    features: { devInteractions: { enabled: true } },
  });
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    const tamper = tampers.shift();
    if (ctx.path === "/token" && tamper && body?.id_token) {
      const claims = tamper(decodeJwt(body.id_token));
      ctx.body = { ...body, id_token: await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: jwk.kid }).sign(privateKey) };
    } else if (tamper) tampers.unshift(tamper);
  });
  server.on("request", provider.callback());

  /** A browser at the provider: its own cookie jar. */
  function browser() {
    const jar = new Map<string, string>();
    const get = async (url: string, init: RequestInit = {}) => {
      const res = await fetch(url, {
        ...init,
        redirect: "manual",
        headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(";");
        const eq = pair!.indexOf("=");
        jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
      return res;
    };
    const formAction = (html: string) => /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    return {
      /**
       * Follows the provider's redirects from its authorization URL, signing in as `sub` on
       * its login form and approving on its consent form: the URL it sends the browser to
       * at the end (shelf's callback, with code, state and iss; or an error).
       */
      async signIn(authorizationUrl: string, sub: string): Promise<URL> {
        let url = authorizationUrl;
        for (let hop = 0; hop < 12; hop++) {
          const res = await get(url);
          if (res.status >= 300 && res.status < 400) {
            const next = new URL(res.headers.get("location")!, url);
            if (!next.href.startsWith(issuer)) return next;
            url = next.href;
            continue;
          }
          const html = await res.text();
          const action = formAction(html);
          if (res.status !== 200 || !action) throw new Error(`the provider answered ${res.status}: ${html.slice(0, 300)}`);
          const form: Record<string, string> = html.includes('name="login"') ? { prompt: "login", login: sub, password: "any" } : { prompt: "consent" };
          const posted = await get(new URL(action, url).href, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams(form).toString(),
          });
          if (posted.status < 300 || posted.status >= 400) throw new Error(`the provider's form answered ${posted.status}`);
          url = new URL(posted.headers.get("location")!, url).href;
          if (!url.startsWith(issuer)) return new URL(url);
        }
        throw new Error("too many redirects at the provider");
      },
    };
  }

  return {
    issuer,
    clientId,
    clientSecret,
    /** A person who can sign in at the provider as `sub`. */
    person(sub: string, p: Person) {
      people.set(sub, p);
    },
    browser,
    /** Rewrites the claims of the next ID token the token endpoint answers. */
    tamper(change: (claims: JWTPayload) => JWTPayload) {
      tampers.push(change);
    },
    /** How many tampers wait for a token answer (0 once the ID token was rewritten). */
    pendingTampers: () => tampers.length,
    clearTampers() {
      tampers = [];
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type TestProvider = Awaited<ReturnType<typeof startOidcProvider>>;
