// The official conformance suite (@modelcontextprotocol/conformance) against a listening
// node, through a small proxy that adds an OAuth token issued for the MCP server (the
// suite's server scenarios send none). The scenarios run are those that apply to shelf;
// the others test features shelf does not offer (docs/api.md lists them and why).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { oauthApp } from "../oauth/flow.ts";
import { deviceTokens } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const SCENARIOS = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];
const CLI = new URL("../../node_modules/@modelcontextprotocol/conformance/dist/index.js", import.meta.url).pathname;

// The proxy listens first: its origin is the one the suite's requests carry, and the node is told to accept it.
let forward: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
const proxy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => forward(request) });
afterAll(() => {
  proxy.stop(true);
});
const PROXY_URL = `http://127.0.0.1:${proxy.port}/mcp`;

const o = await oauthApp((deps) => ({ config: { ...deps.config, MCP_ALLOWED_ORIGINS: new URL(PROXY_URL).origin } }));
const token = (await deviceTokens(o, await o.makeUser())).access_token;
forward = async (request) => {
  const headers = new Headers(request.headers);
  if (!headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
  return o.app.handle(new Request(o.deps.config.MCP_URL, { method: request.method, headers, body }));
};

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

describe("the MCP conformance suite's server scenarios", () => {
  for (const scenario of SCENARIOS) {
    test(scenario, { timeout: 60_000 }, async () => {
      const out = mkdtempSync(join(tmpdir(), "shelf-conformance-"));
      const proc = Bun.spawn([process.execPath, CLI, "server", "--url", PROXY_URL, "--scenario", scenario, "--output-dir", out], {
        stdout: "pipe",
        stderr: "pipe",
      });
      const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      const files = readdirSync(out, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith("checks.json"));
      const checks = files.flatMap((f) => JSON.parse(readFileSync(join(out, f), "utf8")) as Check[]);
      const failed = checks.filter((c) => c.status === "FAILURE");
      if (code !== 0 || failed.length) console.error(stdout, stderr, JSON.stringify(failed, null, 2));
      expect(checks.length).toBeGreaterThan(0);
      expect(failed).toEqual([]);
      expect(code).toBe(0);
    });
  }
});
