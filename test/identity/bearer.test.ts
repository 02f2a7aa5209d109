// The Authorization header must be exactly `Bearer <token>`; nothing in it can cause a 500.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connect } from "node:net";
import { SCOPES } from "../../src/core/scopes.ts";
import { call, callJson, testContext } from "../helpers/context.ts";
import { makeKey, makeUser } from "../helpers/factories.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("Bearer parsing", () => {
  test("malformed headers are 401 UNAUTHORIZED", async () => {
    const u = await makeUser();
    const { key } = await makeKey(u);
    const bad = [
      key,
      `bearer ${key}`,
      `Bearer  ${key}`,
      // (Leading and trailing whitespace is not part of a header value in HTTP, so
      // "Bearer <key> " arrives as "Bearer <key>"; whitespace inside is refused.)
      `Bearer ${key}\t\t${key}`,
      `Bearer\t${key}`,
      `Basic ${btoa("a:b")}`,
      "Bearer",
      "Bearer ",
      `Bearer ${key.slice(0, -1)}`,
      `Bearer ${key}x`,
      `Bearer sk_live_${"A".repeat(32)}`,
      `Bearer sk_test_${"A".repeat(32)}`,
      "Bearer a.b.c",
      "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
      `Bearer ${"A".repeat(5000)}`,
      `Bearer ${"x".repeat(100_000)}`,
      `Bearer ${key},${key}`,
      "Bearer ../../etc/passwd",
      "Bearer %00",
    ];
    for (const header of bad) {
      const res = await callJson("GET", "/v1/user/me", { headers: { authorization: header } });
      expect({ header: header.slice(0, 40), status: res.status }).toEqual({ header: header.slice(0, 40), status: 401 });
      expect(res.body.code).toBe("UNAUTHORIZED");
    }
  });

  test("a key without the route's scope is 403 FORBIDDEN naming the scope", async () => {
    const u = await makeUser();
    const { key } = await makeKey(
      u,
      SCOPES.filter((s) => s !== "account.read"),
    );
    const res = await callJson("GET", "/v1/user/me", { token: key });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "FORBIDDEN", meta: { required: "account.read" } });
  });
});

// Raw bytes that a fetch Request cannot even carry, sent over a real socket.
describe("Bearer parsing over a real socket", () => {
  let server: ReturnType<typeof Bun.serve>;
  beforeAll(async () => {
    const { app } = await testContext();
    server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch });
  });
  // Not awaited: a connection the client pool keeps open can hold the promise past the hook timeout.
  afterAll(() => {
    server.stop(true);
  });

  const raw = (header: Buffer) =>
    new Promise<string>((resolve, reject) => {
      const sock = connect(server.port!, "127.0.0.1", () => {
        sock.write(
          Buffer.concat([Buffer.from("GET /v1/user/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: "), header, Buffer.from("\r\n\r\n")]),
        );
      });
      let out = "";
      sock.on("data", (d) => (out += d.toString("latin1")));
      sock.on("end", () => resolve(out));
      sock.on("error", reject);
    });

  test("non-ASCII, control and invalid UTF-8 bytes never produce a 500", async () => {
    for (const h of [
      Buffer.from("Bearer sk_live_\xff\xfe\xfd", "latin1"),
      Buffer.from("Bearer ü€😀", "utf8"),
      Buffer.from([0x42, 0x65, 0x61, 0x72, 0x65, 0x72, 0x20, 0xc3, 0x28]),
      Buffer.from("Bearer \x01\x02\x7f", "latin1"),
    ]) {
      const response = await raw(h);
      const status = Number(response.split(" ")[1]);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
  });
});

test("an unknown but well-formed key is 401, not a lookup error", async () => {
  const res = await call("GET", "/v1/user/me", { token: `sk_live_${"Z".repeat(32)}` });
  expect(res.status).toBe(401);
});
