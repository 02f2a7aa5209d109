// safeFetch with real servers on 127.0.0.1: asked for directly they are refused and see no
// request; reached through a public address routed to them for the test, they show what Bun's
// real fetch sends for the request safeFetch builds (Host, TLS server name).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { safeFetch } from "../../src/infra/safe-fetch.ts";
import { type Init, fetchOpts as opts, PUBLIC_V4, refusal, resolver } from "../helpers/fetch-recorder.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("safeFetch against real servers on this machine", () => {
  const seen: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      seen.push(req.headers.get("host") ?? "");
      return new Response("inside");
    },
  });
  afterAll(() => void server.stop(true));

  test("a loopback server is refused by address and through the name localhost, and receives nothing", async () => {
    const p = server.port;
    for (const url of [
      `http://localhost:${p}/`,
      `http://127.0.0.1:${p}/`,
      `http://2130706433:${p}/`,
      `http://0x7f.1:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
    ]) {
      const e = await refusal(safeFetch(url, opts));
      expect(e.reason).toBe("address");
    }
    expect(seen).toEqual([]);
  });

  test("over plain http the real fetch sends the original Host to the pinned address", async () => {
    // The public address that passed the check is, for this test only, routed to the local server.
    const routed = ((url: string, init: RequestInit) => fetch(url.replace(PUBLIC_V4, "127.0.0.1"), init)) as unknown as typeof fetch;
    const got = await safeFetch(`http://images.example:${server.port}/a.png`, { ...opts, lookup: resolver(PUBLIC_V4).lookup, fetchImpl: routed });
    expect(new TextDecoder().decode(got.bytes)).toBe("inside");
    expect(seen.at(-1)).toBe(`images.example:${server.port}`);
  });

  // Pinning https to an address relies on Bun's fetch verifying the certificate against
  // tls.serverName rather than the address in the URL: checked here against a real TLS server.
  const openssl = Bun.which("openssl");
  test.skipIf(!openssl)("over https the certificate is verified for the name, not the pinned address", async () => {
    const dir = mkdtempSync(join(tmpdir(), "safe-fetch-tls-"));
    try {
      const made = Bun.spawnSync(
        [openssl!, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=pinned.test"].concat([
          "-addext",
          "subjectAltName=DNS:pinned.test",
          "-keyout",
          join(dir, "key.pem"),
          "-out",
          join(dir, "cert.pem"),
        ]),
        { stderr: "pipe" },
      );
      expect(made.exitCode).toBe(0);
      const cert = readFileSync(join(dir, "cert.pem"), "utf8");
      const tlsServer = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        tls: { cert, key: readFileSync(join(dir, "key.pem"), "utf8") },
        fetch: (req) => new Response(`tls ${req.headers.get("host")}`),
      });
      try {
        // Routed to the local server, trusting its self-signed certificate, and otherwise
        // exactly the request safeFetch built (its tls.serverName included).
        const routed = ((url: string, init: Init) =>
          fetch(url.replace(PUBLIC_V4, "127.0.0.1"), { ...init, tls: { ...init.tls, ca: cert } } as RequestInit)) as unknown as typeof fetch;
        const good = await safeFetch(`https://pinned.test:${tlsServer.port}/`, { ...opts, lookup: resolver(PUBLIC_V4).lookup, fetchImpl: routed });
        expect(new TextDecoder().decode(good.bytes)).toBe(`tls pinned.test:${tlsServer.port}`);

        const wrongName = await refusal(
          safeFetch(`https://impostor.test:${tlsServer.port}/`, { ...opts, lookup: resolver(PUBLIC_V4).lookup, fetchImpl: routed }),
        );
        expect(wrongName.reason).toBe("network");
        expect(wrongName.message).toContain("ERR_TLS_CERT_ALTNAME_INVALID");
      } finally {
        tlsServer.stop(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
