// SHELF_START_TRACE=1: `shelf serve` writes to stderr, for each step of its start, the
// milliseconds since the process began (performance.now(), whose origin is the process's
// start), so an operator can see where a slow start goes. Read from the environment
// directly, not the config: the first steps run before the config is loaded.
const tracing = process.env.SHELF_START_TRACE === "1";

/** Notes that `step` has just happened; nothing unless SHELF_START_TRACE=1. */
export function startStep(step: string): void {
  if (tracing) process.stderr.write(`start ${performance.now().toFixed(1).padStart(7)} ms  ${step}\n`);
}

/** `promise`, noting when it settles as `step`. */
export function traced<T>(step: string, promise: Promise<T>): Promise<T> {
  if (!tracing) return promise;
  return promise.finally(() => startStep(step));
}
