// `shelf doctor`: checks that this node can run. Loads the config, builds every part as
// `serve` would (without migrating), talks to each one, converts an image with sharp and
// compiles a Typst page (a warning, not a failure, where the compiler is missing).
// One line per check; exit 0 only when every check passes. Operators run it after an
// install or a config change; scripts/smoke-binary.sh runs it on the compiled binary.
import { randomUUID } from "node:crypto";
import { loadConfig, type Config } from "../../config.ts";
import type { Deps } from "../deps.ts";
import { childTie, spawnChild } from "../../infra/child-process.ts";
import { createLog } from "../../infra/log.ts";
import { withTimeout } from "../../infra/timeout.ts";
import { VERSION } from "../../infra/version.ts";

type Status = "ok" | "FAIL" | "warn";
interface Line {
  name: string;
  status: Status;
  detail: string;
}

const CHECK_TIMEOUT_MS = 15_000;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0]!.slice(0, 300);
const ms = (start: number) => `${Math.round(performance.now() - start)} ms`;

async function check(lines: Line[], name: string, fn: () => Promise<string>): Promise<boolean> {
  const start = performance.now();
  try {
    const detail = await withTimeout(fn(), CHECK_TIMEOUT_MS, name);
    lines.push({ name, status: "ok", detail: `${detail} (${ms(start)})` });
    return true;
  } catch (e) {
    lines.push({ name, status: "FAIL", detail: message(e) });
    return false;
  } finally {
    print(lines.at(-1)!);
  }
}

function print(line: Line) {
  process.stdout.write(`${line.status.padEnd(4)}  ${line.name.padEnd(8)}  ${line.detail}\n`);
}

/** sharp: make a 64x48 PNG, convert it to WebP, read the WebP back. */
async function sharpSelfTest(): Promise<string> {
  const { sharp, sharpVersions } = await import("../../infra/sharp.ts");
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 20 } } })
    .png()
    .toBuffer();
  const webp = await sharp(png).webp({ quality: 80 }).toBuffer();
  const meta = await sharp(webp).metadata();
  if (meta.format !== "webp" || meta.width !== 64 || meta.height !== 48) {
    throw new Error(`converted image reads back as ${meta.format} ${meta.width}x${meta.height}, expected webp 64x48`);
  }
  const v = sharpVersions();
  return `png ${png.length} B -> webp 64x48 ${webp.length} B (sharp ${v.sharp}, libvips ${v.libvips})`;
}

/** The Typst compiler: one compile to PDF in its own process, as an upload's check or a render runs it. */
async function typstCheck(deps: Deps | undefined): Promise<Line> {
  if (!deps) return { name: "typst", status: "warn", detail: "not checked: the config or parts failed" };
  const start = performance.now();
  const out = await deps.typst.compile("pdf", "= shelf doctor\n\nA line of text.\n");
  if (out.status !== "ok" || !out.output) {
    const why = out.status === "failed" ? out.diagnostics.map((d) => d.message).join("; ") : out.status === "unavailable" ? out.reason : out.status;
    return { name: "typst", status: "warn", detail: `typst compiler unavailable (${why}): Typst uploads are stored without a check, renders answer 503` };
  }
  const pdf = new TextDecoder().decode(out.output.subarray(0, 5)) === "%PDF-";
  if (!pdf) return { name: "typst", status: "FAIL", detail: "the compiler's PDF does not start with %PDF-" };
  return { name: "typst", status: "ok", detail: `compiled a page to PDF, ${out.output.length} B (${ms(start)})` };
}

async function ffmpegCheck(): Promise<Line> {
  const path = Bun.which("ffmpeg");
  if (!path) return { name: "ffmpeg", status: "warn", detail: "not on PATH (worker nodes need it to transcode video locally)" };
  const proc = await spawnChild([path, "-hide_banner", "-version"], { stdout: "pipe", stderr: "ignore" });
  const first = (await new Response(proc.stdout).text()).split("\n")[0] ?? "";
  if ((await proc.exited) !== 0) return { name: "ffmpeg", status: "warn", detail: `${path} -version failed` };
  return { name: "ffmpeg", status: "ok", detail: `${first.replace(/ Copyright.*/, "")} (${path})` };
}

export async function doctorCommand(_args: string[]): Promise<number> {
  process.stdout.write(`shelf ${VERSION} doctor (bun ${Bun.version}, ${process.platform}-${process.arch})\n`);
  const lines: Line[] = [];

  let config: Config | undefined;
  await check(lines, "config", async () => {
    config = loadConfig();
    const parts = [
      config.embedded.db ? `db=pglite ${config.DATA_DIR}/pg` : "db=postgres",
      config.embedded.kv ? "kv=memory" : "kv=redis",
      config.embedded.storage ? `storage=folder ${config.DATA_DIR}/objects` : `storage=s3 ${config.S3_BUCKET}`,
    ];
    return parts.join(", ");
  });

  let deps: Deps | undefined;
  if (config) {
    const cfg = config;
    await check(lines, "deps", async () => {
      const { createDeps } = await import("../deps.ts");
      const { createCompliance } = await import("../../modules/compliance/public.ts");
      // Quiet: a part that fails is reported on its own line below, not as a log record.
      const log = createLog("error");
      // As `shelf serve` does before the database opens: a blocklist that cannot be read fails here.
      createCompliance(cfg, { log });
      deps = await createDeps(cfg, { migrate: false, log });
      return `${deps.database.kind}, ${deps.kv.kind}, ${deps.storage.kind}`;
    });
  }

  if (deps) {
    const d = deps;
    await check(lines, "database", async () => {
      await d.database.ping();
      return `${d.database.kind}: select 1`;
    });
    await check(lines, "kv", async () => {
      await d.kv.ping();
      const key = `doctor:${randomUUID()}`;
      await d.kv.set(key, "1", 10_000);
      const back = await d.kv.get(key);
      await d.kv.del(key);
      if (back !== "1") throw new Error(`wrote "1", read back ${JSON.stringify(back)}`);
      return `${d.kv.kind}: ping, set, get, del`;
    });
    await check(lines, "storage", async () => {
      await d.storage.ping();
      const key = `_doctor/${randomUUID()}`;
      const bytes = new TextEncoder().encode("shelf doctor");
      await d.storage.put(key, bytes, { contentType: "text/plain" });
      const info = await d.storage.head(key);
      await d.storage.delete(key);
      if (info?.size !== bytes.length) throw new Error(`wrote ${bytes.length} bytes, head says ${info?.size ?? "absent"}`);
      return `${d.storage.kind}: put, head, delete`;
    });
  }

  await check(lines, "sharp", sharpSelfTest);

  const typ = await typstCheck(deps);
  lines.push(typ);
  print(typ);

  const ff = await ffmpegCheck();
  lines.push(ff);
  print(ff);

  const tie = await childTie();
  const children: Line = { name: "children", status: tie.tied ? "ok" : "warn", detail: tie.detail };
  lines.push(children);
  print(children);

  if (deps) {
    const { closeDeps } = await import("../deps.ts");
    await closeDeps(deps);
  }

  const failed = lines.filter((l) => l.status === "FAIL");
  process.stdout.write(failed.length ? `doctor: ${failed.length} check(s) failed\n` : "doctor: all checks passed\n");
  return failed.length ? 1 : 0;
}
