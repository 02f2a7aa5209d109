// Resumable-upload test helpers: the shared app on a port (tus-js-client speaks HTTP to
// it), tus-js-client runs as promises, and raw tus requests through the app.
import * as tus from "tus-js-client";
import { call, testContext } from "../helpers/context.ts";
import { makeKey, makeUser, type TestUser } from "../helpers/factories.ts";

let server: Promise<{ base: string; stop(): void }> | undefined;

/** The shared app listening on a loopback port (once per test file). */
export function listening() {
  server ??= testContext().then(({ app }) => {
    const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch, maxRequestBodySize: 2 ** 40 });
    return {
      base: `http://127.0.0.1:${s.port}`,
      stop: () => {
        // The next file that needs one starts its own.
        server = undefined;
        void s.stop(true);
      },
    };
  });
  return server;
}

export async function uploader(plan: "trial" | "pro" | "pro_plus" = "pro_plus", scopes?: string[]): Promise<{ user: TestUser; key: string }> {
  const user = await makeUser({ plan });
  const { key } = await makeKey(user, scopes);
  return { user, key };
}

/** Upload-Metadata values as tus-js-client takes them. */
export type Meta = Record<string, string>;

export interface TusRun {
  url: string | null;
  /** The last PATCH's answer headers (X-Resource-Id). */
  lastHeaders?: Record<string, string | null>;
}

/** tus-js-client options every test uses: the credential, no retries unless asked, the upload's URL from `base`. */
export function tusOptions(base: string, key: string, metadata: Meta, more: Partial<tus.UploadOptions> = {}): tus.UploadOptions {
  return {
    endpoint: `${base}/v1/uploads`,
    headers: { authorization: `Bearer ${key}` },
    metadata,
    retryDelays: [],
    chunkSize: 64 * 1024,
    ...more,
  };
}

/** Runs an upload to the end; resolves with its URL and the last answer's headers, rejects with tus-js-client's error. */
export function runUpload(bytes: Uint8Array, options: tus.UploadOptions): Promise<TusRun> {
  return new Promise((resolve, reject) => {
    let lastHeaders: Record<string, string | null> | undefined;
    const upload = new tus.Upload(Buffer.from(bytes), {
      ...options,
      onAfterResponse(req, res) {
        if (req.getMethod() === "PATCH" || req.getMethod() === "POST") {
          lastHeaders = { "x-resource-id": res.getHeader("x-resource-id") ?? null, "x-resource-url": res.getHeader("x-resource-url") ?? null };
        }
        return options.onAfterResponse?.(req, res);
      },
      onError: reject,
      onSuccess: () => resolve({ url: upload.url, lastHeaders }),
    });
    upload.start();
  });
}

/**
 * Starts an upload and aborts it once at least `fraction` of the bytes are stored
 * (acknowledged by the server); resolves with its URL and the offset reached.
 */
export function uploadUntil(bytes: Uint8Array, options: tus.UploadOptions, fraction: number): Promise<{ url: string; acknowledged: number }> {
  return new Promise((resolve, reject) => {
    let done = false;
    const upload = new tus.Upload(Buffer.from(bytes), {
      ...options,
      onChunkComplete(_chunk, acknowledged, total) {
        if (done || acknowledged < total * fraction) return;
        done = true;
        upload.abort(false).then(() => resolve({ url: upload.url!, acknowledged }), reject);
      },
      onError: reject,
      onSuccess: () => reject(new Error("the upload finished before it was aborted")),
    });
    upload.start();
  });
}

/** A raw tus request through the app (held to the OpenAPI document), Tus-Resumable set. */
export function tusCall(method: string, path: string, key: string | undefined, headers: Record<string, string> = {}, body?: BodyInit) {
  return call(method, path, { token: key, headers: { "tus-resumable": "1.0.0", ...headers }, body });
}

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
/** Upload-Metadata as a raw header. */
export const metaHeader = (m: Meta) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(",");

/** Creates an upload by a raw POST; its path (/v1/uploads/<id>). */
export async function create(key: string, length: number, meta: Meta): Promise<string> {
  const res = await tusCall("POST", "/v1/uploads", key, { "upload-length": String(length), "upload-metadata": metaHeader(meta) });
  if (res.status !== 201) throw new Error(`POST /v1/uploads answered ${res.status}: ${await res.text()}`);
  return res.headers.get("location")!;
}

/** One raw PATCH of `bytes` at `offset`. */
export function patch(key: string, path: string, offset: number, bytes: Uint8Array, headers: Record<string, string> = {}) {
  return tusCall(
    "PATCH",
    path,
    key,
    { "content-type": "application/offset+octet-stream", "upload-offset": String(offset), ...headers },
    bytes as Uint8Array<ArrayBuffer>,
  );
}

/** Deterministic bytes that are no known file type. */
export function noise(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
