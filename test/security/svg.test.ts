// No SVG may stall or kill a node: a streaming pre-check refuses deep, huge and
// self-expanding files before any DOM exists, and DOMPurify runs in a worker that is
// killed and replaced when a job runs past its deadline or the worker dies.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../src/wiring/app.ts";
import type { Deps } from "../../src/wiring/deps.ts";
import type { Budget } from "../../src/infra/budget.ts";
import { precheckSvg, SVG_MAX_ATTRIBUTES } from "../../src/modules/images/svg-precheck.ts";
import { createSvgSanitizer, type SvgSanitizer } from "../../src/modules/images/svg-sanitizer.ts";
import { SVG_MAX_BYTES } from "../../src/modules/images/svg.ts";
import { loadConfig } from "../../src/config.ts";
import { tempDir, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { BILLION_LAUGHS, edgeGet, HOSTILE_SVG, upload, uploaded, uploadForm } from "../images/fixtures.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const OPEN = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">';
const nested = (depth: number) => `${OPEN}${"<g>".repeat(depth)}${"</g>".repeat(depth)}</svg>`;
const RECT = '<rect x="1" y="2" width="3" height="4"/>';
/** Flat <rect> elements up to just under the SVG byte limit (about 260,000 of them). */
const flatNearLimit = () => `${OPEN}${RECT.repeat(Math.floor((SVG_MAX_BYTES - OPEN.length - 6) / RECT.length))}</svg>`;
const withAttributes = (n: number) => `${OPEN}<rect ${Array.from({ length: n }, (_, i) => `data-a${i}="1"`).join(" ")}/></svg>`;

/**
 * An app whose image work and sanitizer are watched: `processing` resolves when an upload
 * has its image-work slot (its bytes are read and the SVG steps start), and `sanitized`
 * lists what reached the sanitizer's worker.
 */
async function watchedApp(sanitizer?: SvgSanitizer) {
  const { deps, services } = await testContext();
  const real = deps.budgets.imageWork;
  let reached!: () => void;
  const processing = new Promise<void>((r) => (reached = r));
  const imageWork: Budget = {
    name: real.name,
    usage: () => real.usage(),
    async acquire(units) {
      const release = await real.acquire(units);
      reached();
      return release;
    },
  };
  const inner = sanitizer ?? services.svgSanitizer;
  const sanitized: string[] = [];
  const svgSanitizer: SvgSanitizer = {
    sanitize: (text) => (sanitized.push(text), inner.sanitize(text)),
    close: () => inner.close(),
  };
  const patched: Deps = { ...deps, budgets: { ...deps.budgets, imageWork } };
  const app = createApp({ ...services, deps: patched, svgSanitizer });
  const send = (path: string, init: RequestInit = {}) => app.handle(new Request(`http://shelf.test${path}`, init));
  const post = (key: string, svg: string) =>
    send("/v1/images", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: uploadForm(svg, { filename: "x.svg" }) });
  return { post, send, processing, sanitized };
}

/** A 422 for the file saying `message`; `limit`: the limit it names in meta (limitName, limit). */
const expectRefused = async (res: Response, message: string, limit?: [string, number]) => {
  const body = (await res.json()) as any;
  expect(res.status).toBe(422);
  expect(body).toMatchObject({ success: false, code: "VALIDATION_ERROR", meta: { path: "file" } });
  expect(body.error).toContain(message);
  if (limit) expect([body.meta.limitName, body.meta.limit]).toEqual(limit);
};

describe("SVG uploads: the streaming pre-check", () => {
  test("15,000 nested groups: 422 at depth 257 from the pre-check, no DOM built, /health answers meanwhile", async () => {
    const { post, send, sanitized } = await watchedApp();
    const { key } = await makeClient();
    const [res, health] = await Promise.all([post(key, nested(15_000)), send("/health")]);
    await expectRefused(res, "deeper than 256 levels", ["SVG_MAX_DEPTH", 256]);
    expect(health.status).toBe(200);
    expect(sanitized).toEqual([]);
  });

  test("100,000 nested groups: 422 at depth 257, no DOM built", async () => {
    const { post, sanitized } = await watchedApp();
    const { key } = await makeClient();
    await expectRefused(await post(key, nested(100_000)), "deeper than 256 levels");
    expect(sanitized).toEqual([]);
  });

  test("the depth refusal comes at element 257, before the walk reaches the end of the file", async () => {
    // Never closed: a walk that read to the end would call it malformed, not deep.
    const unterminated = `${OPEN}${"<g>".repeat(100_000)}`;
    await expect(precheckSvg(unterminated, { maxDepth: 256, maxElements: 100_000 })).rejects.toThrow("deeper than 256 levels");
  });

  test("a 10 MB SVG of flat <rect>s: 422 by element count, no DOM built; /health sent while it is checked answers first", async () => {
    const { post, send, processing, sanitized } = await watchedApp();
    const { key } = await makeClient({ plan: "pro" });
    const svg = flatNearLimit();
    expect(svg.length).toBeLessThan(SVG_MAX_BYTES);
    expect(svg.length).toBeGreaterThan(SVG_MAX_BYTES - RECT.length - 64);
    const order: string[] = [];
    const uploading = post(key, svg).then((res) => (order.push("upload"), res));
    await processing;
    const health = await send("/health").then((res) => (order.push("health"), res));
    expect(health.status).toBe(200);
    const { SVG_MAX_ELEMENTS } = (await testContext()).config;
    await expectRefused(await uploading, `more than ${SVG_MAX_ELEMENTS} elements`, ["SVG_MAX_ELEMENTS", SVG_MAX_ELEMENTS]);
    expect(order).toEqual(["health", "upload"]);
    expect(sanitized).toEqual([]);
  });

  test("the pre-check gives the event loop back while it walks a large file", async () => {
    let walking = true;
    let turns = 0;
    const counting = (async () => {
      while (walking) {
        await new Promise((r) => setImmediate(r));
        turns++;
      }
    })();
    const walk = precheckSvg(flatNearLimit(), { maxDepth: 256, maxElements: 100_000 }).finally(() => (walking = false));
    await expect(walk).rejects.toThrow("more than 100000 elements");
    await counting;
    // 100,000 elements of 40 characters are ~4 MB: 15 slices of 256 K, a turn between each.
    expect(turns).toBeGreaterThanOrEqual(10);
  });

  test("limits are exact: the deepest nesting and the most elements allowed pass, one more is refused", async () => {
    const limits = { maxDepth: 8, maxElements: 100 };
    await precheckSvg(nested(7), limits); // <svg> itself is level 1
    await expect(precheckSvg(nested(8), limits)).rejects.toThrow("deeper than 8 levels");
    await precheckSvg(`${OPEN}${RECT.repeat(99)}</svg>`, limits);
    await expect(precheckSvg(`${OPEN}${RECT.repeat(100)}</svg>`, limits)).rejects.toThrow("more than 100 elements");
  });

  test(`more than ${SVG_MAX_ATTRIBUTES} attributes on one element: 422; ${SVG_MAX_ATTRIBUTES} are taken`, async () => {
    const { key } = await makeClient();
    const refused = await upload(key, withAttributes(SVG_MAX_ATTRIBUTES + 1), { filename: "attrs.svg" });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toContain(`more than ${SVG_MAX_ATTRIBUTES} attributes`);
    await uploaded(key, withAttributes(SVG_MAX_ATTRIBUTES - 1), { filename: "attrs.svg" });
  });

  test("entity declarations and internal DOCTYPE subsets are refused; a plain external DOCTYPE is not", async () => {
    const { key } = await makeClient();
    const subset = `<!DOCTYPE svg [ <!ATTLIST svg data-x CDATA "1"> ]>\n${OPEN}</svg>`;
    for (const svg of [BILLION_LAUGHS, subset]) {
      const res = await upload(key, svg, { filename: "dtd.svg" });
      expect(res.status).toBe(422);
      expect(res.body.error).toContain("entity declarations or an internal DOCTYPE subset");
    }
    const external = `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n${OPEN}<rect width="5" height="5"/></svg>`;
    await uploaded(key, external, { filename: "dtd.svg" });
  });

  test("a root that is not <svg>, malformed XML, an undeclared prefix and HTML entities are 422", async () => {
    const { key } = await makeClient();
    const cases: [string, string][] = [
      ['<SVG xmlns="http://www.w3.org/2000/svg"></SVG>', "not <svg>"],
      [`${OPEN}<g></svg>`, "not well-formed XML"],
      [`${OPEN}<use xlink:href="#a"/></svg>`, "not well-formed XML"],
      [`${OPEN}<text>&nbsp;</text></svg>`, "not well-formed XML"],
      [`${OPEN}</svg><svg/>`, "not well-formed XML"],
    ];
    for (const [svg, message] of cases) {
      const res = await upload(key, svg, { filename: "bad.svg" });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.error).toContain(message);
    }
  });

  test("a normal SVG still uploads and is stored sanitized (no script, handlers or external links)", async () => {
    const { key } = await makeClient();
    const d = await uploaded(key, HOSTILE_SVG, { filename: "logo.svg" });
    expect([d.width, d.height]).toEqual([120, 80]);
    const svg = await (await edgeGet(d.url)).text();
    for (const bad of ["<script", "onload", "onclick", "javascript:", "evil.example", "foreignObject"]) expect(svg).not.toContain(bad);
    expect(svg).toContain("<circle");
  });
});

describe("SVG uploads: the limits are the ones that hold", () => {
  /** `chains` chains of `depth` nested groups under the root: 1 + chains x depth elements, depth + 1 levels. */
  const chains = (n: number, depth: number) => `${OPEN}${`${"<g>".repeat(depth)}${"</g>".repeat(depth)}`.repeat(n)}</svg>`;

  test("19,751 elements nested 250 deep, under both settings (256 levels, 20,000 elements), is taken: 201, stored sanitized", async () => {
    const { key } = await makeClient();
    const svg = chains(79, 250);
    expect(svg.match(/<g>/g)!.length + 1).toBe(19_751);
    const res = await upload(key, svg, { filename: "deep.svg" });
    expect(res.status).toBe(201);
    expect((await edgeGet(res.body.data.url)).status).toBe(200);
  });

  test("settings above what the renderer reads (256 levels, 1,000,000 elements) are refused at start", () => {
    const env = { DATA_DIR: tempDir() };
    expect(loadConfig({ ...env, SVG_MAX_DEPTH: "256", SVG_MAX_ELEMENTS: "1000000" })).toMatchObject({ SVG_MAX_DEPTH: 256, SVG_MAX_ELEMENTS: 1_000_000 });
    expect(() => loadConfig({ ...env, SVG_MAX_DEPTH: "257" })).toThrow(/SVG_MAX_DEPTH/);
    expect(() => loadConfig({ ...env, SVG_MAX_ELEMENTS: "1000001" })).toThrow(/SVG_MAX_ELEMENTS/);
  });

  test("past a pre-check set deeper than the renderer reads, a 300-deep SVG is 422 naming the renderer's depth limit, not an unnamed 'could not be read'", async () => {
    const { deps, services } = await testContext();
    // As a setting the config no longer accepts would have let it through.
    const app = createApp({ ...services, deps: { ...deps, config: { ...deps.config, SVG_MAX_DEPTH: 1000 } } });
    const { key } = await makeClient();
    const res = await app.handle(
      new Request("http://shelf.test/v1/images", {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: uploadForm(nested(300), { filename: "x.svg" }),
      }),
    );
    await expectRefused(res, "deeper than the renderer reads (256 levels)", ["renderer_max_depth", 256]);
  });
});

/** A sanitizer on the stub worker, with every worker it starts and a promise of each one's end. */
function stubSanitizer(timeoutMs: number) {
  const workers: { closed: Promise<void> }[] = [];
  const sanitizer = createSvgSanitizer({
    timeoutMs,
    startWorker() {
      const worker = new Worker(new URL("./svg-stub-worker.ts", import.meta.url)) as unknown as Bun.Worker;
      workers.push({ closed: new Promise((r) => worker.addEventListener("close", () => r())) });
      return worker;
    },
  });
  return { sanitizer, workers };
}

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a refusal");
    },
    (e) => e,
  );

describe("SVG sanitizer: the worker", () => {
  test("the worker stays warm: consecutive jobs share one worker", async () => {
    const { sanitizer, workers } = stubSanitizer(5000);
    for (const text of ["<a/>", "<b/>", "<c/>"]) expect(await sanitizer.sanitize(text)).toBe(text);
    expect(workers).toHaveLength(1);
    await sanitizer.close();
  });

  test("a job past its deadline is 422 and its worker killed; the job queued behind it runs on a fresh worker", async () => {
    // The stalled job never answers, so the outcome does not depend on how short the deadline
    // is; the job behind it, on a fresh worker, needs only a round trip within it.
    const { sanitizer, workers } = stubSanitizer(1000);
    const [stalled, next] = await Promise.allSettled([sanitizer.sanitize("<stall/>"), sanitizer.sanitize("<ok/>")]);
    expect(stalled.status === "rejected" && stalled.reason).toMatchObject({
      status: 422,
      code: "VALIDATION_ERROR",
      message: "the SVG took too long to sanitize",
    });
    expect(next).toEqual({ status: "fulfilled", value: "<ok/>" });
    expect(workers).toHaveLength(2);
    await workers[0]!.closed;
    await sanitizer.close();
  });

  test("a worker that throws or exits is replaced; its job is 422, never a 500", async () => {
    const { sanitizer, workers } = stubSanitizer(5000);
    for (const text of ["<throw/>", "<exit/>"]) {
      expect(await rejection(sanitizer.sanitize(text))).toMatchObject({ status: 422, code: "VALIDATION_ERROR", message: "the SVG could not be sanitized" });
      expect(await sanitizer.sanitize("<ok/>")).toBe("<ok/>");
    }
    expect(workers).toHaveLength(3);
    await Promise.all(workers.slice(0, 2).map((w) => w.closed));
    await sanitizer.close();
  });

  test("close() kills the worker mid-job, refuses that job and every later one", async () => {
    const { sanitizer, workers } = stubSanitizer(600_000);
    expect(await sanitizer.sanitize("<warm/>")).toBe("<warm/>");
    const held = rejection(sanitizer.sanitize("<stall/>"));
    await sanitizer.close();
    await workers[0]!.closed;
    expect(await held).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(await rejection(sanitizer.sanitize("<ok/>"))).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(workers).toHaveLength(1);
  });

  test("an upload whose sanitizing runs past the deadline is 422, and the next SVG upload succeeds", async () => {
    const { sanitizer } = stubSanitizer(1000);
    const { post } = await watchedApp(sanitizer);
    const { key } = await makeClient();
    await expectRefused(await post(key, `${OPEN}<desc>stall</desc></svg>`), "the SVG took too long to sanitize");
    const ok = await post(key, `${OPEN}<rect width="4" height="4"/></svg>`);
    expect(ok.status).toBe(201);
    await sanitizer.close();
  });
});
