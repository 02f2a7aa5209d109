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

/** Bytes to a socket in order, what it could not take yet held until it drains. */
interface Pipe {
  attach(socket: import("bun").Socket<unknown>): void;
  write(chunk: Uint8Array): void;
  flush(): void;
  end(): void;
}
function pipe(socket?: import("bun").Socket<unknown>): Pipe {
  let to = socket;
  const held: Uint8Array[] = [];
  const p: Pipe = {
    attach(s) {
      to = s;
      p.flush();
    },
    write(chunk) {
      held.push(new Uint8Array(chunk));
      p.flush();
    },
    flush() {
      while (to && held.length) {
        const first = held[0]!;
        const n = to.write(first);
        if (n < first.length) {
          held[0] = first.subarray(Math.max(n, 0));
          return;
        }
        held.shift();
      }
    },
    end: () => void to?.end(),
  };
  return p;
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

  // s3rver runs throughout: killed mid-write it leaves an object without its metadata file,
  // and every later listing of the bucket fails, which no real store does. The nodes reach
  // it through a loopback TCP relay instead, and "s3rver stopped" is the relay cutting every
  // connection and refusing new ones: to the nodes, exactly a store that went away.
  const s3rverPort = freePort();
  const s3Dir = join(work, "s3");
  mkdirSync(s3Dir);
  // --openssl-legacy-provider: see scripts/real-parts.sh (s3rver's list continuation tokens).
  const s3rver = join(repo, "node_modules/s3rver/bin/s3rver.js");
  const s3Proc = Bun.spawn(
    ["node", "--openssl-legacy-provider", s3rver, "-d", s3Dir, "-a", "127.0.0.1", "-p", String(s3rverPort), "--silent", "--configure-bucket", "shelf-chaos"],
    { stdout: "ignore", stderr: "ignore" },
  );
  await listens(s3rverPort, "s3rver", () => s3Proc.exitCode === null);
  const s3Port = freePort();
  type Pair = { toUpstream: Pipe; toClient: Pipe };
  const open = new Set<import("bun").Socket<Pair>>();
  let relay: import("bun").TCPSocketListener<Pair> | undefined;
  const s3 = {
    async start() {
      relay = Bun.listen<Pair>({
        hostname: "127.0.0.1",
        port: s3Port,
        socket: {
          open(client) {
            client.data = { toUpstream: pipe(), toClient: pipe(client) };
            open.add(client);
            Bun.connect({
              hostname: "127.0.0.1",
              port: s3rverPort,
              socket: {
                open: (up) => client.data.toUpstream.attach(up),
                data: (_up, chunk) => client.data.toClient.write(chunk),
                drain: () => client.data.toUpstream.flush(),
                close: () => void client.end(),
                error: () => void client.end(),
              },
            }).catch(() => void client.end());
          },
          data: (client, chunk) => client.data.toUpstream.write(chunk),
          drain: (client) => client.data.toClient.flush(),
          close(client) {
            open.delete(client);
            client.data.toUpstream.end();
          },
        },
      });
    },
    async stop() {
      relay?.stop(true);
      for (const c of open) c.terminate();
      open.clear();
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
      s3Proc.kill();
      await s3Proc.exited;
      await pg.dispose();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
