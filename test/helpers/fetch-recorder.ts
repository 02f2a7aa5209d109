// For tests of src/infra/safe-fetch.ts: a fetch that records the connections asked of it, a
// resolver with fixed answers, and the refusal a promise must end in.
import { expect } from "bun:test";
import { type Lookup, UrlRefused } from "../../src/infra/safe-fetch.ts";

export type Init = RequestInit & { tls?: { serverName?: string } };
type Call = { url: string; init: Init; host: string | null };

export const PUBLIC_V4 = "93.184.216.34";
export const PUBLIC_V6 = "2606:2800:220:1:248:1893:25c8:1946";

/** A fetch that records every connection asked of it and answers with `answer` (none expected without one). */
export function recorder(answer?: (call: Call, n: number) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const impl = (async (input: string | URL | Request, init: Init = {}) => {
    const call = { url: String(input), init, host: new Headers(init.headers).get("host") };
    calls.push(call);
    if (!answer) throw new Error(`no connection expected, got one to ${call.url}`);
    return answer(call, calls.length);
  }) as unknown as typeof fetch;
  return { calls, impl };
}

/** A resolver that answers every name with `addresses` and remembers the names asked. */
export function resolver(...addresses: string[]) {
  const asked: string[] = [];
  const lookup: Lookup = async (name) => {
    asked.push(name);
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { asked, lookup };
}

export async function refusal(p: Promise<unknown>): Promise<UrlRefused> {
  const e = await p.then(
    () => {
      throw new Error("expected a refusal, the fetch succeeded");
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(UrlRefused);
  return e as UrlRefused;
}

/** Caps far from anything a test reaches unless it means to. */
export const fetchOpts = { maxBytes: 1024, timeoutMs: 10_000 };
