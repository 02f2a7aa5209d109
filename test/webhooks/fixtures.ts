// Webhook tests' parts: an app whose operator setting lets endpoints be local (a receiver
// the test starts on 127.0.0.1), or not; a receiver that answers as the test scripts it and
// keeps what it was sent; and the deliverer run once on the world's clock.
import type { Server } from "bun";
import { buildPlans, type PlanOverrides } from "../../src/core/plans.ts";
import { eq } from "drizzle-orm";
import { deliverWebhooks, type NetOptions } from "../../src/modules/webhooks/deliver.ts";
import { webhookDeliveries } from "../../src/modules/webhooks/table.ts";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { callJson, testContext } from "../helpers/context.ts";

const closers: (() => Promise<void> | void)[] = [];
export async function closeAll() {
  for (const close of closers.splice(0)) await close();
}

export async function webhookWorld(allowPrivate = true, plans?: PlanOverrides) {
  const { deps } = await testContext();
  // Deliveries earlier tests left pending (retries to receivers long closed, from this file
  // or another) would come due on this world's clock and be counted with this test's: a
  // world is made at its test's start, before it queues anything, and starts with none.
  await deps.db.update(webhookDeliveries).set({ status: "failed" }).where(eq(webhookDeliveries.status, "pending"));
  const clock = stoppedClock(deps.clock.nowMs());
  const world = { ...deps, clock, config: { ...deps.config, WEBHOOKS_ALLOW_PRIVATE: allowPrivate }, plans: plans ? buildPlans(plans) : deps.plans };
  const services = createServices(world);
  closers.push(() => services.close());
  const app = createApp(services);
  return {
    deps: world,
    clock,
    app,
    /** callJson on this world's app. */
    api: <T = any>(method: string, path: string, opts: Parameters<typeof callJson>[2] = {}) => callJson<T>(method, path, { ...opts, app }),
    /** Runs the deliverer once on this world's clock. */
    deliver: (net?: NetOptions) => deliverWebhooks(world, { net }),
    /**
     * The same, its clock first brought up to the shared app's (so what that app queued is
     * due). It delivers whatever the shared database holds due, other tests' retries too.
     */
    deliverShared: () => {
      clock.advance(Math.max(0, deps.clock.nowMs() - clock.nowMs()));
      return deliverWebhooks(world);
    },
  };
}

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A local HTTP receiver: each request gets the next scripted answer (the last one repeats). */
export function receiver(answers: (Response | (() => Response))[] = [new Response("ok")]) {
  const got: Received[] = [];
  let i = 0;
  const server: Server<undefined> = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      got.push({ headers: Object.fromEntries(req.headers), body: await req.text() });
      const a = answers[Math.min(i++, answers.length - 1)]!;
      return typeof a === "function" ? a() : a.clone();
    },
  });
  closers.push(() => server.stop(true));
  return { url: `http://127.0.0.1:${server.port}/hook`, port: server.port, got };
}

export async function createEndpoint(w: Awaited<ReturnType<typeof webhookWorld>>, token: string, url: string, events: string[]) {
  const res = await w.api("POST", "/v1/webhooks/endpoints", { token, json: { url, events } });
  if (res.status !== 201) throw new Error(`endpoint not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; secret: string; url: string };
}
