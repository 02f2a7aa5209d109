// An app on the shared parts with another platform and compliance settings, the moderation
// service stand-in, and what a refused upload must have left: nothing.
import { expect } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import { type Config, loadConfig, variables } from "../../src/config.ts";
import { createCompliance } from "../../src/modules/compliance/public.ts";
import { type CallOptions, callJson, testContext, testEnv } from "../helpers/context.ts";
import { makeKey, type TestUser } from "../helpers/factories.ts";

export const sha256 = (bytes: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

const PLATFORM_KEYS = Object.keys(variables).filter((k) => k === "PLATFORM" || k === "VIDEO_PROVIDER" || k.startsWith("COMPLIANCE_"));

/**
 * The shared app's services with the platform settings of `env` (validated by loadConfig
 * as the environment would be) and the compliance check they configure.
 */
export async function platformApp(env: Record<string, string>) {
  const { deps, services } = await testContext();
  const loaded = loadConfig(testEnv(env));
  const config: Config = Object.freeze({ ...deps.config, ...Object.fromEntries(PLATFORM_KEYS.map((k) => [k, loaded[k as keyof Config]])) });
  return createApp({ ...services, deps: { ...deps, config }, compliance: createCompliance(config, { log: deps.log }) });
}
export type PlatformApp = Awaited<ReturnType<typeof platformApp>>;

export function on(app: PlatformApp) {
  return (method: string, path: string, opts: CallOptions = {}) => callJson(method, path, { ...opts, app });
}

export interface Moderation {
  url: string;
  /** Requests received, their JSON bodies and signature headers. */
  received: { body: any; signature: string | null }[];
  /** What the next requests are answered. */
  answer: "allow" | "deny" | "hang" | "error" | "malformed";
  stop(): void;
}

/** The moderation service: a local server answering as told. */
export function moderationStub(): Moderation {
  const stub: Moderation = {
    url: "",
    received: [],
    answer: "allow",
    stop: () => void server.stop(true),
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      stub.received.push({ body: await req.json(), signature: req.headers.get("x-shelf-signature") });
      switch (stub.answer) {
        case "allow":
          return Response.json({ allowed: true });
        case "deny":
          return Response.json({ allowed: false, reasons: ["POLITICAL", "VIOLENCE"] });
        case "error":
          return new Response("upstream broke", { status: 500 });
        case "malformed":
          return Response.json({ verdict: "fine" });
        case "hang":
          // Never answers: the upload's own timeout must end the wait.
          return await new Promise<Response>(() => {});
      }
    },
  });
  stub.url = `http://127.0.0.1:${server.port}/moderate`;
  return stub;
}

/** The user's usage resource. */
async function usage(user: TestUser) {
  const { key } = await makeKey(user, ["usage.read"]);
  return (await callJson("GET", "/v1/user/me/usage", { token: key })).body.data;
}

/** Object keys stored under `prefix`. */
export async function objects(prefix: string): Promise<string[]> {
  const { deps } = await testContext();
  const keys: string[] = [];
  for await (const o of deps.storage.list(prefix)) keys.push(o.key);
  return keys;
}

/** Nothing of the user's is stored or counted: no rows, no objects, no bytes, no uploads. */
export async function expectNothingStored(user: TestUser, key: string) {
  for (const path of ["/v1/images", "/v1/docs", "/v1/videos", "/v1/media"]) {
    const list = await callJson("GET", path, { token: key });
    expect(list.status).toBe(200);
    expect(list.body.data.items).toEqual([]);
  }
  for (const prefix of ["images", "docs", "videos", "audio"]) expect(await objects(`${prefix}/${user.id}/`)).toEqual([]);
  const u = await usage(user);
  expect(u.image.storage.used).toBe(0);
  expect(u.video.storage.used).toBe(0);
  expect(u.doc.count.used).toBe(0);
  expect(u.uploads.day.used).toBe(0);
}
