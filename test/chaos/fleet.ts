// The fleet `make chaos` runs: Postgres (a throwaway cluster), Redis and s3rver started as
// scripts/real-parts.sh starts them, each on a fixed loopback port so that a restart comes
// back where the nodes look for it, and two api and two worker nodes (`bun src/main.ts
// serve --role ...`) on those parts. Every part and node can be killed and started again.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findPgBin, type PgCluster, startPgCluster } from "../helpers/pg-cluster.ts";

const repo = join(import.meta.dir, "../..");

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/** Resolves once something accepts connections on the port (the part's own start signal). */
async function listens(port: number, what: string, alive: () => boolean): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const ok = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).then(
      (s) => (s.end(), true),
      () => false,
    );
    if (ok) return;
    if (!alive()) throw new Error(`${what} exited during start`);
    await Bun.sleep(50); // polling a port: the part gives no other signal that it listens
  }
  throw new Error(`${what} did not listen on ${port} within 30 s`);
}

export interface Node {
  name: string;
  role: "api" | "worker";
  /** http://127.0.0.1:<port> for an api node. */
  base: string;
  up: boolean;
  /** Warn and error lines of every life of the node (JSON, one a line). */
  log: string[];
}

export interface Fleet {
  env: Record<string, string>;
  /** The loopback balancer in front of the api nodes: PUBLIC_URL, and where workers post their callbacks. */
  balancer: string;
  nodes: Node[];
  start(node: Node): Promise<void>;
  kill(node: Node): Promise<void>;
  pg: PgCluster;
  redis: { start(): Promise<void>; stop(): Promise<void> };
  s3: { start(): Promise<void>; stop(): Promise<void> };
  close(): Promise<void>;
}

export async function startFleet(opts: { apis: number; workers: number; nodeEnv: Record<string, string> }): Promise<Fleet> {
  const pgBin = findPgBin();
  if (!pgBin) throw new Error("chaos: Postgres server binaries not found (set PG_BIN)");
  const work = mkdtempSync(join(tmpdir(), "shelf-chaos-"));
  const pg = await startPgCluster(pgBin);

  const redisPort = freePort();
  let redisProc: ReturnType<typeof Bun.spawn> | undefined;
  const redis = {
    async start() {
      const proc = Bun.spawn(
        [
          "redis-server",
          "--port",
          String(redisPort),
          "--bind",
          "127.0.0.1",
          "--save",
          "",
          "--appendonly",
          "no",
          "--dir",
          work,
          "--logfile",
          join(work, "redis.log"),
        ],
        { stdout: "ignore", stderr: "ignore" },
      );
      redisProc = proc;
      await listens(redisPort, "redis-server", () => proc.exitCode === null);
    },
    async stop() {
      redisProc?.kill("SIGTERM");
      await redisProc?.exited;
    },
  };

  const s3Port = freePort();
  const s3Dir = join(work, "s3");
  mkdirSync(s3Dir);
  let s3Proc: ReturnType<typeof Bun.spawn> | undefined;
  let bucketMade = false;
  const s3 = {
    async start() {
      // --openssl-legacy-provider: see scripts/real-parts.sh (s3rver's list continuation tokens).
      const args = [
        "node",
        "--openssl-legacy-provider",
        join(repo, "node_modules/s3rver/bin/s3rver.js"),
        "-d",
        s3Dir,
        "-a",
        "127.0.0.1",
        "-p",
        String(s3Port),
        "--silent",
      ];
      if (!bucketMade) args.push("--configure-bucket", "shelf-chaos");
      bucketMade = true;
      const proc = Bun.spawn(args, { stdout: "ignore", stderr: "ignore" });
      s3Proc = proc;
      await listens(s3Port, "s3rver", () => proc.exitCode === null);
    },
    async stop() {
      s3Proc?.kill("SIGKILL");
      await s3Proc?.exited;
    },
  };
  await Promise.all([redis.start(), s3.start()]);

  // What an operator puts in front of two api nodes: a balancer that passes each request to
  // a node that is up. The workers post the local provider's callbacks through it.
  const nodes: Node[] = [];
  let turn = 0;
  const balancer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    maxRequestBodySize: 2 ** 32,
    async fetch(req) {
      const apis = nodes.filter((n) => n.role === "api" && n.up);
      const node = apis[turn++ % Math.max(apis.length, 1)];
      const url = new URL(req.url);
      if (!node) return new Response("no api node is up", { status: 503, headers: { "retry-after": "1" } });
      try {
        return await fetch(`${node.base}${url.pathname}${url.search}`, { method: req.method, headers: req.headers, body: req.body, redirect: "manual" });
      } catch {
        return new Response("the api node did not answer", { status: 502 });
      }
    },
  });
  const balancerUrl = `http://127.0.0.1:${balancer.port}`;

  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? work,
    DATABASE_URL: pg.url,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    S3_BUCKET: "shelf-chaos",
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    JWT_SECRET: "chaos-secret-chaos-secret-chaos-secret-0123",
    PUBLIC_URL: balancerUrl,
    VIDEO_CALLBACK_URL: `${balancerUrl}/webhooks/local`,
    FIRST_USER_ADMIN: "false",
    VIDEO_PROVIDER: "local",
    LOG_LEVEL: "warn",
    ...opts.nodeEnv,
  };
  const migrate = Bun.spawnSync(["bun", "src/main.ts", "migrate"], { cwd: repo, env: { ...env, DATA_DIR: join(work, "migrate") } });
  if (migrate.exitCode !== 0) throw new Error(`migrate failed: ${migrate.stderr.toString()}`);

  const procs = new Map<Node, ReturnType<typeof Bun.spawn>>();
  const ports = new Map<Node, number>();
  for (let i = 0; i < opts.apis; i++) {
    const port = freePort();
    const n: Node = { name: `api${i + 1}`, role: "api", base: `http://127.0.0.1:${port}`, up: false, log: [] };
    ports.set(n, port);
    nodes.push(n);
  }
  for (let i = 0; i < opts.workers; i++) nodes.push({ name: `worker${i + 1}`, role: "worker", base: "", up: false, log: [] });

  const start = async (node: Node) => {
    const dataDir = join(work, node.name);
    mkdirSync(dataDir, { recursive: true });
    const child = Bun.spawn(["bun", "src/main.ts", "serve", "--role", node.role], {
      cwd: repo,
      env: { ...env, DATA_DIR: dataDir, MIGRATE_ON_START: "false", PORT: String(ports.get(node) ?? 0) },
      stdout: "pipe",
      stderr: "pipe",
    });
    procs.set(node, child);
    const drain = async (stream: ReadableStream<Uint8Array>) => {
      const decoder = new TextDecoder();
      let rest = "";
      for await (const chunk of stream) {
        rest += decoder.decode(chunk, { stream: true });
        const lines = rest.split("\n");
        rest = lines.pop()!;
        for (const l of lines) if (l && !l.includes('"level":"info"') && !l.includes('"level":"debug"')) node.log.push(l);
      }
    };
    void drain(child.stdout as ReadableStream<Uint8Array>);
    void drain(child.stderr as ReadableStream<Uint8Array>);
    if (node.role === "api") await listens(ports.get(node)!, node.name, () => child.exitCode === null);
    node.up = true;
  };
  const kill = async (node: Node) => {
    const child = procs.get(node);
    node.up = false;
    child?.kill("SIGKILL");
    await child?.exited;
  };
  await Promise.all(nodes.map(start));

  return {
    env,
    balancer: balancerUrl,
    nodes,
    start,
    kill,
    pg,
    redis,
    s3,
    async close() {
      for (const n of nodes) await kill(n);
      await balancer.stop(true);
      await redis.stop();
      await s3.stop();
      await pg.dispose();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
