// Waiting on the event itself instead of sleeping and looking: a test awaits the message,
// however long the machine takes to deliver it.

export interface Inbox {
  readonly got: string[];
  /** The callback to hand to whatever delivers the messages. */
  push(message: string): void;
  /** Resolves once `n` messages have arrived. */
  count(n: number): Promise<void>;
  /** Resolves once `message` has arrived. */
  has(message: string): Promise<void>;
}

export function inbox(): Inbox {
  const got: string[] = [];
  const waiting: { ready: () => boolean; resolve: () => void }[] = [];
  const until = (ready: () => boolean) => (ready() ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ ready, resolve })));
  return {
    got,
    push(message) {
      got.push(message);
      for (const w of waiting.splice(0)) {
        if (w.ready()) w.resolve();
        else waiting.push(w);
      }
    },
    count: (n) => until(() => got.length >= n),
    has: (message) => until(() => got.includes(message)),
  };
}
