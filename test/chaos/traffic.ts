// Every request of the load goes through here: to a live api node on loopback, its answer
// counted (the "no 500, only 503 with Retry-After" invariant is checked on this tally), and
// the ledger of acknowledged writes the invariants look for afterwards.
import type { Fleet, Node } from "./fleet.ts";

export interface Wrong {
  at: number;
  lane: string;
  what: string;
}

/** Something changed (a node or part went down or came back, a fault ended): wakes waiters. */
class Changes {
  private waiting: (() => void)[] = [];
  notify(): void {
    for (const w of this.waiting.splice(0)) w();
  }
  /** The next change, or `ms` at most (a client honouring Retry-After waits no longer). */
  next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

export interface Acked {
  kind: "image" | "audio" | "video" | "tus";
  id: string;
  key: string;
  /** The edge path of a public image (its bytes are read back afterwards). */
  edge?: string;
}

export class Traffic {
  requests = 0;
  status = new Map<number, number>();
  /** Connections a SIGKILLed node cut (not answers: counted apart). */
  dropped = 0;
  /** Answers that break "no 500 at any time; only 503 with Retry-After". */
  wrong: Wrong[] = [];
  ledger: Acked[] = [];
  /** Sync pushes answered 2xx (their content is the model's to check). */
  syncAcked = 0;
  /** While a fault is on (set by the injector), and when the last one ended. */
  faultOn = false;
  lastRecovery = 0;
  /** 503s answered with no fault on and more than 10 s after the last recovery. */
  calm503: Wrong[] = [];
  /** The first refusals (4xx) of each lane and path, printed for the reader: expected ones (409, 404) aside. */
  refused = new Map<string, string>();
  /** Set while an api node is about to be SIGKILLed: pushes wait (see sync-lane.ts). */
  killing = false;
  pushesInFlight = 0;
  readonly changes = new Changes();
  private rr = 0;

  constructor(readonly fleet: Fleet) {}

  /** An api node that is up (round robin), waiting for one if none is. */
  async node(): Promise<Node> {
    for (;;) {
      const apis = this.fleet.nodes.filter((n) => n.role === "api" && n.up);
      if (apis.length) return apis[this.rr++ % apis.length]!;
      await this.changes.next(1_000);
    }
  }

  /** Counts an answer; an answer that breaks the invariant is kept with its body. */
  count(lane: string, what: string, status: number, retryAfter: string | null, body: string): void {
    this.requests++;
    this.status.set(status, (this.status.get(status) ?? 0) + 1);
    if (status >= 500 && status !== 503) this.wrong.push({ at: Date.now(), lane, what: `${what}: ${status} ${body.slice(0, 300)}` });
    if (status >= 400 && status < 500 && status !== 409 && !this.refused.has(`${lane} ${what} ${status}`))
      this.refused.set(`${lane} ${what} ${status}`, body.slice(0, 200));
    if (status === 503 && !retryAfter) this.wrong.push({ at: Date.now(), lane, what: `${what}: 503 without Retry-After ${body.slice(0, 300)}` });
    if (status === 503 && !this.faultOn && Date.now() - this.lastRecovery > 10_000)
      this.calm503.push({ at: Date.now(), lane, what: `${what}: ${body.slice(0, 200)}` });
  }

  /**
   * One request to a live node. A cut connection is retried on a node that is up when
   * `retry` says the request may be sent twice; otherwise it resolves with status 0.
   */
  async send(lane: string, path: string, init: RequestInit & { retry?: boolean } = {}): Promise<{ status: number; headers: Headers; text: string }> {
    for (;;) {
      const node = await this.node();
      let res: Response;
      let text: string;
      try {
        res = await fetch(`${node.base}${path}`, { ...init, signal: AbortSignal.timeout(120_000) });
        text = await res.text();
      } catch {
        this.dropped++;
        if (!init.retry) return { status: 0, headers: new Headers(), text: "" };
        await this.changes.next(200);
        continue;
      }
      this.count(lane, `${init.method ?? "GET"} ${path.split("?")[0]}`, res.status, res.headers.get("retry-after"), text);
      return { status: res.status, headers: res.headers, text };
    }
  }
}
