// The slow hostile cases (`make test-hostile`, run by CI on real parts): a second api
// process with the default limits takes hostile uploads while /health is asked again and
// again; every answer must come within HEALTH_MS, and the process's peak memory (VmHWM)
// must stay under RSS_BOUND. Skipped in the ordinary suite (SHELF_HOSTILE unset) and on
// embedded parts (the second process must share the database with the test).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { sharp } from "../../src/infra/sharp.ts";
import { startApiProcess, type ApiProcess } from "../helpers/api-process.ts";
import { makeClient } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const run = !!process.env.SHELF_HOSTILE && !!process.env.DATABASE_URL;
/** What the issue asks: the node keeps answering /health within 200 ms. */
const HEALTH_MS = 200;
/** Peak resident memory of the node with the default budgets (512 MiB of upload bodies, 1 GiB of decoded pixels counted with headroom). */
const RSS_BOUND = 1536 * 1024 * 1024;
const MB = 1024 * 1024;

let node: ApiProcess | undefined;
let base = "";

beforeAll(async () => {
  if (!run) return;
  node = await startApiProcess();
  base = node.base;
});

afterAll(async () => {
  await node?.stop();
});

/** Peak resident set of the api process so far, in bytes. */
function peakRss(): number {
  const status = readFileSync(`/proc/${node!.child.pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** Asks /health back to back until `work` settles; returns the slowest answer in ms and how many there were. */
async function healthWhile<T>(work: Promise<T>): Promise<{ result: T; slowestMs: number; probes: number }> {
  let settled = false;
  const done = work.finally(() => (settled = true));
  let slowestMs = 0;
  let probes = 0;
  while (!settled && probes < 20_000) {
    const t0 = performance.now();
    const res = await fetch(`${base}/health`);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`/health answered ${res.status}: ${text}`);
    slowestMs = Math.max(slowestMs, performance.now() - t0);
    probes++;
  }
  const result = await done;
  console.log(`  /health: ${probes} answers, slowest ${slowestMs.toFixed(1)} ms; api process peak RSS ${(peakRss() / MB).toFixed(0)} MiB`);
  return { result, slowestMs, probes };
}

function upload(key: string, bytes: Uint8Array, filename: string) {
  const form = new FormData();
  form.append("file", new Blob([bytes as BlobPart]), filename);
  return fetch(`${base}/v1/images`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { code?: string },
  }));
}

const nested = (depth: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">${"<g>".repeat(depth)}${"</g>".repeat(depth)}</svg>`;

describe.skipIf(!run)("hostile uploads against a running node", () => {
  test("a 15,000-deep SVG is refused while /health keeps answering", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const { result, slowestMs } = await healthWhile(upload(key, new TextEncoder().encode(nested(15_000)), "deep.svg"));
    expect(result.status).toBe(422);
    expect(slowestMs).toBeLessThan(HEALTH_MS);
  });

  test("a 100,000-deep SVG is refused while /health keeps answering", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const { result, slowestMs } = await healthWhile(upload(key, new TextEncoder().encode(nested(100_000)), "deeper.svg"));
    expect(result.status).toBe(422);
    expect(slowestMs).toBeLessThan(HEALTH_MS);
  });

  test("a 10 MB SVG of flat <rect> elements is refused while /health keeps answering", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const rect = '<rect x="1" y="1" width="2" height="2"/>';
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">${rect.repeat(Math.floor((10 * 1000 * 1000 - 200) / rect.length))}</svg>`;
    const { result, slowestMs } = await healthWhile(upload(key, new TextEncoder().encode(svg), "flat.svg"));
    expect(result.status).toBe(422);
    expect(slowestMs).toBeLessThan(HEALTH_MS);
  });

  test("20 uploads of 49 MB at once: each answered (422 or 503), /health keeps answering, memory stays bounded", async () => {
    const { key } = await makeClient({ plan: "pro" });
    // The attacker's CPU is not the node's: on a real deployment the clients run elsewhere.
    // Here they share two cores with the node, so they run at the lowest priority.
    const flood = Bun.spawn(["nice", "-n", "19", "bun", `${import.meta.dir}/flood.ts`, base, key, "20", String(49 * MB)], {
      stdout: "pipe",
      stderr: "inherit",
    });
    const sent = Promise.all([new Response(flood.stdout).text(), flood.exited]).then(([out]) => JSON.parse(out) as { status: number; code?: string }[]);
    const { result, slowestMs } = await healthWhile(sent);
    expect(result).toHaveLength(20);
    // Junk behind a JPEG signature: refused as undecodable, or shed when memory stays spent.
    for (const r of result) expect(r.status === 422 || (r.status === 503 && r.code === "SERVICE_UNAVAILABLE")).toBe(true);
    expect(slowestMs).toBeLessThan(HEALTH_MS);
    expect(peakRss()).toBeLessThan(RSS_BOUND);
  }, 120_000);

  test("six 100-megapixel 1-bit PNGs at once: processed one budget at a time, /health keeps answering, memory stays bounded", async () => {
    const { key } = await makeClient({ plan: "pro" });
    const bomb = new Uint8Array(
      await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: "white" } })
        .png({ palette: true, colours: 2, compressionLevel: 9 })
        .toBuffer(),
    );
    expect(bomb.length).toBeLessThan(1 * MB);
    const all = Promise.all(Array.from({ length: 6 }, (_, i) => upload(key, bomb, `bomb-${i}.png`)));
    const { result, slowestMs } = await healthWhile(all);
    for (const r of result) expect([201, 503]).toContain(r.status);
    expect(slowestMs).toBeLessThan(HEALTH_MS);
    expect(peakRss()).toBeLessThan(RSS_BOUND);
  }, 180_000);

  test("SIGTERM during heavy image work: the node stops within its grace period and exits 0", async () => {
    const other = await startApiProcess({ SHUTDOWN_GRACE_MS: "1000" });
    const { key } = await makeClient({ plan: "pro" });
    const bomb = new Uint8Array(
      await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: "white" } })
        .png({ palette: true, colours: 2 })
        .toBuffer(),
    );
    const form = new FormData();
    form.append("file", new Blob([bomb as BlobPart]), "bomb.png");
    const inFlight = fetch(`${other.base}/v1/images`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form }).catch(() => null);
    // Signalled once the node has the body: its answer to a second request proves it read the first.
    await fetch(`${other.base}/health`);
    expect(await other.stop()).toBe(0);
    await inFlight;
  }, 60_000);
});
