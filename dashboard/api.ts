// The public API, as the dashboard calls it: the session's access token in memory only
// (never in storage a script could read later), renewed from the refresh cookie
// (/v1/auth/refresh) at start and whenever a call answers 401. No private endpoints.
import type { paths } from "./api.gen.ts";

type Method = "get" | "post" | "put" | "patch" | "delete";
/** The methods the document lists for `P`: naming one it lacks is an error, not a silent `never`. */
type MethodOf<P extends keyof paths> = { [M in Method]: paths[P][M] extends { responses: unknown } ? M : never }[Method];
type JsonOf<R> = R extends { content: { "application/json": infer J } } ? J : never;

/**
 * The `data` of what `method path` answers with `status` (200 unless told), as the server's
 * OpenAPI document has it. The screens name the answers they read through this rather than
 * declaring them, so an answer the server changes shows as a type error here, not as a field
 * read as undefined in the browser. A path with parameters is named by its template
 * ("/v1/kbs/{id}").
 */
export type Answer<P extends keyof paths, M extends MethodOf<P>, S extends number = 200> = paths[P][M] extends { responses: infer R }
  ? S extends keyof R
    ? JsonOf<R[S]> extends { data: infer D }
      ? D
      : never
    : never
  : never;

/** The JSON body `method path` takes, as the document has it: a body checked against it cannot misname a field. */
export type Sent<P extends keyof paths, M extends MethodOf<P>> = paths[P][M] extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;

/** What signing in or renewing the session answers: the access token and who it is for. */
type Grant = Answer<"/v1/auth/refresh", "post">;
type User = Grant["user"];

/** An error the API answered, with its envelope's code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly meta?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const api = document.body.dataset.api ?? location.origin;
let token: string | null = null;
let user: User | null = null;
let refreshing: Promise<boolean> | null = null;

export const apiUrl = (path: string) => `${api}${path}`;

// Under the page's own policy (no-referrer) the Fetch standard has a POST to the page's own
// origin say `Origin: null`, and where no Sec-Fetch-Site is sent (plain http) the API refuses
// an opaque Origin on the routes the refresh cookie acts on: these calls name their origin.
const NAMES_ORIGIN: RequestInit = { credentials: "include", referrerPolicy: "same-origin" };

export const currentUser = () => user;
export const accessToken = () => token;

async function envelope<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T;
  const body = await res.json().catch(() => null);
  if (res.ok && body?.success) return body.data as T;
  throw new ApiError(res.status, body?.code ?? "INTERNAL", body?.error ?? `the service answered ${res.status}`, body?.meta);
}

// Whether this browser signed in before: without it the start skips /v1/auth/refresh, which
// would only answer 401 to a first visit. It holds no secret (the cookie is httpOnly).
const SESSION_HINT = "shelf.session";

function keep(grant: Grant) {
  token = grant.accessToken;
  user = grant.user;
  localStorage.setItem(SESSION_HINT, "1");
}

function forget() {
  token = null;
  user = null;
  localStorage.removeItem(SESSION_HINT);
}

/** Before leaving for a sign-in elsewhere (the OpenID provider): the start after it asks for the session it comes back with. */
export const expectSession = () => localStorage.setItem(SESSION_HINT, "1");

/** At start: the session of an earlier visit, if this browser had one. */
export const resume = () => (localStorage.getItem(SESSION_HINT) ? refresh() : Promise.resolve(false));

/** Renews the access token from the refresh cookie; false when there is no session. Concurrent callers share one request. */
export function refresh(): Promise<boolean> {
  refreshing ??= fetch(apiUrl("/v1/auth/refresh"), { ...NAMES_ORIGIN, method: "POST" })
    .then(async (res) => {
      if (!res.ok) {
        forget();
        return false;
      }
      keep(await envelope<Grant>(res));
      return true;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** A request with the access token; a 401 renews it once and tries again. A Blob (a file) goes as it is, anything else as JSON. */
async function send(method: string, path: string, body?: unknown): Promise<Response> {
  const json = body !== undefined && !(body instanceof Blob);
  const once = () =>
    fetch(apiUrl(path), {
      ...NAMES_ORIGIN,
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(json ? { "content-type": "application/json" } : {}) },
      body: json ? JSON.stringify(body) : (body as Blob | undefined),
    });
  const res = await once();
  return res.status === 401 && token && (await refresh()) ? once() : res;
}

/** A call with the access token: the envelope's data, or an ApiError. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  return envelope<T>(await send(method, path, body));
}

/** A GET whose answer is not JSON (a document's raw text, a render); a refusal is the envelope's ApiError. */
export async function callRaw(path: string): Promise<Response> {
  const res = await send("GET", path);
  if (!res.ok) await envelope(res);
  return res;
}

/**
 * Signs in with the password; with two factors on, no session yet: the challenge that
 * signInWithCode completes (the login's 401 TWO_FACTOR_REQUIRED).
 */
export async function signIn(email: string, password: string): Promise<SecondStep | undefined> {
  try {
    keep(await call<Answer<"/v1/auth/login", "post">>("POST", "/v1/auth/login", { email, password }));
  } catch (e) {
    if (e instanceof ApiError && e.code === "TWO_FACTOR_REQUIRED" && typeof e.meta?.challenge === "string") {
      const methods = Array.isArray(e.meta.methods) ? (e.meta.methods as string[]) : ["totp", "recovery_code"];
      return { challenge: e.meta.challenge, methods, passkey: (e.meta.passkey as Record<string, unknown> | null | undefined) ?? null };
    }
    throw e;
  }
  return undefined;
}

/** The second step a password sign-in asks for: its challenge, the methods the account has, a passkey's options when it has one. */
export interface SecondStep {
  challenge: string;
  methods: string[];
  passkey: Record<string, unknown> | null;
}

/** Completes a sign-in with two factors: the code of the authenticator app, a recovery code, or a passkey's answer. */
export async function signInWithCode(challenge: string, answer: { code: string } | { recoveryCode: string } | { passkey: unknown }) {
  keep(await call<Answer<"/v1/auth/login/2fa", "post">>("POST", "/v1/auth/login/2fa", { challenge, ...answer }));
}

/** Signs in with a passkey alone: the options, the browser's dialog (`ask`), the answer checked. */
export async function signInWithPasskey(ask: (options: Record<string, unknown>) => Promise<unknown>) {
  const { options } = await call<Answer<"/v1/auth/passkey/options", "post">>("POST", "/v1/auth/passkey/options");
  const response = await ask(options);
  keep(await call<Answer<"/v1/auth/passkey", "post">>("POST", "/v1/auth/passkey", { response }));
}

/** Creates the account and signs in; the answer says whether it was the instance's first and what the person should know (`notice`). */
/**
 * Creates the account and signs in; the answer says whether it was the instance's first and
 * what the person should know (`notice`). Where the operator asks new accounts to confirm
 * their address, no session comes back: `held` says what to do instead.
 */
export async function signUp(email: string, password: string, nickname?: string) {
  const answer = await call<Answer<"/v1/auth/signup", "post", 201> | Answer<"/v1/auth/signup", "post", 202>>("POST", "/v1/auth/signup", {
    email,
    password,
    ...(nickname ? { nickname } : {}),
  });
  if ("verificationRequired" in answer) return { held: answer.message };
  keep(answer);
  return { firstAccount: answer.firstAccount, notice: answer.notice };
}

/** Whether the instance has an account yet, and what its first one becomes (GET /v1/auth/setup, no credential). */
export type Setup = Answer<"/v1/auth/setup", "get">;
export const setupState = () => call<Setup>("GET", "/v1/auth/setup");

export async function signOut() {
  await call("POST", "/v1/auth/logout").catch(() => {});
  forget();
}

/** A private object from the media edge, fetched with the token, as a blob: URL for <img> or <audio>. */
export async function mediaBlobUrl(url: string): Promise<string> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new ApiError(res.status, "NOT_FOUND", "the file could not be loaded");
  return URL.createObjectURL(await res.blob());
}
