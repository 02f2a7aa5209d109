// The address login and sign-up limits are counted on.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Server } from "bun";
import { clientIp } from "../../src/http/client-ip.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const socket = { requestIP: () => ({ address: "192.0.2.7", family: "IPv4", port: 5000 }) } as unknown as Server<unknown>;
const req = (xff?: string) => new Request("http://shelf.test/", { headers: xff === undefined ? {} : { "x-forwarded-for": xff } });

describe("clientIp", () => {
  test("without TRUST_PROXY, X-Forwarded-For is ignored: the socket's address", () => {
    expect(clientIp(req("203.0.113.9"), socket, false)).toBe("192.0.2.7");
    expect(clientIp(req(), null, false)).toBe("unknown");
  });

  test("behind a trusted proxy, the last hop (the one the proxy appended), never a hop the client wrote", () => {
    expect(clientIp(req("203.0.113.9"), socket, true)).toBe("203.0.113.9");
    expect(clientIp(req("1.2.3.4, 203.0.113.9"), socket, true)).toBe("203.0.113.9");
    expect(clientIp(req("1.2.3.4,5.6.7.8,  203.0.113.9 "), socket, true)).toBe("203.0.113.9");
    expect(clientIp(req("2001:db8::1, 2001:db8::2"), socket, true)).toBe("2001:db8::2");
  });

  test("an empty or oversized last hop falls back to the socket's address", () => {
    expect(clientIp(req(""), socket, true)).toBe("192.0.2.7");
    expect(clientIp(req("1.2.3.4, "), socket, true)).toBe("192.0.2.7");
    expect(clientIp(req(`1.2.3.4, ${"x".repeat(65)}`), socket, true)).toBe("192.0.2.7");
    expect(clientIp(req(), socket, true)).toBe("192.0.2.7");
  });
});
