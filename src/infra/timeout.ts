// One deadline for a promise, for checks of parts that may hang (health, doctor).

export class TimeoutError extends Error {
  override name = "TimeoutError";
}

/** `p`, or a TimeoutError ("<what> did not answer within N s") after `ms`; the timer never outlives the race. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: Timer | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
