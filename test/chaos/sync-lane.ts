// Three `shelf sync`-like v2 clients editing one KB: the model test's clients, model and
// oracle (test/model/), their requests sent to the fleet instead of an app in process.
//
// A 503 or a cut connection on a read is retried until it is answered. A write (a push)
// is different: without an idempotency key a client cannot tell whether a push whose
// answer was lost applied, and neither can the model. So a push is never in flight while
// an api node is SIGKILLed (the injector waits for `pushesInFlight` to drop to 0, holding
// new pushes meanwhile); every other fault (Postgres, Redis, s3rver, worker kills) may meet
// a push, whose 503 must then mean "nothing applied": the model checks that it did not.
import type { Handler } from "../helpers/contract.ts";
import { differences } from "../model/check.ts";
import { type PullChoice, type PushChoice, SimClient, type World } from "../model/clients.ts";
import { KbModel, ModelError } from "../model/model.ts";
import { prng } from "./schedule.ts";
import type { Traffic } from "./traffic.ts";

const PATHS = ["a.md", "b.md", "notes/c.md", "notes/d.md", "notes/e.md"];
const WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"];
const textOf = (n: number) => `# ${WORDS[n % WORDS.length]}\n\nnote ${n}\n`;

/** app.handle(request) answered by a live api node: retried until a definite answer. */
function fleetHandler(t: Traffic): Handler {
  return {
    async handle(request: Request): Promise<Response> {
      const url = new URL(request.url);
      const path = url.pathname + url.search;
      const write = request.method !== "GET";
      const body = write ? await request.arrayBuffer() : undefined;
      for (;;) {
        while (write && t.killing) await t.changes.next(1_000);
        if (write) t.pushesInFlight++;
        try {
          const res = await t.send("sync", path, { method: request.method, headers: request.headers, body, retry: !write });
          if (res.status === 0) throw new Error(`sync: ${request.method} ${path} lost its connection while no node was being killed`);
          if (write && res.status < 300) t.syncAcked++;
          if (res.status === 503) {
            await t.changes.next(Number(res.headers.get("retry-after") ?? 1) * 200);
            continue;
          }
          // fetch gave the body decoded: its encoding and length headers no longer describe it.
          const headers = new Headers(res.headers);
          headers.delete("content-encoding");
          headers.delete("content-length");
          return new Response(res.status === 304 ? null : res.text, { status: res.status, headers });
        } finally {
          if (write) {
            t.pushesInFlight--;
            t.changes.notify();
          }
        }
      }
    },
  };
}

export interface SyncLane {
  steps: number;
  /** The model's verdict: empty while the server agreed. */
  problems: string[];
  run(stop: () => boolean): Promise<void>;
  /** Every client pulls; then the server must be the model's, every kept text found. */
  converge(): Promise<void>;
}

export function syncLane(t: Traffic, seed: number, key: string, kbId: string): SyncLane {
  const rnd = prng(seed ^ 0x5eed);
  const int = (n: number) => Math.floor(rnd() * n);
  const world: World = {
    wire: { app: fleetHandler(t), key, kbId },
    model: new KbModel(),
    v2: true,
    branches: true,
    now: () => Date.now(),
    retentionDays: 30,
    seen: new Map(),
    fail(message) {
      throw new ModelError(message);
    },
  };
  const clients = [0, 1, 2].map((i) => new SimClient(`c${i}`, world));
  const pullChoice = (): PullChoice => ({
    version: 2,
    full: int(4) === 0,
    rebase: int(2) === 0,
    limit: 1000,
    tombstones: int(2) === 0,
    conditional: int(2) === 0,
  });
  const pushChoice = (): PushChoice => ({
    version: 2,
    mode: int(2) ? "default" : "preserve_both",
    pick: int(64),
    ack: false,
    baseHash: int(2) === 0,
    byId: int(2) === 0,
    rename: int(2) === 0,
    badHash: false,
  });
  const lane: SyncLane = {
    steps: 0,
    problems: [],
    async run(stop) {
      try {
        while (!stop()) {
          const cl = clients[int(3)]!;
          const files = [...cl.files.keys()].sort();
          const file = files[int(Math.max(files.length, 1))];
          const roll = int(20);
          if (roll < 4) cl.create(PATHS[int(PATHS.length)]!, textOf(int(12)));
          else if (roll < 9) file && cl.edit(file, textOf(int(12)));
          else if (roll < 10) file && cl.move(file, PATHS[int(PATHS.length)]!);
          else if (roll < 11) file && cl.remove(file);
          else if (roll < 15) await cl.pull(pullChoice());
          else {
            await cl.push(pushChoice());
            const found = await differences(world.wire, world.model, { v2: true, branches: true, all: false });
            if (found.length) throw new ModelError(found.join("\n"));
          }
          lane.steps++;
        }
      } catch (e) {
        lane.problems.push(`after ${lane.steps} steps: ${e instanceof Error ? e.message : String(e)}`.slice(0, 4000));
      }
    },
    async converge() {
      if (lane.problems.length) return;
      try {
        for (const cl of clients) await cl.pull({ version: 2, full: true, rebase: false, limit: 1000, tombstones: true, conditional: false });
        const found = await differences(world.wire, world.model, { v2: true, branches: true, all: true });
        if (found.length) lane.problems.push(...found);
      } catch (e) {
        lane.problems.push(`converging: ${e instanceof Error ? e.message : String(e)}`.slice(0, 4000));
      }
    },
  };
  return lane;
}
