// A server-side GET of a URL a user gave us, which must not become a way into the network the
// server sits in (SSRF): only http(s), no credentials in the URL, every address the name
// resolves to public, the connection made to the address that was checked (so a second DNS
// answer cannot swap in 127.0.0.1), each redirect checked again, and caps on bytes and time.
// docs/security.md ("Server-side fetches") says what is refused and why.
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

export type RefusalReason = "scheme" | "credentials" | "address" | "dns" | "redirect" | "too_large" | "timeout" | "status" | "network";

/** A URL that was not fetched, or whose answer was not taken; `message` is for a person. */
export class UrlRefused extends Error {
  override name = "UrlRefused";
  constructor(
    readonly reason: RefusalReason,
    message: string,
    /** The HTTP status of the final answer, for reason "status". */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Resolves a host name to every address it has (node:dns/promises lookup with `all: true`). */
export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface SafeFetchOptions {
  maxBytes: number;
  /** For the whole exchange: DNS, every hop and the body. */
  timeoutMs: number;
  lookup?: Lookup;
  fetchImpl?: typeof fetch;
  maxRedirects?: number;
  userAgent?: string;
  /** GET unless told; a POST sends `body` with `headers`. */
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  /** The operator's choice to let private, loopback and link-local addresses through (a webhook receiver on their own network). */
  allowPrivate?: boolean;
  /**
   * Answer whatever status the last hop gave (a 3xx past maxRedirects, a 4xx, a 5xx) instead
   * of refusing it, with its first maxBytes bytes: a webhook records what its receiver said.
   */
  anyAnswer?: boolean;
}

export interface Fetched {
  bytes: Uint8Array;
  contentType: string | null;
  /** The URL the bytes came from after redirects, with its host name (not the address connected to). */
  finalUrl: string;
  status: number;
}

const defaultLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true });
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function safeFetch(url: string, opts: SafeFetchOptions): Promise<Fetched> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), opts.timeoutMs);
  try {
    return await fetchChecked(url, opts, ac.signal);
  } catch (e) {
    // Whatever was in flight when the deadline passed (DNS, connect, a read) fails in its own
    // way; the caller is told the one thing that matters: it took too long.
    if (ac.signal.aborted) throw new UrlRefused("timeout", `the URL did not answer within ${opts.timeoutMs} ms`);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

async function fetchChecked(url: string, opts: SafeFetchOptions, signal: AbortSignal): Promise<Fetched> {
  const fetchImpl = opts.fetchImpl ?? fetch;
  const lookup = opts.lookup ?? defaultLookup;
  const maxRedirects = opts.maxRedirects ?? 5;
  let current = parseAndCheckUrl(url);
  const seen = new Set([current.href]);
  for (let hop = 0; ; hop++) {
    const addresses = await publicAddresses(current, lookup, signal, opts.allowPrivate === true);
    const res = await request(current, addresses, fetchImpl, opts, signal);
    const location = res.headers.get("location");
    const answered = async () => ({
      bytes: await readCapped(res, opts.maxBytes, signal, opts.anyAnswer === true),
      contentType: res.headers.get("content-type"),
      finalUrl: current.href,
      status: res.status,
    });
    if (opts.anyAnswer && (res.status < 200 || res.status > 299) && !(REDIRECTS.has(res.status) && location !== null && hop < maxRedirects)) return answered();
    if (REDIRECTS.has(res.status) && location !== null) {
      await discard(res);
      if (hop >= maxRedirects) throw new UrlRefused("redirect", `the URL redirected more than ${maxRedirects} times`);
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new UrlRefused("redirect", "the URL redirected to something that is not a URL");
      }
      next = checkUrl(next);
      if (seen.has(next.href)) throw new UrlRefused("redirect", `the URL redirects in a loop (back to ${next.href})`);
      seen.add(next.href);
      current = next;
      continue;
    }
    if (res.status < 200 || res.status > 299) {
      await discard(res);
      throw new UrlRefused("status", `the server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`, res.status);
    }
    return answered();
  }
}

function parseAndCheckUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused("scheme", "that is not a URL");
  }
  return checkUrl(url);
}

function checkUrl(url: URL): URL {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UrlRefused("scheme", `only http and https URLs can be fetched, not ${url.protocol}`);
  }
  // Credentials in a URL would be sent to whoever the URL (or a redirect) names.
  if (url.username !== "" || url.password !== "") throw new UrlRefused("credentials", "a URL with a user name or password in it is not fetched");
  url.hash = "";
  return url;
}

/** The URL's host without IPv6 brackets; the URL parser has already turned every IPv4 notation (2130706433, 0177.0.0.1, 0x7f.1) into dotted decimal. */
function bareHost(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/** Every address of the URL's host, all of them public, or a refusal. An IP literal is checked as it is, with no DNS. */
async function publicAddresses(url: URL, lookup: Lookup, signal: AbortSignal, allowPrivate: boolean): Promise<string[]> {
  const host = bareHost(url);
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    let found: { address: string }[];
    try {
      found = await abortable(lookup(host), signal);
    } catch (e) {
      if (signal.aborted) throw e;
      throw new UrlRefused("dns", `the host ${host} could not be resolved`);
    }
    addresses = found.map((a) => a.address);
    if (addresses.length === 0) throw new UrlRefused("dns", `the host ${host} has no address`);
  }
  if (allowPrivate) return addresses;
  // Every address, not only the one connected to: a name that also points inside is refused
  // outright, so which address a retry or another resolver picks never matters.
  for (const address of addresses) {
    const why = forbiddenRange(address);
    if (why !== null) {
      const what = address === host ? `the address ${address}` : `the host ${host} resolves to ${address}, which`;
      throw new UrlRefused("address", `${what} is ${why}, not a public address`);
    }
  }
  return addresses;
}

/** null for a public unicast address, else what the address is ("loopback", "private", ...). */
export function forbiddenRange(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return "not an address this server understands";
  }
  if (ip.kind() === "ipv4") return v4Range(ip as ipaddr.IPv4);
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  const p = v6.parts;
  // The forms that carry an IPv4 address are judged by that address.
  if (range === "ipv4Mapped") return embedded(v6.toIPv4Address(), "IPv4-mapped");
  if (range === "rfc6052") {
    // 64:ff9b::/96 is NAT64 to the embedded IPv4 address; 64:ff9b:1::/48 is for local use.
    if (p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return embedded(v4FromParts(p[6]!, p[7]!), "NAT64");
    return "local-use NAT64";
  }
  if (range === "6to4") return embedded(v4FromParts(p[1]!, p[2]!), "6to4");
  // ::/96 (IPv4-compatible, deprecated; :: and ::1 too) is "unicast" to ipaddr.js apart from
  // :: and ::1 (::7f00:1 is how the URL parser writes [::127.0.0.1]); the 2000::/3 rule below
  // refuses it too, this names it in the message.
  if (p.slice(0, 6).every((x) => x === 0)) return range === "unicast" ? "IPv4-compatible" : range;
  if (range !== "unicast") return range;
  // Anything ipaddr.js does not name but which lies outside 2000::/3 is not a global address.
  if (!v6.match(ipaddr.IPv6.parse("2000::"), 3)) return "not global unicast";
  return null;
}

function v4Range(ip: ipaddr.IPv4): string | null {
  const range = ip.range();
  return range === "unicast" ? null : range;
}

function embedded(v4: ipaddr.IPv4, form: string): string | null {
  const why = v4Range(v4);
  return why === null ? null : `${form} ${v4.toString()} (${why})`;
}

function v4FromParts(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/**
 * One GET of `url`, connected to one of the addresses that were checked, never to whatever the
 * name resolves to a moment later (DNS rebinding). http: goes to the address with the original
 * Host header. https: goes to the address too, with the name as SNI and as the name the
 * certificate is verified against (Bun's fetch `tls.serverName`), so the check and the
 * certificate are both for the name the user gave. The next address is tried only when the
 * connection fails.
 */
async function request(url: URL, addresses: string[], fetchImpl: typeof fetch, opts: SafeFetchOptions, signal: AbortSignal): Promise<Response> {
  const host = bareHost(url);
  const literal = isIP(host) !== 0;
  const headers: Record<string, string> = { ...opts.headers, host: url.host, accept: "*/*" };
  if (opts.userAgent) headers["user-agent"] = opts.userAgent;
  const method = opts.method ?? "GET";
  let lastError: unknown;
  for (const address of addresses) {
    const target = new URL(url);
    target.hostname = address.includes(":") ? `[${address}]` : address;
    const init: RequestInit & { tls?: { serverName: string } } = { method, redirect: "manual", signal, headers };
    if (method === "POST" && opts.body !== undefined) init.body = opts.body;
    // SNI carries no trailing dot; a literal host has no name to verify beyond its address.
    if (url.protocol === "https:" && !literal) init.tls = { serverName: host.replace(/\.$/, "") };
    try {
      return await fetchImpl(target.href, init);
    } catch (e) {
      if (signal.aborted) throw e;
      lastError = e;
    }
  }
  const code = (lastError as { code?: unknown } | undefined)?.code;
  throw new UrlRefused("network", `could not connect to ${url.host}${typeof code === "string" ? ` (${code})` : ""}`);
}

/** The body, read chunk by chunk and abandoned the moment it passes `maxBytes` (refused, or with `excerpt` cut there). */
async function readCapped(res: Response, maxBytes: number, signal: AbortSignal, excerpt = false): Promise<Uint8Array> {
  const tooLarge = () => new UrlRefused("too_large", `the file is larger than ${maxBytes} bytes`);
  const declared = res.headers.get("content-length");
  if (!excerpt && declared !== null && Number(declared) > maxBytes) {
    await discard(res);
    throw tooLarge();
  }
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  // A body that stops sending must still end at the deadline: cancelling ends a pending read.
  const onAbort = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (e) {
        if (signal.aborted) throw e;
        throw new UrlRefused("network", "the connection broke while the file was being read");
      }
      if (signal.aborted) throw new UrlRefused("timeout", "the file did not arrive in time");
      if (chunk.done) break;
      total += chunk.value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        if (!excerpt) throw tooLarge();
        chunks.push(chunk.value.subarray(0, chunk.value.byteLength - (total - maxBytes)));
        total = maxBytes;
        break;
      }
      chunks.push(chunk.value);
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return bytes;
}

/** Lets go of a body we will not read, so its connection is freed. */
async function discard(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => {});
}

/** `p`, or a rejection as soon as `signal` aborts (a lookup cannot be cancelled, only abandoned). */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
