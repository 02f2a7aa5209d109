// The model-checked sync protocol (docs/sync.md): random interleavings of three
// simulated clients (create, edit, move, rename, delete, pull, push; v1 and v2; default and
// preserve_both) against the server, which after every step must agree with the reference
// model (test/model/model.ts), and must never lose content it took.
//
// FUZZ_RUNS sets the number of runs (default below, bounded for CI on both backends);
// FUZZ_SEED and FUZZ_PATH replay a failure (fast-check prints both, and this test prints
// the seed before it starts). `make fuzz` runs a long one.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import fc from "fast-check";
import { createApp } from "../../src/wiring/app.ts";
import type { Clock } from "../../src/infra/clock.ts";
import { createServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeClient } from "../helpers/factories.ts";
import { newKb } from "../kbs/fixtures.ts";
import { resolve } from "./branches.ts";
import { differences } from "./check.ts";
import { type PullChoice, type PushChoice, SimClient, type World } from "./clients.ts";
import { KbModel, ModelError, type Op, sha256 } from "./model.ts";
import { push } from "./wire.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
const SEED = process.env.FUZZ_SEED === undefined ? Date.now() ^ (Math.random() * 0x7fffffff) : Number(process.env.FUZZ_SEED);
const PATH = process.env.FUZZ_PATH;
const MAX_STEPS = Number(process.env.FUZZ_STEPS ?? 40);
const TIMEOUT = Math.max(150_000, RUNS * MAX_STEPS * 150);

/** The fuzz user's plan and its tombstone retention. */
const PLAN = "pro";
const RETENTION_DAYS = 30;
const DAY = 86_400_000;
/**
 * Each run starts its clock here: past v1's deprecation, and far enough before its sunset
 * (2027-03-01) that the days a run moves the clock (at most MAX_ADVANCE) never reach it.
 */
const START = Date.parse("2026-09-15T00:00:00.000Z");
const MAX_ADVANCE = 120 * DAY;
// Few paths, so that clients meet on them; one differs from another in letter case only
// (one path in a KB), one is sent decomposed (the server keeps it NFC).
const PATHS = ["a.md", "b.md", "notes/c.md", "notes/d.markdown", "A.md", "notes/cafe\u0301.md"];
const WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"];
const textOf = (n: number) => `# ${WORDS[n % WORDS.length]}\n\nnote ${n}\n`;

// The app under test: the shared parts, a clock that moves only when a step moves it, and
// rate limits out of the way (a run makes hundreds of requests as one user).
const shared = await testContext();
let inner = stoppedClock();
const clock: Clock = { now: () => inner.now(), nowMs: () => inner.nowMs(), advance: (ms) => inner.advance(ms) };
const services = createServices({
  ...shared.deps,
  clock,
  config: { ...shared.deps.config, rateLimits: { read: 1_000_000, mutation: 1_000_000, upload: 1_000_000, file: 1_000_000 } },
});
afterAll(() => services.close());
const app = createApp(services);

type Action =
  | { a: "create"; c: number; path: number; text: number }
  | { a: "edit"; c: number; file: number; text: number }
  | { a: "move"; c: number; file: number; to: number }
  | { a: "rename"; c: number; file: number; to: number }
  | { a: "delete"; c: number; file: number }
  | ({ a: "pull"; c: number } & PullChoice)
  | ({ a: "push"; c: number } & PushChoice)
  | { a: "tick"; c: number; ms: number }
  | { a: "refused"; c: number; kind: number }
  | { a: "resolve"; c: number; branch: number; accept: boolean };

const folderOf = (path: string) => path.slice(0, path.lastIndexOf("/") + 1);
const c = fc.integer({ min: 0, max: 2 });
const version = fc.constantFrom<1 | 2>(1, 2);
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ a: fc.constant("create" as const), c, path: fc.nat(PATHS.length - 1), text: fc.nat(11) }) },
  { weight: 4, arbitrary: fc.record({ a: fc.constant("edit" as const), c, file: fc.nat(7), text: fc.nat(11) }) },
  { weight: 1, arbitrary: fc.record({ a: fc.constant("move" as const), c, file: fc.nat(7), to: fc.nat(PATHS.length - 1) }) },
  // A move to another name in the file's folder (pushed as `rename` or `move`).
  { weight: 1, arbitrary: fc.record({ a: fc.constant("rename" as const), c, file: fc.nat(7), to: fc.nat(PATHS.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ a: fc.constant("delete" as const), c, file: fc.nat(7) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      a: fc.constant("pull" as const),
      c,
      version,
      full: fc.nat(3).map((n) => n === 0),
      rebase: fc.boolean(),
      limit: fc.constantFrom(2, 1000),
      tombstones: fc.boolean(),
      conditional: fc.boolean(),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      a: fc.constant("push" as const),
      c,
      version,
      mode: fc.constantFrom("default" as const, "preserve_both" as const),
      pick: fc.nat(63),
      baseHash: fc.boolean(),
      byId: fc.boolean(),
      rename: fc.boolean(),
      badHash: fc.nat(9).map((n) => n === 0),
      ack: fc.nat(5).map((n) => n === 0),
    }),
  },
  { weight: 2, arbitrary: fc.record({ a: fc.constant("tick" as const), c, ms: fc.constantFrom<number>(1, 3_600_000, 10 * DAY, (RETENTION_DAYS + 1) * DAY) }) },
  { weight: 1, arbitrary: fc.record({ a: fc.constant("refused" as const), c, kind: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ a: fc.constant("resolve" as const), c, branch: fc.nat(7), accept: fc.boolean() }) },
);

/**
 * What the server speaks. The model covers v1 and v2 with conflict branches; a server that
 * answers neither the v2 manifest nor the conflicts list fails here rather than letting the
 * run quietly check less.
 */
async function capabilities(key: string, kbId: string) {
  const probe = (path: string, headers: Record<string, string> = {}) =>
    app.handle(new Request(`http://shelf.test${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } }));
  const v2 = (await probe(`/v1/kbs/${kbId}/manifest`, { "service-sync-version": "2" })).status === 200;
  const branches = (await probe(`/v1/kbs/${kbId}/conflicts`)).status === 200;
  return { v2, branches };
}

const { key: probeKey } = await makeClient();
const can = await capabilities(probeKey, (await newKb(probeKey)).id);
if (!can.v2 || !can.branches) throw new Error(`the server must answer the v2 manifest and the conflicts list (v2 ${can.v2}, branches ${can.branches})`);

const seen = new Map<string, number>();

/**
 * A v2 push the request rules refuse as a whole (docs/sync.md): nothing of it may apply, which
 * the check after the step sees. False when v2 is not there yet.
 */
async function refused(world: World, kind: number): Promise<boolean> {
  if (!world.v2) return false;
  const text = `refused ${kind}\n`;
  const valid = { op: "upsert", relativePath: "refused.md", content: text, sourceHash: sha256(text) } as const;
  const docId = world.model.active()[0]?.id ?? "x".repeat(21);
  const cases: [Op[], number, string][] = [
    [[valid, { op: "update", docId, relativePath: "refused.md", content: text } as unknown as Op], 422, "SYNC_HASH_REQUIRED"],
    [[{ op: "upsert", relativePath: "refused.md", content: text }], 409, "SYNC_VERSION_MISMATCH"],
    [Array.from({ length: 201 }, (_, i) => ({ ...valid, relativePath: `r${i}.md` })), 422, "INVALID_OP_BATCH_SIZE"],
    [[valid, { op: "move", fromPath: "a.md", toPath: "moved.md", baseUpdatedAt: new Date(0).toISOString() } as unknown as Op], 422, "SYNC_HASH_REQUIRED"],
  ];
  const [ops, status, code] = cases[kind]!;
  const answer = await push(world.wire, 2, "default", ops);
  if (answer.status !== status || answer.code !== code) world.fail(`refused push ${kind}: ${answer.status} ${answer.code}, expected ${status} ${code}`);
  return true;
}

async function run(actions: Action[]): Promise<void> {
  inner = stoppedClock(START);
  const { user, key } = await makeClient({ plan: PLAN });
  const history = await callJson("PATCH", "/v1/user/me", { token: user.jwt, json: { docVersioningEnabled: true, docVersioningMax: 500 } });
  if (history.status !== 200) throw new Error(`PATCH /v1/user/me answered ${history.status}`);
  const made = await callJson("POST", "/v1/kbs", { app, token: key, json: { name: "fuzz" } });
  if (made.status !== 201) throw new Error(`POST /v1/kbs answered ${made.status}`);
  const kb = (made.body as { data: { id: string } }).data;
  const steps: string[] = [];
  const world: World = {
    wire: { app, key, kbId: kb.id },
    model: new KbModel(),
    v2: can.v2,
    branches: can.branches,
    now: () => clock.nowMs(),
    retentionDays: RETENTION_DAYS,
    seen,
    fail(message) {
      throw new ModelError(`${message}\nafter the steps:\n${steps.join("\n")}`);
    },
  };
  const clients = [0, 1, 2].map((i) => new SimClient(`c${i}`, world));
  for (const act of actions) {
    const cl = clients[act.c]!;
    const files = [...cl.files.keys()].sort();
    const file = "file" in act ? files[act.file % Math.max(files.length, 1)] : undefined;
    let did = true;
    try {
      if (act.a === "create") did = cl.create(PATHS[act.path]!, textOf(act.text));
      else if (act.a === "edit") did = file !== undefined && cl.edit(file, textOf(act.text));
      else if (act.a === "move") did = file !== undefined && cl.move(file, PATHS[act.to]!);
      else if (act.a === "rename") {
        const names = file === undefined ? [] : PATHS.filter((p) => p !== file && folderOf(p) === folderOf(file));
        did = names.length > 0 && cl.move(file!, names[act.to % names.length]!);
      } else if (act.a === "delete") did = file !== undefined && cl.remove(file);
      else if (act.a === "pull") await cl.pull(act);
      else if (act.a === "tick") did = clock.nowMs() + act.ms <= START + MAX_ADVANCE && (clock.advance(act.ms), true);
      else if (act.a === "refused") did = await refused(world, act.kind);
      else if (act.a === "resolve") did = await resolve(world, act.branch, act.accept);
      else did = await cl.push(act);
      if (did && act.a !== "create" && act.a !== "edit" && act.a !== "move" && act.a !== "rename" && act.a !== "delete" && act.a !== "tick") {
        const problems = await differences(world.wire, world.model, { v2: can.v2, branches: can.branches, all: false });
        if (problems.length) throw new ModelError(problems.join("\n"));
      }
    } catch (e) {
      // Every failure names the step and the steps before it (the replayable story).
      if (e instanceof Error && !e.message.includes("after the steps")) world.fail(`${JSON.stringify(act)}${file ? ` on ${file}` : ""}: ${e.message}`);
      throw e;
    }
    if (did) steps.push(`${JSON.stringify(act)}${file ? ` on ${file}` : ""}`);
  }
  const problems = await differences(world.wire, world.model, { v2: can.v2, branches: can.branches, all: true });
  if (problems.length) world.fail(problems.join("\n"));
}

test(
  `sync: ${RUNS} random runs of 3 clients agree with the model and lose no content`,
  async () => {
    console.log(
      `sync fuzz: ${RUNS} runs of up to ${MAX_STEPS} steps, seed ${SEED}${PATH ? `, path ${PATH}` : ""} (v2 ${can.v2 ? "on" : "not on this server yet"}, branches ${can.branches ? "on" : "not yet"}); replay with FUZZ_SEED=${SEED}`,
    );
    let shown = false;
    const checked = async (actions: Action[]) => {
      try {
        await run(actions);
      } catch (e) {
        // The first failure, before shrinking it (which may take long) begins.
        if (!shown) console.log(`sync fuzz: a run failed (seed ${SEED}); shrinking it:\n${String(e).slice(0, 4000)}`);
        shown = true;
        throw e;
      }
    };
    await fc.assert(fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: MAX_STEPS, size: "max" }), checked), {
      numRuns: RUNS,
      seed: SEED,
      ...(PATH && { path: PATH }),
      // Shrinking stops in time to report the smallest failure found so far.
      interruptAfterTimeLimit: TIMEOUT - 20_000,
      markInterruptAsFailure: true,
    });
    console.log(`sync fuzz: outcomes ${JSON.stringify(Object.fromEntries([...seen].sort()))}`);
    expect(seen.size).toBeGreaterThan(0);
  },
  TIMEOUT,
);
