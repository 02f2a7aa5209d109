// The log's lines for stdout are written in batches (docs/operators.md, "Logs"): a node
// stopped with SIGTERM right after answering still writes every access line it owes before
// it exits. The node runs in its own process, its stdout a pipe read to its end; the test
// waits on the answers and then on the process's exit, never on a timer.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { emptyInstanceEnv } from "../helpers/empty-instance.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const ROOT = join(import.meta.dir, "../..");
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/**
 * `shelf serve --role api` with ACCESS_LOG as it ships; its whole stdout once it has exited
 * (`hangUp`: the reader stops reading and closes the pipe once the node listens).
 */
async function startNode(hangUp = false) {
  const instance = await emptyInstanceEnv({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" });
  closers.push(instance.close);
  const child = Bun.spawn(["bun", "src/main.ts", "serve", "--role", "api"], { cwd: ROOT, env: instance.env, stdout: "pipe", stderr: "inherit" });
  closers.push(async () => {
    child.kill("SIGKILL");
    await child.exited;
  });
  let text = "";
  let ready!: (url: string) => void;
  const listening = new Promise<string>((resolve) => {
    ready = resolve;
  });
  const all = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout as ReadableStream<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      const url = /"msg":"api listening","url":"([^"]+)"/.exec(text)?.[1];
      if (url) ready(url);
      if (url && hangUp) break;
    }
    return text;
  })();
  const url = await Promise.race([listening, child.exited.then((code) => Promise.reject(new Error(`the node exited with ${code} during start`)))]);
  return { base: url.replace(/\/$/, ""), child, stdout: all };
}

describe("the log at shutdown", () => {
  test("every access line of requests answered just before SIGTERM is written before the node exits, with its request id", async () => {
    const node = await startNode();
    const ids = Array.from({ length: 400 }, (_, i) => `before-stop-${i}`);
    // Half through the app (a route Elysia answers), half through the media edge (a Bun route).
    const answers = await Promise.all(
      ids.map((id, i) => fetch(`${node.base}${i % 2 ? "/health" : "/media/nothing-here.webp"}`, { headers: { "x-request-id": id } })),
    );
    for (const res of answers) await res.arrayBuffer();
    expect(answers.map((r) => r.headers.get("x-request-id"))).toEqual(ids);
    node.child.kill("SIGTERM");
    expect(await node.child.exited).toBe(0);
    const lines = (await node.stdout)
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const logged = new Map(lines.filter((l) => l.msg === "request").map((l) => [l.requestId, l]));
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
    expect(logged.get("before-stop-0")).toMatchObject({ level: "info", method: "GET", route: "/media/*", status: 404 });
    expect(logged.get("before-stop-1")).toMatchObject({ level: "info", method: "GET", route: "/health", status: 200 });
    // And the node's own last line, after them.
    expect(lines.at(-1)).toMatchObject({ msg: "stopped" });
  });

  test("a node whose journal has gone (its stdout closed) keeps answering: the lines it cannot write are lost, not the node", async () => {
    const node = await startNode(true);
    await node.stdout;
    // More than a batch of lines (64 KB), so batches are written to the closed pipe meanwhile.
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all(Array.from({ length: 200 }, () => fetch(`${node.base}/health`)));
      expect(answers.every((r) => r.status === 200)).toBe(true);
    }
    node.child.kill("SIGTERM");
    expect(await node.child.exited).toBe(0);
  });
});
