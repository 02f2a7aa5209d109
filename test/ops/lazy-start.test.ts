// An api node loads its heavy libraries at first use, not at start (docs/benchmarks.md,
// "Idle memory"): a started `shelf serve --role api` that has answered requests has loaded
// none of them. The spawned process reports its module registry as it exits.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testEnv } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const FIXTURE = new URL("./fixtures/loaded-modules.ts", import.meta.url).pathname;
const MAIN = new URL("../../src/main.ts", import.meta.url).pathname;

/** Loaded at first use only: sharp and libvips, markdown-it, music-metadata, nodemailer, the MCP SDK, jsdom, the Typst addon, the WebAuthn library. */
const HEAVY = [
  /\/node_modules\/sharp\//,
  /\/node_modules\/@img\//,
  /\/node_modules\/markdown-it\//,
  /\/node_modules\/music-metadata\//,
  /\/node_modules\/nodemailer\//,
  /\/node_modules\/@modelcontextprotocol\//,
  /\/node_modules\/jsdom\//,
  /\/node_modules\/@myriaddreamin\//,
  /\/node_modules\/@simplewebauthn\//,
];

test("an api node's start loads none of the libraries kept for first use", async () => {
  const dir = mkdtempSync(join(tmpdir(), "shelf-lazy-"));
  const out = join(dir, "modules.json");
  try {
    // SMTP_URL set: a mailer is built, and still nodemailer waits for the first message.
    const env = testEnv({ PORT: "0", LOG_LEVEL: "info", LOADED_MODULES_OUT: out, SMTP_URL: "smtp://127.0.0.1:9" });
    const child = Bun.spawn(["bun", "--preload", FIXTURE, MAIN, "serve", "--role", "api"], { env, stdout: "pipe", stderr: "inherit" });
    const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let log = "";
    // "ready" is logged once the database is open and the node has started everything it starts.
    while (!/"msg":"ready"/.test(log)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the api process exited during start:\n${log}`);
      log += decoder.decode(value, { stream: true });
    }
    void (async () => {
      while (!(await reader.read()).done);
    })();
    const base = /"msg":"api listening","url":"([^"]+)"/.exec(log)![1]!.replace("0.0.0.0", "127.0.0.1").replace(/\/$/, "");
    // A few requests through the router, the auth guard and the readiness checks.
    expect((await fetch(`${base}/ready`)).status).toBe(200);
    expect((await fetch(`${base}/v1/images`)).status).toBe(401);
    expect((await fetch(`${base}/v1/docs`)).status).toBe(401);
    child.kill("SIGTERM");
    expect(await child.exited).toBe(0);

    const loaded: string[] = JSON.parse(readFileSync(out, "utf8"));
    // The registry is the real one: the app's own modules and Elysia are in it.
    expect(loaded.some((p) => p.endsWith("/src/wiring/server.ts"))).toBe(true);
    expect(loaded.some((p) => p.includes("/node_modules/elysia/"))).toBe(true);
    expect(loaded.filter((p) => HEAVY.some((re) => re.test(p)))).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
