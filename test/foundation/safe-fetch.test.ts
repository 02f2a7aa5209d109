// safeFetch: a URL a user gives is fetched only from public addresses, connected to the address
// that was checked, each redirect checked again, within caps on bytes and time. The resolver
// and the fetch are injected, so what would have been connected to is recorded, never made;
// safe-fetch-servers.test.ts runs the same code against real servers on 127.0.0.1.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { type Lookup, type RefusalReason, safeFetch } from "../../src/infra/safe-fetch.ts";
import { fetchOpts as opts, PUBLIC_V4, PUBLIC_V6, recorder, refusal, resolver } from "../helpers/fetch-recorder.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const ok = (body: BodyInit | null = "ok", headers: HeadersInit = {}) => new Response(body, { status: 200, headers });
const redirect = (location: string, status = 302) => new Response(null, { status, headers: { location } });

describe("safeFetch refuses what must not be fetched, before any connection", () => {
  // Every notation the URL parser turns into a forbidden address, and every forbidden range.
  const literals = [
    "http://127.0.0.1/",
    "http://127.255.255.254/",
    "http://2130706433/", // decimal
    "http://0177.0.0.1/", // octal
    "http://0x7f.1/", // hex, short form
    "http://0x7f000001/",
    "http://127.1/",
    "http://%31%32%37.0.0.1/", // percent-encoded
    "http://①②⑦.0.0.1/", // full-width digits, folded by IDNA
    "http://0/",
    "http://0.0.0.0:8080/",
    "http://10.1.2.3/",
    "http://172.16.0.1/",
    "http://172.31.255.255/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data/", // cloud metadata
    "http://100.64.0.1/", // CGNAT
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "http://240.0.0.1/",
    "http://198.18.0.1/", // benchmarking
    "http://198.19.255.255/",
    "http://192.0.2.1/", // documentation
    "http://198.51.100.7/",
    "http://203.0.113.9/",
    "http://192.0.0.8/",
    "https://127.0.0.1/",
    "http://[::1]/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[0:0:0:0:0:ffff:127.0.0.1]/",
    "http://[::127.0.0.1]/", // IPv4-compatible
    "http://[::ffff:169.254.169.254]/",
    "http://[::ffff:10.0.0.1]/",
    "http://[64:ff9b::7f00:1]/", // NAT64 of loopback
    "http://[64:ff9b::a9fe:a9fe]/", // NAT64 of metadata
    "http://[64:ff9b:1::1]/", // local-use NAT64
    "http://[2002:7f00:1::]/", // 6to4 of loopback
    "http://[2002:a9fe:a9fe::1]/",
    "http://[2002:c0a8:101::1]/", // 6to4 of 192.168.1.1
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "http://[fe80::1]/",
    "http://[febf:ffff::1]/",
    "http://[ff02::1]/",
    "http://[2001:db8::1]/",
    "http://[fec0::1]/",
    "http://[100::1]/",
    "http://[2001::1]/", // Teredo
    "https://[::1]:8443/",
  ];
  test.each(literals)("%s is refused as an address, with no DNS and no connection", async (url) => {
    const net = recorder();
    const dns = resolver(PUBLIC_V4);
    const e = await refusal(safeFetch(url, { ...opts, lookup: dns.lookup, fetchImpl: net.impl }));
    expect(e.reason).toBe("address");
    expect(e.message).toContain("not a public address");
    expect(net.calls).toEqual([]);
    expect(dns.asked).toEqual([]);
  });

  const resolved = [
    "127.0.0.1",
    "::1",
    "10.0.0.5",
    "169.254.169.254",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe",
    "fd00::1",
    "fe80::1%eth0",
    "0.0.0.0",
    "100.100.100.200",
  ];
  test.each(resolved)("a name that resolves to %s is refused", async (address) => {
    const net = recorder();
    const e = await refusal(safeFetch("http://innocent.example/a.png", { ...opts, lookup: resolver(address).lookup, fetchImpl: net.impl }));
    expect(e.reason).toBe("address");
    expect(e.message).toContain("innocent.example");
    expect(net.calls).toEqual([]);
  });

  test("a name is refused when any one of its addresses is not public", async () => {
    const net = recorder();
    const e = await refusal(safeFetch("https://mixed.example/", { ...opts, lookup: resolver(PUBLIC_V4, PUBLIC_V6, "10.0.0.1").lookup, fetchImpl: net.impl }));
    expect(e.reason).toBe("address");
    expect(net.calls).toEqual([]);
  });

  const schemes = [
    "ftp://example.com/a.png",
    "file:///etc/passwd",
    "gopher://example.com/",
    "data:image/png;base64,AAAA",
    "javascript:alert(1)",
    "ws://example.com/",
    "not a url",
  ];
  test.each(schemes)("%s is refused for its scheme", async (url) => {
    const net = recorder();
    const e = await refusal(safeFetch(url, { ...opts, lookup: resolver(PUBLIC_V4).lookup, fetchImpl: net.impl }));
    expect(e.reason).toBe("scheme");
    expect(net.calls).toEqual([]);
  });

  test.each(["http://user:secret@example.com/a.png", "https://user@example.com/", "http://:pw@example.com/"])(
    "%s is refused for its credentials",
    async (url) => {
      const net = recorder();
      const e = await refusal(safeFetch(url, { ...opts, lookup: resolver(PUBLIC_V4).lookup, fetchImpl: net.impl }));
      expect(e.reason).toBe("credentials");
      expect(net.calls).toEqual([]);
    },
  );

  test("a name that does not resolve, or resolves to nothing, is a dns refusal", async () => {
    const failing: Lookup = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    const net = recorder();
    expect((await refusal(safeFetch("http://nowhere.example/", { ...opts, lookup: failing, fetchImpl: net.impl }))).reason).toBe("dns");
    expect((await refusal(safeFetch("http://nowhere.example/", { ...opts, lookup: resolver().lookup, fetchImpl: net.impl }))).reason).toBe("dns");
    expect(net.calls).toEqual([]);
  });
});

describe("safeFetch connects to the address it checked", () => {
  test("http: the request goes to the checked IP with the original Host, and the bytes come back", async () => {
    const dns = resolver(PUBLIC_V4);
    const net = recorder(() => ok(new Uint8Array([1, 2, 3]), { "content-type": "image/png" }));
    const got = await safeFetch("http://example.com/img.png?x=1#frag", { ...opts, lookup: dns.lookup, fetchImpl: net.impl, userAgent: "shelf-test" });
    expect(dns.asked).toEqual(["example.com"]);
    expect(net.calls).toHaveLength(1);
    const [call] = net.calls;
    expect(call!.url).toBe(`http://${PUBLIC_V4}/img.png?x=1`);
    expect(call!.host).toBe("example.com");
    expect(new Headers(call!.init.headers).get("user-agent")).toBe("shelf-test");
    expect(call!.init.redirect).toBe("manual");
    expect(call!.init.tls).toBeUndefined();
    expect(got).toEqual({ bytes: new Uint8Array([1, 2, 3]), contentType: "image/png", finalUrl: "http://example.com/img.png?x=1", status: 200 });
  });

  test("a port and an IPv6 address are kept: [v6]:port in the URL, name:port in Host", async () => {
    const net = recorder(() => ok());
    await safeFetch("http://example.com:8080/a", { ...opts, lookup: resolver(PUBLIC_V6).lookup, fetchImpl: net.impl });
    expect(net.calls[0]!.url).toBe(`http://[${PUBLIC_V6}]:8080/a`);
    expect(net.calls[0]!.host).toBe("example.com:8080");
  });

  test("https: the request goes to the checked IP with the name as TLS server name", async () => {
    const net = recorder(() => ok());
    await safeFetch("https://cdn.example.org./a.png", { ...opts, lookup: resolver(PUBLIC_V4).lookup, fetchImpl: net.impl });
    expect(net.calls[0]!.url).toBe(`https://${PUBLIC_V4}/a.png`);
    expect(net.calls[0]!.init.tls).toEqual({ serverName: "cdn.example.org" });
    expect(net.calls[0]!.host).toBe("cdn.example.org.");
  });

  test("public literals pass, including NAT64 and 6to4 forms of a public IPv4 address", async () => {
    for (const host of [PUBLIC_V4, `[${PUBLIC_V6}]`, "[64:ff9b::5db8:d822]", "[2002:5db8:d822::1]"]) {
      const dns = resolver("10.0.0.1");
      const net = recorder(() => ok());
      await safeFetch(`https://${host}/`, { ...opts, lookup: dns.lookup, fetchImpl: net.impl });
      expect(dns.asked).toEqual([]);
      expect(net.calls.map((c) => [c.url, c.init.tls])).toEqual([[`https://${host}/`, undefined]]);
    }
  });

  test("when one checked address does not connect, the next one is tried; when none does, a network refusal", async () => {
    const refused = () => Promise.reject(Object.assign(new Error("connect failed"), { code: "ECONNREFUSED" }));
    const net = recorder((_, n) => (n === 1 ? refused() : ok("second")));
    const got = await safeFetch("http://example.com/", { ...opts, lookup: resolver(PUBLIC_V6, PUBLIC_V4).lookup, fetchImpl: net.impl });
    expect(new TextDecoder().decode(got.bytes)).toBe("second");
    expect(net.calls.map((c) => c.url)).toEqual([`http://[${PUBLIC_V6}]/`, `http://${PUBLIC_V4}/`]);

    const down = recorder(refused);
    const e = await refusal(safeFetch("http://example.com/", { ...opts, lookup: resolver(PUBLIC_V4).lookup, fetchImpl: down.impl }));
    expect(e.reason).toBe("network");
    expect(e.message).toContain("ECONNREFUSED");
  });

  test("a non-2xx answer is a status refusal that names the status", async () => {
    const net = recorder(() => new Response("nope", { status: 404, statusText: "Not Found" }));
    const e = await refusal(safeFetch("http://example.com/missing.png", { ...opts, lookup: resolver(PUBLIC_V4).lookup, fetchImpl: net.impl }));
    expect(e.reason).toBe("status");
    expect(e.status).toBe(404);
    expect(e.message).toContain("404");
  });
});

describe("safeFetch checks every redirect again", () => {
  const hosts: Record<string, string[]> = { "example.com": [PUBLIC_V4], "internal.example": ["10.0.0.7"], "other.example": [PUBLIC_V6] };
  const lookup: Lookup = async (name) => (hosts[name] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  const badTargets: [string, RefusalReason][] = [
    ["http://internal.example/secret", "address"],
    ["http://127.0.0.1:6379/", "address"],
    ["http://169.254.169.254/latest/meta-data/", "address"],
    ["http://[::ffff:7f00:1]/", "address"],
    ["file:///etc/passwd", "scheme"],
    ["http://admin:pw@other.example/", "credentials"],
  ];
  test.each(badTargets)("a redirect from a public address to %s is refused (%s) without following it", async (location, reason) => {
    const net = recorder(() => redirect(location));
    const e = await refusal(safeFetch("http://example.com/start", { ...opts, lookup, fetchImpl: net.impl }));
    expect(e.reason).toBe(reason);
    expect(net.calls.map((c) => c.url)).toEqual([`http://${PUBLIC_V4}/start`]);
  });

  test("a relative redirect and one to another host are followed, each to its own checked address", async () => {
    const net = recorder((call) => {
      if (call.url.endsWith("/start")) return redirect("/moved", 301);
      if (call.url.endsWith("/moved")) return redirect("https://other.example/final.png", 307);
      return ok("here", { "content-type": "image/png" });
    });
    const got = await safeFetch("http://example.com/start", { ...opts, lookup, fetchImpl: net.impl });
    expect(net.calls.map((c) => [c.url, c.host])).toEqual([
      [`http://${PUBLIC_V4}/start`, "example.com"],
      [`http://${PUBLIC_V4}/moved`, "example.com"],
      [`https://[${PUBLIC_V6}]/final.png`, "other.example"],
    ]);
    expect(net.calls[2]!.init.tls).toEqual({ serverName: "other.example" });
    expect(got.finalUrl).toBe("https://other.example/final.png");
    expect(new TextDecoder().decode(got.bytes)).toBe("here");
  });

  test("more redirects than maxRedirects is a redirect refusal", async () => {
    const net = recorder((_, n) => redirect(`/hop${n}`));
    const e = await refusal(safeFetch("http://example.com/hop0", { ...opts, maxRedirects: 3, lookup, fetchImpl: net.impl }));
    expect(e.reason).toBe("redirect");
    expect(e.message).toContain("3");
    expect(net.calls).toHaveLength(4);
  });

  test("the default is five redirects", async () => {
    const net = recorder((_, n) => (n <= 5 ? redirect(`/hop${n}`) : ok()));
    await safeFetch("http://example.com/hop0", { ...opts, lookup, fetchImpl: net.impl });
    expect(net.calls).toHaveLength(6);
    const more = recorder((_, n) => redirect(`/hop${n}`));
    expect((await refusal(safeFetch("http://example.com/hop0", { ...opts, lookup, fetchImpl: more.impl }))).reason).toBe("redirect");
    expect(more.calls).toHaveLength(6);
  });

  test("a redirect loop is a redirect refusal", async () => {
    const net = recorder((call) => redirect(call.url.endsWith("/a") ? "/b" : "/a"));
    const e = await refusal(safeFetch("http://example.com/a", { ...opts, lookup, fetchImpl: net.impl }));
    expect(e.reason).toBe("redirect");
    expect(e.message).toContain("loop");
    expect(net.calls).toHaveLength(2);
  });
});

describe("safeFetch caps size and time", () => {
  const lookup = resolver(PUBLIC_V4).lookup;

  /** A body that grows 64 bytes a pull for ever; records pulls and whether it was cancelled. */
  function endless(first = true) {
    const state = { pulls: 0, cancelled: false };
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        state.pulls++;
        if (first) c.enqueue(new Uint8Array(64));
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { state, stream };
  }

  test("a Content-Length over maxBytes is refused before the body is read", async () => {
    const body = endless();
    const net = recorder(() => ok(body.stream, { "content-length": "5000" }));
    const e = await refusal(safeFetch("http://example.com/big.png", { ...opts, maxBytes: 1000, lookup, fetchImpl: net.impl }));
    expect(e.reason).toBe("too_large");
    expect(body.state.cancelled).toBe(true);
    expect(body.state.pulls).toBeLessThanOrEqual(1); // at most the stream's own start-up pull
  });

  test("a body without a length that grows past maxBytes is cut off as it streams", async () => {
    const body = endless();
    const net = recorder(() => ok(body.stream));
    const e = await refusal(safeFetch("http://example.com/stream", { ...opts, maxBytes: 1000, lookup, fetchImpl: net.impl }));
    expect(e.reason).toBe("too_large");
    expect(e.message).toContain("1000");
    expect(body.state.cancelled).toBe(true);
    expect(body.state.pulls).toBeLessThan(20); // 16 chunks reach 1024 bytes
  });

  test("a body of exactly maxBytes is taken whole", async () => {
    const net = recorder(() => ok(new Uint8Array(1000).fill(7)));
    const got = await safeFetch("http://example.com/fits", { ...opts, maxBytes: 1000, lookup, fetchImpl: net.impl });
    expect(got.bytes.byteLength).toBe(1000);
  });

  test("a server that never answers is ended by the deadline's abort", async () => {
    let abortedSignal = false;
    const net = recorder(
      (call) =>
        new Promise<Response>((_, reject) =>
          call.init.signal!.addEventListener("abort", () => {
            abortedSignal = true;
            reject(call.init.signal!.reason);
          }),
        ),
    );
    const e = await refusal(safeFetch("http://example.com/slow", { ...opts, timeoutMs: 30, lookup, fetchImpl: net.impl }));
    expect(e.reason).toBe("timeout");
    expect(abortedSignal).toBe(true);
  });

  test("a body that stops arriving is ended by the deadline", async () => {
    const body = endless(false);
    const net = recorder(() => ok(body.stream));
    const e = await refusal(safeFetch("http://example.com/trickle", { ...opts, timeoutMs: 30, lookup, fetchImpl: net.impl }));
    expect(e.reason).toBe("timeout");
    expect(body.state.cancelled).toBe(true);
  });

  test("a resolver that never answers is ended by the deadline", async () => {
    const net = recorder();
    const hanging: Lookup = () => new Promise(() => {});
    const e = await refusal(safeFetch("http://example.com/", { ...opts, timeoutMs: 30, lookup: hanging, fetchImpl: net.impl }));
    expect(e.reason).toBe("timeout");
    expect(net.calls).toEqual([]);
  });
});
