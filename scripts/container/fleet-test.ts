// `make fleet-test`: compose.yaml's fleet brought up with podman and used as an operator would.
//
// podman-compose (1.0.3 in Debian) ignores depends_on conditions, so this reads compose.yaml
// itself and starts each service with a plain `podman run` derived from it (image, command,
// entrypoint, environment, volumes, ports, health check, restart, stop grace), in depends_on
// order, waiting on each condition as compose does: service_healthy by running the
// service's own health check (`podman healthcheck run`) until it passes within
// start_period + retries × interval, service_completed_successfully by the exit code. The
// services share one network where each is reachable by its name, as under compose.
//
// The images are compose.yaml's variables. Unset, the public ones are replaced by the local
// stand-ins of scripts/container/standins.sh (this machine cannot pull them) and SHELF_IMAGE
// is shelf:local (make image). Then: sign-up, a video uploaded through the api, the worker
// transcodes it (its log says so, the api's does not) and the api serves it ready with its
// HLS playlist; SIGTERM stops the api and the worker with exit 0. Everything it made
// (containers, volumes, network) is removed at the end, unless KEEP_FLEET=1.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ComposeFile, composeCommands, interpolate, parseCompose, type Service, startOrder, waitDeadlineMs } from "./fleet-compose.ts";

const repo = join(import.meta.dir, "../..");
const PODMAN = ["podman", "--runtime", "runc", "--cgroup-manager", "cgroupfs"];
process.env.CONTAINERS_CONF ??= join(import.meta.dir, "containers.conf");
process.env.DISABLE_HC_SYSTEMD = "true"; // no systemd timers here; checks run on demand
const project = `shelf-fleet-test-${process.pid}`;
const VIDEO_READY_TIMEOUT_MS = 120_000;

type Ran = { code: number; out: string; err: string };
async function run(args: string[], opts: { check?: boolean } = {}): Promise<Ran> {
  const p = Bun.spawn(args, { stdout: "pipe", stderr: "pipe", env: process.env });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (opts.check !== false && code !== 0) throw new Error(`${args.join(" ")} exited ${code}: ${err.trim() || out.trim()}`);
  return { code, out, err };
}
const podman = (args: string[], opts?: { check?: boolean }) => run([...PODMAN, ...args], opts);

let stepName = "";
let stepAt = performance.now();
function step(name: string) {
  if (stepName) console.log(`   (${((performance.now() - stepAt) / 1000).toFixed(1)} s)`);
  stepName = name;
  stepAt = performance.now();
  if (name) console.log(`== ${name}`);
}
class Fail extends Error {}
const fail = (msg: string): never => {
  throw new Fail(msg);
};

async function freePort(): Promise<number> {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

async function containerState(name: string): Promise<{ running: boolean; exitCode: number }> {
  const { out } = await podman(["inspect", "-f", "{{.State.Running}} {{.State.ExitCode}}", name]);
  const [running, code] = out.trim().split(" ");
  return { running: running === "true", exitCode: Number(code) };
}
async function logsOf(name: string): Promise<string> {
  const { out, err } = await podman(["logs", name], { check: false });
  return out + err;
}

/** Runs the service's health check until it passes; fails at the deadline or if it exits. */
async function waitHealthy(svc: string, s: Service) {
  const name = `${project}-${svc}`;
  const deadline = performance.now() + waitDeadlineMs(s);
  let last = "";
  for (;;) {
    const st = await containerState(name);
    if (!st.running) fail(`${svc} exited (${st.exitCode}) before it was healthy:\n${await logsOf(name)}`);
    const r = await podman(["healthcheck", "run", name], { check: false });
    if (r.code === 0) return;
    last = (r.out + r.err).trim();
    if (performance.now() > deadline) fail(`${svc} not healthy by its deadline (last: ${last}):\n${await logsOf(name)}`);
    await Bun.sleep(500); // the next try of the check, as the engine's interval would
  }
}

async function up(file: ComposeFile) {
  await podman(["network", "create", project]);
  for (const vol of Object.keys(file.volumes ?? {})) await podman(["volume", "create", `${project}_${vol}`]);
  const started = new Set<string>();
  for (const svc of startOrder(file)) {
    const s = file.services[svc]!;
    for (const [dep, cond] of Object.entries(s.depends_on ?? {})) {
      if (cond === "service_healthy") await waitHealthy(dep, file.services[dep]!);
      else if (cond === "service_completed_successfully") {
        const { out } = await podman(["wait", `${project}-${dep}`]);
        if (out.trim() !== "0") fail(`${dep} exited ${out.trim()}:\n${await logsOf(`${project}-${dep}`)}`);
      } else if (!started.has(dep)) fail(`${svc} depends on ${dep}, not started`);
    }
    const t0 = performance.now();
    await podman(["run", "-d", ...composeCommands(project, svc, s)]);
    started.add(svc);
    console.log(`started ${svc} (${s.image}) after its dependencies, in ${Math.round(performance.now() - t0)} ms`);
  }
  for (const [svc, s] of Object.entries(file.services)) if (s.healthcheck) await waitHealthy(svc, s);
  console.log(
    `every service with a health check is healthy: ${Object.keys(file.services)
      .filter((k) => file.services[k]!.healthcheck)
      .join(", ")}`,
  );
}

async function down(file: ComposeFile) {
  for (const svc of Object.keys(file.services).reverse()) await podman(["rm", "-f", "-v", "-t", "0", `${project}-${svc}`], { check: false }); // -v: the image's anonymous /data too
  for (const vol of Object.keys(file.volumes ?? {})) await podman(["volume", "rm", "-f", `${project}_${vol}`], { check: false });
  await podman(["network", "rm", "-f", project], { check: false });
}

async function json(res: Response, want: number, what: string): Promise<Record<string, unknown>> {
  const text = await res.text();
  if (res.status !== want) fail(`${what} answered ${res.status} (want ${want}): ${text}`);
  return (JSON.parse(text) as { data: Record<string, unknown> }).data; // the envelope's payload
}

async function scenario(base: string, work: string) {
  step("sign up (the first account: pro_plus, which may upload videos) and an API key");
  const signup = await json(
    await fetch(`${base}/v1/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "fleet@example.test", password: "fleet test password" }),
    }),
    201,
    "signup",
  );
  const session = { authorization: `Bearer ${signup.accessToken as string}`, "content-type": "application/json" };
  const key = await json(
    await fetch(`${base}/v1/api-keys`, { method: "POST", headers: session, body: JSON.stringify({ name: "fleet" }) }),
    201,
    "POST /v1/api-keys",
  );
  // Media calls take an API key (as a client's would).
  const auth = { authorization: `Bearer ${key.key as string}` };

  step("upload a video through the api");
  const clip = join(work, "clip.mp4");
  // Two seconds of H.264 and AAC, made by the host's ffmpeg.
  const sources = ["-f", "lavfi", "-i", "testsrc=duration=2:size=320x240:rate=15", "-f", "lavfi", "-i", "sine=duration=2"];
  await run(["ffmpeg", "-v", "error", ...sources, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip]);
  const form = new FormData();
  form.set("file", new File([await Bun.file(clip).arrayBuffer()], "clip.mp4", { type: "video/mp4" }));
  form.set("title", "fleet clip");
  const video = await json(await fetch(`${base}/v1/videos`, { method: "POST", headers: auth, body: form }), 201, "POST /v1/videos");
  const id = video.id as string;
  if (video.status !== "processing") fail(`new video status ${String(video.status)}, want processing`);
  console.log(`uploaded ${id}: processing`);

  step("the worker transcodes it: status ready");
  const deadline = performance.now() + VIDEO_READY_TIMEOUT_MS;
  let status = "";
  while (status !== "ready") {
    const st = await json(await fetch(`${base}/v1/videos/${id}/status`, { headers: auth }), 200, "GET status");
    status = st.status as string;
    if (status === "failed") fail(`transcoding failed: ${JSON.stringify(st)}\n${await logsOf(`${project}-worker`)}`);
    if (performance.now() > deadline) fail(`not ready after ${VIDEO_READY_TIMEOUT_MS} ms: ${JSON.stringify(st)}\n${await logsOf(`${project}-worker`)}`);
    if (status !== "ready") await Bun.sleep(500); // the API's status poll
  }
  const ready = await json(await fetch(`${base}/v1/videos/${id}`, { headers: auth }), 200, "GET video");
  const playback = ready.playback_url as string | undefined;
  if (!playback) fail(`ready video has no playback_url: ${JSON.stringify(ready)}`);
  const playlist = await fetch(playback!);
  const body = await playlist.text();
  if (playlist.status !== 200 || !body.startsWith("#EXTM3U")) fail(`playlist ${playback} answered ${playlist.status}: ${body.slice(0, 200)}`);
  // A node writes its log lines in batches (within 100 ms, docs/operators.md "Logs"): the
  // worker's line of the finished transcode may follow the status by that much.
  const finished = (log: string) => log.split("\n").some((l) => l.includes('"msg":"transcode finished"') && l.includes(id));
  let workerLog = await logsOf(`${project}-worker`);
  for (const until = performance.now() + 10_000; !finished(workerLog) && performance.now() < until; workerLog = await logsOf(`${project}-worker`))
    await Bun.sleep(200);
  const apiLog = await logsOf(`${project}-api`);
  if (!finished(workerLog)) fail(`the worker's log has no finished transcode of ${id}:\n${workerLog}`);
  if (/transcode started/.test(apiLog)) fail("the api transcoded (role api must not run the queue)");
  console.log(`ready; duration ${String(ready.duration_seconds)} s; the worker transcoded it; ${playback} is an HLS playlist`);

  step("SIGTERM stops the api and the worker with exit 0");
  for (const svc of ["worker", "api"]) {
    const name = `${project}-${svc}`;
    const t0 = performance.now();
    await podman(["stop", "-t", "30", name]);
    const st = await containerState(name);
    if (st.exitCode !== 0) fail(`${svc} exited ${st.exitCode} on SIGTERM:\n${await logsOf(name)}`);
    console.log(`${svc}: exit 0 after ${Math.round(performance.now() - t0)} ms`);
  }
}

async function main(): Promise<number> {
  const started = performance.now();
  const port = Number(process.env.SHELF_PORT ?? (await freePort()));
  const standin = (part: string) => `localhost/shelf-standin-${part}:local`;
  // The test's values, where the caller set none.
  const env: Record<string, string | undefined> = {
    JWT_SECRET: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64"),
    SHELF_PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    MEDIA_URL: `http://127.0.0.1:${port}`,
    POSTGRES_IMAGE: standin("postgres"),
    REDIS_IMAGE: standin("redis"),
    S3_IMAGE: standin("s3"),
    S3_CLIENT_IMAGE: standin("s3"),
    ...process.env,
  };
  const raw = Bun.YAML.parse(await Bun.file(join(repo, "compose.yaml")).text()) as unknown;
  const file = parseCompose(interpolate(raw, env));
  for (const s of Object.values(file.services)) {
    if ((await podman(["image", "exists", s.image], { check: false })).code !== 0) {
      console.error(`fleet-test: image ${s.image} not found (make image; bash scripts/container/standins.sh)`);
      return 1;
    }
  }
  const work = mkdtempSync(join(tmpdir(), "shelf-fleet-test-"));
  try {
    step(`compose.yaml up (project ${project}, api on :${port})`);
    await up(file);
    await scenario(`http://127.0.0.1:${port}`, work);
    step("");
    console.log(`fleet-test: OK (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    return 0;
  } catch (e) {
    step("");
    console.error(`fleet-test: FAIL: ${e instanceof Fail ? e.message : (e as Error).stack}`);
    return 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
    if (process.env.KEEP_FLEET === "1") console.log(`kept: podman ps -a --filter name=${project}`);
    else await down(file);
  }
}

process.exit(await main());
