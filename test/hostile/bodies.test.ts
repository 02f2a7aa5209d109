// The slow body cases (`make test-hostile`, on real parts): 1.5 GB sent chunked, with no
// Content-Length, to routes that read a body before anything else, and to guarded routes
// without a credential (refused before a byte of the body is read). Each is refused within
// two seconds, and the node's resident memory does not grow with what was sent (it went
// from 119 MB to 2.19 GB when the provider callback was read whole).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { newId } from "../../src/infra/ids.ts";
import { startApiProcess, type ApiProcess } from "../helpers/api-process.ts";
import { offerBody, rssOf, zeros } from "../helpers/raw-http.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const run = !!process.env.SHELF_HOSTILE && !!process.env.DATABASE_URL;
const MB = 1024 * 1024;
const OFFERED = 1536 * MB;
/** "Within a second or two". */
const ANSWER_MS = 2000;
/** "An RSS growth of a few MB at most": what one route's read-ahead and the runtime's own churn come to. */
const GROWTH = 32 * MB;

let node: ApiProcess | undefined;
let token = "";

beforeAll(async () => {
  // The collector sized as for a small machine (docs/operators.md, Production deployment): on a large
  // one it lets garbage (what a refused body left) pile up, and the growth measured is its choice.
  if (!run) return;
  node = await startApiProcess({ BUN_JSC_forceRAMSize: String(256 * MB) });
  const res = await fetch(`${node.base}/v1/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: `hostile-${newId()}@example.test`.toLowerCase(), password: "correct horse battery staple" }),
  });
  token = ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
});
afterAll(() => node?.stop());

/**
 * Each route, and what it may hold: a document route keeps up to 64 MB of text by design for
 * a signed-in caller (and reads up to 8 MB more, dropped, before it hangs up), here for two
 * clients, and the collector need not have given it back yet: bounded by its limit, far
 * from the 1.5 GB sent. Without a credential it holds nothing.
 */
const ROUTES: [method: string, path: string, type: string, status: number, holds?: number, signedIn?: boolean][] = [
  ["POST", "/webhooks/local", "application/json", 413],
  ["POST", "/webhooks/mux", "application/octet-stream", 413],
  ["POST", "/v1/auth/login", "application/json", 413],
  ["POST", "/v1/auth/signup", "text/plain", 413],
  ["POST", "/v1/kbs", "application/json", 401],
  ["POST", "/v1/docs", "application/json", 401],
  ["POST", "/v1/kbs/abcdefghijklmnopqrstu/sync", "application/json", 401],
  ["POST", "/v1/docs", "application/json", 413, 2 * 72 * MB, true],
  ["DELETE", "/v1/kbs/abcdefghijklmnopqrstu", "application/octet-stream", 401],
  ["POST", "/oauth/token", "application/x-www-form-urlencoded", 400],
];

describe.skipIf(!run)("1.5 GB bodies against a running node", () => {
  for (const [method, path, type, status, holds = 0, signedIn = false] of ROUTES) {
    const who = signedIn ? "signed in" : "no credential";
    test(`${method} ${path} (${type}, ${who}) is refused with ${status} within ${ANSWER_MS} ms and its memory stays flat`, async () => {
      const before = await rssOf(node!.child.pid);
      const body = zeros(OFFERED, 256 * 1024);
      const headers: Record<string, string> = { "content-type": type, ...(signedIn && { authorization: `Bearer ${token}` }) };
      const t0 = performance.now();
      const res = await fetch(`${node!.base}${path}`, { method, body: body.stream, headers });
      const ms = performance.now() - t0;
      expect(res.status).toBe(status);
      expect(res.headers.get("connection")).toBe("close");
      await res.text();
      expect(ms).toBeLessThan(ANSWER_MS);
      expect(body.offered()).toBeLessThan(256 * MB);
      // A client that goes on sending is cut off as soon.
      const hostile = await offerBody(node!.base, method, path, OFFERED, headers);
      expect(hostile.cutOff).toBe(true);
      expect(hostile.sent).toBeLessThan(256 * MB);
      const grown = (await rssOf(node!.child.pid)) - before;
      console.log(`  ${method} ${path}: ${status} in ${ms.toFixed(0)} ms; RSS grew ${(grown / MB).toFixed(1)} MB`);
      expect(grown).toBeLessThan(holds + GROWTH);
    });
  }

  test("a GET with a 1.5 GB body is 413 at once, and the node drops the body without holding it", async () => {
    const before = await rssOf(node!.child.pid);
    const t0 = Date.now();
    const r = await offerBody(node!.base, "GET", "/health", OFFERED);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ code: "FILE_TOO_LARGE", meta: { limit: 0 } });
    console.log(`  GET /health with 1.5 GB: ${Date.now() - t0} ms to send it all`);
    expect((await rssOf(node!.child.pid)) - before).toBeLessThan(GROWTH);
  });
});
