// Messages to every node's in-process caches (edge records, API keys, sessions): a
// message reaches this process's listeners at once, before the request that sent it
// answers, and every other node's through the kv's pub/sub. Listeners must be idempotent:
// this process's also get their own messages back from the kv. When pub/sub is down,
// this process still gets them, and other nodes' caches expire within CACHE_TTL_MS.
import type { Kv } from "./kv/index.ts";
import type { Log } from "./log.ts";

type Parts = { kv: Kv; log: Log };
type Listener = (message: string) => void;

/** This process's listeners, per kv (one kv is one shared state) and channel. */
const local = new WeakMap<Kv, Map<string, Set<Listener>>>();

function listenersOf(kv: Kv, channel: string): Set<Listener> {
  let channels = local.get(kv);
  if (!channels) local.set(kv, (channels = new Map()));
  let set = channels.get(channel);
  if (!set) channels.set(channel, (set = new Set()));
  return set;
}

/** Sends `message` on `channel`: here at once, then to the other nodes. A failed publish is logged, not thrown. */
export async function broadcast({ kv, log }: Parts, channel: string, message: string): Promise<void> {
  for (const fn of local.get(kv)?.get(channel) ?? []) fn(message);
  await kv.publish(channel, message).catch((err) => log.warn("broadcast publish failed; other nodes' caches expire on their own", { channel, err }));
}

export interface Listening {
  /** Stops the listener, here and on the kv. */
  close(): Promise<void>;
}

/** Calls `onMessage` for every message on `channel`, from this process or any node, until closed. */
export function listen({ kv, log }: Parts, channel: string, onMessage: Listener): Listening {
  const here = listenersOf(kv, channel);
  here.add(onMessage);
  const unsubscribe = kv.subscribe(channel, onMessage).catch((err) => {
    log.warn("broadcast channel unavailable; other nodes' messages are missed, caches expire on their own", { channel, err });
    return async () => {};
  });
  let closed: Promise<void> | undefined;
  return {
    close: () =>
      (closed ??= (async () => {
        here.delete(onMessage);
        await (await unsubscribe)();
      })()),
  };
}
