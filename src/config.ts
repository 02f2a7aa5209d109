// The environment, read once into a typed, frozen Config. Nothing else in the code
// reads process.env: factories receive the Config they need.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { Type as T, type Static, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { PLAN_NAMES, type PlanOverrides, PlanOverridesSchema } from "./core/plans.ts";
import { buildRateLimits, type RateLimits, RateLimitsSchema } from "./http/rate-tiers.ts";
import { buildFirstPartyClients, type FirstPartyClient, FirstPartyClientsSchema } from "./modules/oauth/first-party-clients.ts";
import { type MediaCorsOrigins, parseMediaCorsOrigins } from "./modules/edge/cors-origins.ts";
import { PLATFORM_VIDEO_PROVIDERS, Platform, type PlatformName, platformProblems, type VideoProviderName } from "./platforms.ts";

const Url = T.String({ pattern: "^https?://[^\\s/]+(/[^\\s]*)?$" });
const LogLevel = T.Union([T.Literal("debug"), T.Literal("info"), T.Literal("warn"), T.Literal("error"), T.Literal("silent")]);
const Plan = T.Union(PLAN_NAMES.map((p) => T.Literal(p)));
/** Every variable shelf reads: its schema, its default and what it is for (the table in docs/operators.md). */
export const variables = {
  PORT: { schema: T.Integer({ minimum: 0, maximum: 65535 }), default: 8080, doc: "HTTP port of the api role" },
  HOST: { schema: T.String({ minLength: 1 }), default: "0.0.0.0", doc: "address the api role binds" },
  REUSE_PORT: {
    schema: T.Boolean(),
    default: false,
    doc: "let several processes listen on PORT at once (SO_REUSEPORT, each must set it; Linux spreads connections among them); off, a process whose port is taken refuses to start",
  },
  PUBLIC_URL: {
    schema: Url,
    default: undefined,
    doc: "the API's public {base_url}; unset = the address each request came to (localhost, 127.0.0.1, the machine's name or LAN address all work), and http://localhost:PORT for jobs and mail; set, other addresses are sent to it",
  },
  MEDIA_URL: { schema: Url, default: undefined, doc: "public address of the media edge; default PUBLIC_URL/media" },
  MEDIA_CORS_ORIGINS: {
    schema: T.String(),
    default: "*",
    doc: "web origins whose pages may read media edge answers (CORS; players, image tools): * = any, none = no CORS headers, or a comma-separated list of exact origins (https://player.example.com), each answered with its own origin and Vary: Origin",
  },
  CENTER_URL: {
    schema: Url,
    default: undefined,
    doc: "the dashboard address: the api role serves the dashboard at its path (default the root, API paths untouched) and the device page below it; default PUBLIC_URL",
  },
  PASSKEY_RP_ID: {
    schema: T.String({ pattern: "^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$", maxLength: 253 }),
    default: undefined,
    doc: "the WebAuthn relying party ID passkeys are made for: a domain that CENTER_URL's and PUBLIC_URL's hosts are, or end in (example.com for center.example.com and api.example.com); default CENTER_URL's host. Passkeys made for one RP ID work for no other: changing it makes every passkey unusable",
  },
  PUBLISH_HOST: {
    schema: T.String({ pattern: "^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?$" }),
    default: undefined,
    doc: "a host whose subdomains serve published KBs (pages.example.com: a site at https://<slug>.pages.example.com/, its DNS a wildcard to the api nodes); unset = sites only at CENTER_URL/p/<slug>",
  },
  MCP_URL: {
    schema: Url,
    default: undefined,
    doc: "the hosted MCP server's address, served by every api node at its path (OAuth tokens must be issued for exactly it); default PUBLIC_URL/mcp",
  },
  MCP_ALLOWED_ORIGINS: {
    schema: T.String(),
    default: "",
    doc: "web origins besides those of PUBLIC_URL, MCP_URL and CENTER_URL whose pages may call the MCP server (comma-separated; a request with any other Origin is refused, against DNS rebinding)",
  },
  DATA_DIR: {
    schema: T.String({ minLength: 1 }),
    default: undefined,
    doc: "embedded database, objects, generated secret and admin socket; default, whatever the working directory: the checkout's data/ when run from source, $XDG_DATA_HOME/shelf (~/.local/share/shelf) for the binary",
  },
  DATABASE_URL: { schema: T.String({ pattern: "^postgres(ql)?://" }), default: undefined, doc: "Postgres; unset = embedded PGlite in DATA_DIR/pg" },
  DATABASE_POOL_MAX: { schema: T.Integer({ minimum: 1, maximum: 500 }), default: 10, doc: "Postgres connections per process" },
  REDIS_URL: { schema: T.String({ pattern: "^rediss?://" }), default: undefined, doc: "Redis; unset = in-process kv (single node only)" },
  S3_BUCKET: { schema: T.String({ minLength: 1 }), default: undefined, doc: "S3 bucket; unset = objects in DATA_DIR/objects" },
  S3_ENDPOINT: { schema: Url, default: undefined, doc: "S3-compatible endpoint (MinIO, R2, ...)" },
  S3_REGION: { schema: T.String({ minLength: 1 }), default: "us-east-1", doc: "S3 region" },
  S3_ACCESS_KEY_ID: { schema: T.String({ minLength: 1 }), default: undefined, doc: "S3 access key" },
  S3_SECRET_ACCESS_KEY: { schema: T.String({ minLength: 1 }), default: undefined, doc: "S3 secret key" },
  JWT_SECRET: {
    schema: T.String({ minLength: 32 }),
    default: undefined,
    doc: "signs session tokens; required with DATABASE_URL, else generated into DATA_DIR/jwt-secret",
  },
  PLATFORM: {
    schema: Platform,
    default: "overseas",
    doc: "overseas | mainland: mainland checks every upload (COMPLIANCE_*) and allows only its own video providers",
  },
  COMPLIANCE_BLOCKLIST_FILE: {
    schema: T.String({ minLength: 1 }),
    default: undefined,
    doc: "mainland: a file of blocked content, one `sha256:<64 hex>` or `keyword:<text>` a line (`#` comments), read at start",
  },
  COMPLIANCE_BLOCKED_HASHES: {
    schema: T.String({ pattern: "^\\s*[0-9A-Fa-f]{64}\\s*(,\\s*[0-9A-Fa-f]{64}\\s*)*,?\\s*$" }),
    default: undefined,
    doc: "mainland: comma-separated SHA-256 hashes (hex) of uploaded bytes that are refused (451)",
  },
  COMPLIANCE_KEYWORDS: {
    schema: T.String({ minLength: 1 }),
    default: undefined,
    doc: "mainland: comma-separated keywords refused anywhere in a document's text (case-insensitive, NFKC)",
  },
  COMPLIANCE_WEBHOOK_URL: { schema: Url, default: undefined, doc: "mainland: the moderation service every upload is sent to after the blocklist" },
  COMPLIANCE_WEBHOOK_SECRET: {
    schema: T.String({ minLength: 16 }),
    default: undefined,
    doc: "signs moderation requests (header x-shelf-signature: sha256=HMAC of the body)",
  },
  COMPLIANCE_WEBHOOK_TIMEOUT_MS: {
    schema: T.Integer({ minimum: 1, maximum: 120000 }),
    default: 5000,
    doc: "a moderation answer later than this fails the upload (502 DEPENDENCY_UNAVAILABLE)",
  },
  COMPLIANCE_WEBHOOK_INLINE_BYTES: {
    schema: T.Integer({ minimum: 0, maximum: 104857600 }),
    default: 8388608,
    doc: "images up to this size are sent to the moderation service in the request (base64); larger ones and videos as hash and size only",
  },
  LOG_LEVEL: { schema: LogLevel, default: "info", doc: "debug | info | warn | error | silent" },
  ACCESS_LOG: {
    schema: T.Union([T.Literal("info"), T.Literal("debug"), T.Literal("off"), T.Literal("true"), T.Literal("false")]),
    default: "info",
    doc: "one line per request (docs/operators.md, Logs): info (also true) | debug (written only with LOG_LEVEL=debug) | off (also false)",
  },
  METRICS_TOKEN: {
    schema: T.String({ minLength: 16 }),
    default: undefined,
    doc: "turns the Prometheus metrics on: GET /metrics answers with `Authorization: Bearer <this>` only, 404 to anything else (docs/operators.md, Metrics); unset with METRICS_ADDRESS unset, metrics are off and /metrics is 404",
  },
  METRICS_ADDRESS: {
    schema: T.String({ pattern: "^[^\\s]*:[0-9]{1,5}$" }),
    default: undefined,
    doc: "host:port of a listener of its own for GET /metrics (every role, workers included; METRICS_TOKEN still required if set), and the api port's /metrics is then 404",
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    schema: Url,
    default: undefined,
    doc: "an OpenTelemetry collector's OTLP/HTTP address (http://collector:4318): requests, jobs and transcodes are sent to its /v1/traces as spans (docs/operators.md, Traces); unset = no traces, and nothing of OpenTelemetry is loaded",
  },
  OTEL_SERVICE_NAME: { schema: T.String({ minLength: 1, maxLength: 100 }), default: "shelf", doc: "the service.name of the spans sent" },
  TRUST_PROXY: { schema: T.Boolean(), default: false, doc: "take the client address from X-Forwarded-For (behind a proxy or CDN)" },
  SHUTDOWN_GRACE_MS: { schema: T.Integer({ minimum: 0, maximum: 600000 }), default: 10000, doc: "how long SIGTERM waits for in-flight requests" },
  MIGRATE_ON_START: { schema: T.Boolean(), default: true, doc: "apply migrations when `serve` starts" },
  DEFAULT_PLAN: { schema: Plan, default: "trial", doc: `the plan of a new account (${PLAN_NAMES.join(" | ")})` },
  FIRST_USER_PLAN: {
    schema: Plan,
    default: "pro_plus",
    doc: "the plan of the first account created on an instance with no accounts (sign-up or `shelf admin user create`); default the largest",
  },
  FIRST_USER_ADMIN: {
    schema: T.Boolean(),
    default: true,
    doc: "the first account created on an instance with no accounts is an admin on FIRST_USER_PLAN; false on a public instance, where every account gets DEFAULT_PLAN",
  },
  SIGNUP_EMAIL_VERIFICATION: {
    schema: T.Boolean(),
    default: false,
    doc: "a new sign-up must open a link mailed to its address before it can sign in (needs SMTP_URL); the instance's first account is not held back",
  },
  OIDC_ISSUER: {
    schema: Url,
    default: undefined,
    doc: "an OpenID Connect provider people may sign in through (its issuer, e.g. https://auth.example.com/application/o/shelf/); its discovery document is read at the first sign-in, not at start; http only on the loopback. Register PUBLIC_URL/v1/auth/oidc/callback as the redirect URI",
  },
  OIDC_CLIENT_ID: { schema: T.String({ minLength: 1, maxLength: 255 }), default: undefined, doc: "shelf's client id at OIDC_ISSUER (set with it)" },
  OIDC_CLIENT_SECRET: {
    schema: T.String({ minLength: 1, maxLength: 1024 }),
    default: undefined,
    doc: "shelf's client secret at OIDC_ISSUER (client_secret_basic); unset = a public client, PKCE alone",
  },
  OIDC_NAME: {
    schema: T.String({ minLength: 1, maxLength: 40 }),
    default: "single sign-on",
    doc: 'the provider\'s name on the sign-in button: "Sign in with <name>" (e.g. Authentik)',
  },
  OIDC_SIGNUP: {
    schema: T.Boolean(),
    default: false,
    doc: "a first sign-in through OIDC_ISSUER with an address no account has makes an account (the provider must say the address is verified); off, only existing accounts may sign in through it (linked by a verified address)",
  },
  OIDC_SCOPES: {
    schema: T.String({ pattern: "^openid( [A-Za-z0-9_.:-]+)*$" }),
    default: "openid email profile",
    doc: "the scopes asked of the provider, space-separated, openid first; email must give the email and email_verified claims",
  },
  PLAN_OVERRIDES: { schema: T.String(), default: undefined, doc: 'JSON overriding plan limits, e.g. {"trial":{"imageStorageBytes":1e9}}' },
  RATE_LIMITS: {
    schema: T.String(),
    default: undefined,
    doc: 'JSON overriding the per-user, per-minute request limits of the rate tiers; default {"read":600,"mutation":120,"upload":60,"file":600}',
  },
  OAUTH_FIRST_PARTY_CLIENTS: {
    schema: T.String(),
    default: undefined,
    doc: 'JSON overriding the first-party OAuth clients\' id, name, scopes or redirectUris (https, or http on the loopback, where a request may name any port); default {"sync":{"id":"shelf-sync","name":"Shelf Sync","scopes":["media.read","media.write","kb.read","kb.write"],"redirectUris":["http://127.0.0.1/oauth/callback","http://[::1]/oauth/callback"]},"media":{"id":"shelf-media","name":"Shelf Media","scopes":["media.read","media.write"],"redirectUris":["http://127.0.0.1/oauth/callback","http://[::1]/oauth/callback"]},"agent":{"id":"shelf-agent","name":"Shelf Agent","scopes":["kb.read","kb.write","media.read","media.write","usage.read"],"redirectUris":["http://127.0.0.1/oauth/callback","http://[::1]/oauth/callback"]}}',
  },
  UPLOAD_BODY_TIMEOUT_S: {
    schema: T.Integer({ minimum: 1, maximum: 86400 }),
    default: 300,
    doc: "an upload's whole body must arrive within this (a slow client is cut off with 408)",
  },
  RESUMABLE_UPLOAD_EXPIRY_H: {
    schema: T.Integer({ minimum: 1, maximum: 720 }),
    default: 24,
    doc: "a resumable upload (/v1/uploads) not finished this many hours after it was created expires: its bytes are deleted and its reserved storage given back",
  },
  UPLOAD_MEMORY_BYTES: {
    schema: T.Integer({ minimum: 1048576 }),
    default: 536870912,
    doc: "bytes of upload bodies one node holds in memory at once; past it uploads wait, then 503",
  },
  BUSY_WAIT_MS: {
    schema: T.Integer({ minimum: 0, maximum: 600000 }),
    default: 5000,
    doc: "how long an upload waits for upload memory or image work before 503 with Retry-After",
  },
  IMAGE_WORK_CONCURRENCY: { schema: T.Integer({ minimum: 0, maximum: 256 }), default: 0, doc: "images decoded or encoded at once per node; 0 = one per core" },
  IMAGE_WORK_PIXEL_BYTES: {
    schema: T.Integer({ minimum: 16777216 }),
    default: 1073741824,
    doc: "decoded pixel bytes in flight per node (an image alone may use all of it)",
  },
  IMAGE_SIZES: {
    schema: T.String({ pattern: "^\\s*([1-9][0-9]{0,3}\\s*(,\\s*[1-9][0-9]{0,3}\\s*)*)?$" }),
    default: "",
    doc: 'widths and heights (pixels, comma-separated, at most 9999) an image URL\'s ?w= and ?h= may ask for besides the built-in set (docs/api.md, "Image sizes")',
  },
  IMAGE_WORK_TIMEOUT_S: { schema: T.Integer({ minimum: 1, maximum: 3600 }), default: 60, doc: "a decode or encode running longer is abandoned (422)" },
  // The maxima are the renderer's own (librsvg: 256 levels, 1,000,000 elements; svg-precheck.ts):
  // a file within a higher setting would pass the pre-check and then be refused unnamed.
  SVG_MAX_DEPTH: {
    schema: T.Integer({ minimum: 8, maximum: 256 }),
    default: 256,
    doc: "deepest element nesting an SVG may have (at most 256: the renderer reads no deeper)",
  },
  SVG_MAX_ELEMENTS: {
    schema: T.Integer({ minimum: 100, maximum: 1000000 }),
    default: 20000,
    doc: "elements an SVG may have (sanitizing costs ~13 KB and ~0.1 ms each; at most 1,000,000, the renderer's own limit)",
  },
  SVG_SANITIZE_TIMEOUT_MS: {
    schema: T.Integer({ minimum: 100, maximum: 600000 }),
    default: 5000,
    doc: "an SVG sanitizing worker running longer is killed (422)",
  },
  TYPST_TIMEOUT_MS: {
    schema: T.Integer({ minimum: 100, maximum: 600000 }),
    default: 5000,
    doc: "a Typst compile (the check of an upload, a render) running longer is killed: the upload gets a warning, a render 422",
  },
  TYPST_MEMORY_MB: {
    schema: T.Integer({ minimum: 64, maximum: 65536 }),
    default: 512,
    doc: "a Typst compile process whose resident memory passes this is killed, as at the time bound",
  },
  TYPST_CONCURRENCY: {
    schema: T.Integer({ minimum: 1, maximum: 256 }),
    default: 2,
    doc: "Typst compile processes at once per node; more wait up to BUSY_WAIT_MS",
  },
  PASSWORD_HASH_MEMORY_KIB: {
    schema: T.Integer({ minimum: 64, maximum: 4194304 }),
    default: 65536,
    doc: "argon2id memory cost; lower it only for tests (test/setup.ts uses 256)",
  },
  PASSWORD_HASH_TIME_COST: {
    schema: T.Integer({ minimum: 1, maximum: 20 }),
    default: 2,
    doc: "argon2id iterations; lower it only for tests (test/setup.ts uses 1)",
  },
  REFRESH_REUSE_GRACE_S: {
    schema: T.Integer({ minimum: 0, maximum: 60 }),
    default: 5,
    doc: "a rotated refresh token presented again this soon returns the same successor (two tabs)",
  },
  SYNC_V1_DEPRECATED_AT: {
    schema: T.String({ format: "date-time" }),
    default: "2026-09-01T00:00:00Z",
    doc: "from this instant v1 manifest and sync answers carry Deprecation: true and Sunset",
  },
  SYNC_V1_REMINDER_AT: {
    schema: T.String({ format: "date-time" }),
    default: "2027-02-15T00:00:00Z",
    doc: "from this instant until the sunset, the sync-v1-reminder job mails each account that called v1 sync or manifests once (also in-app)",
  },
  SYNC_V1_SUNSET_AT: {
    schema: T.String({ format: "date-time" }),
    default: "2027-03-01T00:00:00Z",
    doc: "from this instant v1 manifest and sync answer 410 SYNC_V1_SUNSET",
  },
  VIDEO_PROVIDER: {
    schema: T.Union([T.Literal("local"), T.Literal("mux")]),
    default: undefined,
    doc: "who transcodes videos: local (ffmpeg on worker nodes) | mux; default local; overseas allows both, mainland only local",
  },
  FFMPEG_PATH: { schema: T.String({ minLength: 1 }), default: "ffmpeg", doc: "the ffmpeg the local video provider runs (ffprobe is looked up beside it)" },
  TRANSCODE_CONCURRENCY: {
    schema: T.Integer({ minimum: 0, maximum: 64 }),
    default: 1,
    doc: "videos one worker node transcodes at once (local provider); 0 = none",
  },
  VIDEO_UPLOAD_TIMEOUT_S: {
    schema: T.Integer({ minimum: 1, maximum: 86400 }),
    default: 3600,
    doc: "a video upload's whole body must arrive within this (408 after)",
  },
  VIDEO_WEBHOOK_SECRET: {
    schema: T.String({ minLength: 32 }),
    default: undefined,
    doc: "signs the local provider's completion callbacks; default derived from JWT_SECRET",
  },
  VIDEO_CALLBACK_URL: {
    schema: Url,
    default: undefined,
    doc: "where worker nodes post the local provider's callbacks; default PUBLIC_URL/webhooks/local",
  },
  MUX_TOKEN_ID: { schema: T.String({ minLength: 1 }), default: undefined, doc: "Mux access token id (VIDEO_PROVIDER=mux)" },
  MUX_TOKEN_SECRET: { schema: T.String({ minLength: 1 }), default: undefined, doc: "Mux access token secret (VIDEO_PROVIDER=mux)" },
  MUX_WEBHOOK_SECRET: { schema: T.String({ minLength: 1 }), default: undefined, doc: "Mux webhook signing secret (VIDEO_PROVIDER=mux)" },
  MUX_SIGNING_KEY_ID: {
    schema: T.String({ minLength: 1 }),
    default: undefined,
    doc: "Mux URL signing key id: with MUX_SIGNING_KEY, new assets are signed-only and the edge mints their tokens",
  },
  MUX_SIGNING_KEY: { schema: T.String({ minLength: 1 }), default: undefined, doc: "Mux URL signing private key (base64 of the RSA PEM, as Mux gives it)" },
  ORPHAN_SWEEP_AFTER_H: {
    schema: T.Integer({ minimum: 1, maximum: 720 }),
    default: 24,
    doc: "the orphan sweep deletes a stored object no row names once it is this many hours old (an upload in flight is younger)",
  },
  EXPORT_RETENTION_H: {
    schema: T.Integer({ minimum: 1, maximum: 720 }),
    default: 168,
    doc: "how long an account export's archive stays downloadable after it is made (hours); then it is removed",
  },
  TRASH_RETENTION_DAYS: {
    schema: T.Integer({ minimum: 1, maximum: 3650 }),
    default: 30,
    doc: "how long a deleted image, video, audio file, document or KB stays in the trash (days); then the purge-trash job deletes it for good",
  },
  EXPORT_CONCURRENCY: {
    schema: T.Integer({ minimum: 0, maximum: 16 }),
    default: 1,
    doc: "account exports one worker node writes at once; 0 = none",
  },
  WEBHOOKS_ALLOW_PRIVATE: {
    schema: T.Boolean(),
    default: false,
    doc: "let webhook endpoints be private, loopback or link-local addresses (a receiver on the operator's own network); off, such an endpoint is refused when registered and when each delivery connects, whatever its name resolves to",
  },
  WEBHOOK_CONCURRENCY: {
    schema: T.Integer({ minimum: 0, maximum: 64 }),
    default: 2,
    doc: "webhook deliveries one worker node sends at once; 0 = none",
  },
  MIGRATION_MAX_BYTES: {
    schema: T.Integer({ minimum: 1048576 }),
    default: 10737418240,
    doc: "the largest archive POST /v1/migration takes (bytes); what one unpacks to is held to 10 times its size, a member to 100 times its compressed size",
  },
  MIGRATION_CONCURRENCY: {
    schema: T.Integer({ minimum: 0, maximum: 16 }),
    default: 1,
    doc: "account imports one worker node runs at once; 0 = none",
  },
  SMTP_URL: {
    schema: T.String({ pattern: "^smtps?://" }),
    default: undefined,
    doc: "mail server for notifications, e.g. smtps://user:pass@mail.example.com; unset = messages are logged, not sent",
  },
  MAIL_FROM: { schema: T.String({ minLength: 3 }), default: "shelf <no-reply@localhost>", doc: "sender of notification e-mails" },
  SHELF_TEST_NOW: { schema: T.String({ format: "date-time" }), default: undefined, doc: "TESTS ONLY: the instant the clock starts at" },
} satisfies Record<string, { schema: TSchema; default: unknown; doc: string }>;

type Vars = typeof variables;
type VarValue<K extends keyof Vars> = Vars[K]["default"] extends undefined ? Static<Vars[K]["schema"]> | undefined : Static<Vars[K]["schema"]>;

export type Config = Readonly<
  { [K in keyof Vars]: VarValue<K> } & {
    PUBLIC_URL: string;
    MEDIA_URL: string;
    CENTER_URL: string;
    MCP_URL: string;
    /** Absolute; unset, defaultDataDir's. */
    DATA_DIR: string;
    JWT_SECRET: string;
    VIDEO_PROVIDER: VideoProviderName;
    /** true and false read as info and off. */
    ACCESS_LOG: "info" | "debug" | "off";
    planOverrides: PlanOverrides;
    /** Requests per user and minute of each rate tier: the defaults with RATE_LIMITS on top. */
    rateLimits: RateLimits;
    /** The pre-approved OAuth clients: the defaults with OAUTH_FIRST_PARTY_CLIENTS on top. */
    oauthClients: readonly FirstPartyClient[];
    /** Who may read the media edge's answers from another origin (MEDIA_CORS_ORIGINS). */
    mediaCorsOrigins: MediaCorsOrigins;
    /** true when every part runs in process (PGlite, memory kv, folder storage). */
    embedded: { db: boolean; kv: boolean; storage: boolean };
    /**
     * The public addresses that follow the address a request came to, because PUBLIC_URL is
     * unset (those of the four not set themselves); empty when PUBLIC_URL is set. Their values
     * above are the defaults at http://localhost:PORT, for what no request asks (jobs, mail).
     */
    addressesFromRequest: readonly PublicAddress[];
  }
>;

/** The service's public addresses: where a person, a client or a proxy reaches each part. */
export type PublicAddress = "PUBLIC_URL" | "MEDIA_URL" | "CENTER_URL" | "MCP_URL";

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
  }
}

function coerce(schema: TSchema, raw: string): unknown {
  if (schema.type === "integer" || schema.type === "number") return raw.trim() === "" ? raw : Number(raw);
  if (schema.type === "boolean") return ({ true: true, "1": true, false: false, "0": false } as Record<string, boolean>)[raw.toLowerCase()] ?? raw;
  return raw;
}

/** Whether an http URL's host is this machine's loopback (a provider run beside shelf, or a test's). */
export const isLoopbackUrl = (url: string) => ["127.0.0.1", "[::1]", "localhost"].includes(new URL(url).hostname);

const trimSlash = (u: string) => u.replace(/\/+$/, "");

/**
 * Reads and validates the environment. Every bad variable is named in one ConfigError.
 * In embedded mode a JWT secret is generated once and kept in DATA_DIR.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(variables) as [string, { schema: TSchema; default: unknown }][]) {
    const raw = env[name];
    if (raw === undefined || raw === "") {
      out[name] = v.default;
      continue;
    }
    const value = coerce(v.schema, raw);
    if (!Value.Check(v.schema, value)) {
      const first = Value.Errors(v.schema, value).First();
      problems.push(`${name}=${JSON.stringify(raw.slice(0, 80))}: ${first?.message ?? "invalid"}`);
      continue;
    }
    out[name] = value;
  }

  // The settings given as JSON: parsed, checked against their schema, then built on the defaults.
  function fromJson<S extends TSchema, R>(name: string, schema: S, build: (given?: Static<S>) => R): R {
    const raw = out[name];
    if (typeof raw !== "string") return build();
    try {
      const parsed = JSON.parse(raw);
      if (!Value.Check(schema, parsed)) throw new Error(Value.Errors(schema, parsed).First()?.message);
      return build(parsed);
    } catch (e) {
      problems.push(`${name}: ${(e as Error).message || "not valid JSON"}`);
      return build();
    }
  }
  const planOverrides = fromJson("PLAN_OVERRIDES", PlanOverridesSchema, (given): PlanOverrides => given ?? {});
  const rateLimits = fromJson("RATE_LIMITS", RateLimitsSchema, buildRateLimits);
  const oauthClients = fromJson("OAUTH_FIRST_PARTY_CLIENTS", FirstPartyClientsSchema, buildFirstPartyClients);

  const cors = parseMediaCorsOrigins(out.MEDIA_CORS_ORIGINS as string);
  if ("problem" in cors) problems.push(`MEDIA_CORS_ORIGINS=${JSON.stringify((out.MEDIA_CORS_ORIGINS as string).slice(0, 80))}: ${cors.problem}`);

  const s3Set = ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"].filter((k) => out[k] !== undefined);
  if (s3Set.length > 0 && s3Set.length < 3) problems.push("S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together");
  if ((out.OIDC_ISSUER === undefined) !== (out.OIDC_CLIENT_ID === undefined)) problems.push("OIDC_ISSUER and OIDC_CLIENT_ID go together");
  if (typeof out.OIDC_ISSUER === "string" && out.OIDC_ISSUER.startsWith("http://") && !isLoopbackUrl(out.OIDC_ISSUER))
    problems.push("OIDC_ISSUER: https, or http on the loopback (127.0.0.1, [::1], localhost) only");
  if (out.DATABASE_URL && !out.JWT_SECRET) problems.push("JWT_SECRET: required when DATABASE_URL is set (every node must share it)");
  problems.push(...platformProblems(out));
  if (problems.length) throw new ConfigError(problems);

  out.DATA_DIR = dataDirOf(env);
  out.addressesFromRequest =
    out.PUBLIC_URL === undefined ? (["PUBLIC_URL", "MEDIA_URL", "CENTER_URL", "MCP_URL"] as const).filter((k) => out[k] === undefined) : [];
  out.PUBLIC_URL = trimSlash((out.PUBLIC_URL as string | undefined) ?? `http://localhost:${out.PORT}`);
  out.MEDIA_URL = trimSlash((out.MEDIA_URL as string | undefined) ?? `${out.PUBLIC_URL}/media`);
  out.CENTER_URL = trimSlash((out.CENTER_URL as string | undefined) ?? (out.PUBLIC_URL as string));
  out.MCP_URL = trimSlash((out.MCP_URL as string | undefined) ?? `${out.PUBLIC_URL}/mcp`);
  out.JWT_SECRET ??= embeddedJwtSecret(out.DATA_DIR as string);
  out.ACCESS_LOG = ({ true: "info", false: "off" } as Record<string, string>)[out.ACCESS_LOG as string] ?? out.ACCESS_LOG;
  out.VIDEO_PROVIDER ??= PLATFORM_VIDEO_PROVIDERS[out.PLATFORM as PlatformName][0];
  out.planOverrides = planOverrides;
  out.rateLimits = rateLimits;
  out.oauthClients = oauthClients;
  out.mediaCorsOrigins = "origins" in cors ? cors.origins : "*";
  out.embedded = { db: !out.DATABASE_URL, kv: !out.REDIS_URL, storage: !out.S3_BUCKET };
  return Object.freeze(out) as Config;
}

/** True inside an executable made by `bun build --compile`: its modules live in /$bunfs/. */
const inExecutable = import.meta.path.startsWith("/$bunfs/") || import.meta.path.startsWith("B:/~BUN/");

/**
 * Where an instance lives when DATA_DIR is unset. Never the working directory: every command
 * of one installation (`serve`, `admin`), run from any folder, must find the same instance,
 * or an admin command run elsewhere talks to a database the server never sees. From a
 * checkout it is the checkout's data/, where `bun run start` has always kept it; the binary
 * has no folder of its own, so it takes the user's data folder (XDG base directories).
 */
export function defaultDataDir(env: Record<string, string | undefined> = process.env, compiled = inExecutable): string {
  if (!compiled) return join(import.meta.dir, "..", "data");
  const xdg = env.XDG_DATA_HOME;
  // The XDG specification says a relative value is to be ignored.
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), ".local", "share");
  return join(base, "shelf");
}

/** DATA_DIR of `env` as an absolute path, read without validating or creating anything. */
export function dataDirOf(env: Record<string, string | undefined> = process.env): string {
  return resolve(env.DATA_DIR || defaultDataDir(env));
}

function embeddedJwtSecret(dataDir: string): string {
  const file = join(dataDir, "jwt-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  try {
    // "wx": when two processes start at once, the second reads what the first wrote.
    writeFileSync(file, `${randomBytes(48).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  return readFileSync(file, "utf8").trim();
}
