// Never a 500, for provider callbacks: a correctly signed local callback whose event has
// the wrong shape (a field missing, of the wrong type, huge or out of range) is refused as
// 400, and never reaches the database half-read. Each event aims at a video of its own in
// processing, so a value that gets through is written, not skipped as stale.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import { createServices, type Services } from "../../src/wiring/services.ts";
import { newId } from "../../src/infra/ids.ts";
import { signatureHeader } from "../../src/modules/videos/providers/callback-signature.ts";
import { LOCAL_SIGNATURE_HEADER, localWebhookSecret } from "../../src/modules/videos/providers/local.ts";
import { testContext } from "../helpers/context.ts";
import { makeUser } from "../helpers/factories.ts";
import { insertVideo, videoRow } from "../videos/fixtures.ts";
import { judge, type Json, operations } from "./no-500-sweep.ts";

// Each test sends dozens to hundreds of requests (uploads among them): on a busy CI
// machine that takes far longer than the default 5 s per test.
setDefaultTimeout(30_000);

const webhook = operations.find((o) => o.method === "POST" && o.path === "/webhooks/{provider}")!;

const BAD: [string, unknown][] = [
  ["number", 12345],
  ["string", "x"],
  ["boolean", true],
  ["array", ["x", 1]],
  ["nested object", { a: { b: 1 } }],
  ["null", null],
  ["missing", undefined],
  ["100k string", "x".repeat(100_000)],
  ["2**63", 2 ** 63],
  ["1e308", 1e308],
  ["-1e308", -1e308],
  ["-1", -1],
  ["fraction", 1.5],
  ["empty string", ""],
  ["deep array", JSON.parse(`${"[".repeat(500)}${"]".repeat(500)}`)],
];

const LOCAL: Record<string, (videoId: string) => Json> = {
  ready: (videoId) => ({
    id: `evt-${newId()}`,
    type: "ready",
    videoId,
    result: { durationSeconds: 4, renditions: ["360p"], thumbnailKey: null, directKey: null },
  }),
  failed: (videoId) => ({ id: `evt-${newId()}`, type: "failed", videoId, reason: "gave up", dropOriginal: false }),
  progress: (videoId) => ({ id: `evt-${newId()}`, type: "progress", videoId, progress: 0.5 }),
};

// The shapes of Mux's video.asset.ready and video.asset.errored events (docs.mux.com, webhooks reference).
const MUX: Record<string, (videoId: string) => Json> = {
  ready: (videoId) => ({
    type: "video.asset.ready",
    id: `mux-${newId()}`,
    data: {
      id: `asset-${newId()}`,
      status: "ready",
      duration: 23.8,
      max_stored_resolution: "HD",
      passthrough: videoId,
      playback_ids: [{ policy: "public", id: "u8wDXkHoZSYp9OmhdVOmnFj00vbrTJqkbqh6NjhfNUWc" }],
    },
  }),
  errored: (videoId) => ({
    type: "video.asset.errored",
    id: `mux-${newId()}`,
    data: { id: `asset-${newId()}`, status: "errored", passthrough: videoId, errors: { type: "invalid_input", messages: ["bad file"] } },
  }),
};

/** The event with one field (a dotted path) replaced; `undefined` drops it. */
function withField(ev: Json, path: string, value: unknown): Json {
  const copy = structuredClone(ev);
  const keys = path.split(".");
  const parent = keys.slice(0, -1).reduce((at: Json, k) => at[k], copy);
  if (value === undefined) delete parent[keys.at(-1)!];
  else parent[keys.at(-1)!] = value;
  return copy;
}

const fields = (ev: Json, prefix = ""): string[] =>
  Object.entries(ev).flatMap(([k, v]) => [`${prefix}${k}`, ...(v && typeof v === "object" && !Array.isArray(v) ? fields(v, `${prefix}${k}.`) : [])]);

interface Provider {
  name: "local" | "mux";
  header: string;
  secret: string;
  app: { handle(r: Request): Promise<Response> };
  templates: Record<string, (videoId: string) => Json>;
}

let sent = 0;

/** Sends every template with each field in turn replaced by each bad value, each at a fresh processing video. */
async function sweepEvents(p: Provider, type: string): Promise<string[]> {
  const { deps } = await testContext();
  const owner = await makeUser({ plan: "pro" });
  const template = p.templates[type]!;
  const failures: string[] = [];
  for (const field of fields(template("v"))) {
    for (const [input, value] of BAD) {
      const video = await insertVideo(owner.id, { provider: p.name, providerAssetId: p.name === "mux" ? `upload:${newId()}` : null });
      const body = JSON.stringify(withField(template(video.id), field, value));
      const headers = { "content-type": "application/json", [p.header]: signatureHeader(p.secret, Math.floor(deps.clock.nowMs() / 1000), body) };
      sent++;
      const res = await p.app.handle(new Request(`http://shelf.test/webhooks/${p.name}`, { method: "POST", headers, body }));
      const label = `${p.name} ${type} ${field}: ${input}`;
      const problem = await judge(webhook, res);
      if (problem) failures.push(`POST /webhooks/${p.name} [${label}]: ${problem}`);
      // A refused event leaves its video as it was.
      if (res.status >= 400 && (await videoRow(video.id))!.status !== "processing") failures.push(`[${label}] refused but changed the video`);
    }
  }
  return failures;
}

describe("signed local callbacks with malformed events never answer 5xx", () => {
  for (const type of Object.keys(LOCAL)) {
    test(`a ${type} event`, async () => {
      const { app, deps } = await testContext();
      const local: Provider = { name: "local", header: LOCAL_SIGNATURE_HEADER, secret: localWebhookSecret(deps.config), app, templates: LOCAL };
      expect(await sweepEvents(local, type)).toEqual([]);
    });
  }
});

describe("signed Mux callbacks with malformed events never answer 5xx", () => {
  const secret = "mux-signing-secret-for-the-sweep";
  const opened: Services[] = [];
  afterAll(async () => {
    for (const s of opened) await s.close();
  });
  for (const type of Object.keys(MUX)) {
    test(`a ${type} event`, async () => {
      const { deps } = await testContext();
      const services = createServices({ ...deps, config: { ...deps.config, MUX_WEBHOOK_SECRET: secret } });
      opened.push(services);
      const mux: Provider = { name: "mux", header: "mux-signature", secret, app: createApp(services), templates: MUX };
      expect(await sweepEvents(mux, type)).toEqual([]);
    });
  }
});

test("the sweep sent every malformed event", () => {
  expect(sent).toBeGreaterThan(300);
  console.info(`no-500 callback sweep: ${sent} requests`);
});
