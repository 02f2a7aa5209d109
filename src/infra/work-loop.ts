// The loop a queue's worker runs: one step after another while there is work, a pause of
// `idleMs` when a step found none, until `signal` aborts (which also cuts the pause short).
// A step that throws is reported and the loop goes on: one bad job must not stop a node.
export async function workLoop(step: () => Promise<boolean>, o: { signal: AbortSignal; idleMs: number; onError(err: unknown): void }): Promise<void> {
  while (!o.signal.aborted) {
    let worked = false;
    try {
      worked = await step();
    } catch (err) {
      o.onError(err);
    }
    if (!worked && !o.signal.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, o.idleMs);
        o.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  }
}
