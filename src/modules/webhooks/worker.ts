// The webhook deliverer of the worker role: a loop that sends what is due (deliver.ts) and
// looks again after a short pause when nothing was, so a first try leaves within seconds
// and a 5 s retry is not held to a job's minute. Several loops and nodes share the queue
// through its claims.
import type { Deps } from "../../core/deps.ts";
import { workLoop } from "../../infra/work-loop.ts";
import { deliverWebhooks } from "./deliver.ts";

const IDLE_MS = 1_000;

export interface WebhookWorker {
  /** Sends what is due now; false when nothing was. */
  step(): Promise<boolean>;
  start(concurrency: number): void;
  stop(): Promise<void>;
}

export function createWebhookWorker(deps: Deps): WebhookWorker {
  const stopping = new AbortController();
  const loops: Promise<void>[] = [];
  const log = deps.log.child({ component: "webhooks" });
  async function step(): Promise<boolean> {
    const d = await deliverWebhooks(deps, { signal: stopping.signal });
    return d.delivered + d.retried + d.failed > 0;
  }
  return {
    step,
    start(concurrency) {
      if (concurrency <= 0) return;
      log.info("webhook deliverer started", { concurrency });
      for (let i = 0; i < concurrency; i++)
        loops.push(workLoop(step, { signal: stopping.signal, idleMs: IDLE_MS, onError: (err) => log.error("webhook delivery step failed", { err }) }));
    },
    async stop() {
      stopping.abort();
      await Promise.allSettled(loops);
    },
  };
}
