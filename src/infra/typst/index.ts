// Typst compiling for the documents module: a compile check of an upload and renders to
// PDF or SVG. Each compile runs in a process of its own (child.ts) that is killed when it
// runs longer than `timeoutMs` or its resident memory passes `memoryBytes`, or when this
// process dies, with no file or network access for the document (child.ts says how). At
// most `concurrency` compiles run at once on a node; more wait (up to `maxWaitMs`) in
// arrival order.
// docs/decisions/documents.md, "Typst documents", says what the compiler allows and why.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Budget, BudgetBusyError, createBudget } from "../budget.ts";
import { spawnChild } from "../child-process.ts";
import type { Log } from "../log.ts";

type TypstOp = "check" | "pdf" | "svg";

export interface TypstDiagnostic {
  severity: "error" | "warning" | "info";
  message: string;
  /** From 1, where the compiler knows the place. */
  line?: number;
  column?: number;
}

type TypstOutcome =
  /** Compiled; `output` holds the PDF or SVG bytes for a render. */
  | { status: "ok"; diagnostics: TypstDiagnostic[]; output?: Uint8Array }
  /** The source does not compile: its errors (and warnings). */
  | { status: "failed"; diagnostics: TypstDiagnostic[] }
  /** Stopped at the time or memory bound, or when its output passed `outputBytes`. */
  | { status: "timeout" | "memory" | "output"; limit: number }
  /** No compiler on this node (no addon for the platform, or it did not load). */
  | { status: "unavailable"; reason: string }
  /** Every compile slot was taken for longer than the wait allows. */
  | { status: "busy"; retryAfterS: number };

export interface TypstSettings {
  timeoutMs: number;
  memoryBytes: number;
  /** The largest PDF or SVG kept (it is held whole to be answered and cached); default OUTPUT_MAX_BYTES. */
  outputBytes?: number;
  concurrency: number;
  maxWaitMs: number;
  log: Log;
}

export interface TypstCompiler {
  compile(op: TypstOp, source: string): Promise<TypstOutcome>;
  /** Compiler processes started so far (tests read it to tell a cached render from a new one). */
  readonly runs: number;
}

/** True inside an executable made by `bun build --compile` (its modules live in /$bunfs/). */
const compiled = import.meta.path.startsWith("/$bunfs/") || import.meta.path.startsWith("B:/~BUN/");
/** The binary runs the child through a hidden command (src/wiring/cli/index.ts); a checkout runs child's entry. */
const childCommand = compiled ? [process.execPath, "__typst-compile"] : [process.execPath, join(import.meta.dir, "child-main.ts")];
const MEMORY_POLL_MS = 25;
/**
 * A render is held whole in the server's memory to be answered and cached, so its size is
 * bounded apart from the compiler's own memory: a few pages of text are kilobytes, and a
 * document of many full-page images stays far below this.
 */
const OUTPUT_MAX_BYTES = 64 * 1024 * 1024;
/** An address where nothing listens (port 9, discard): every package download fails at once. */
const NO_PROXY_TARGET = "http://127.0.0.1:9";

/** Resident bytes of a process (Linux); undefined elsewhere or once it has gone. */
function residentBytes(pid: number): number | undefined {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
    return Number.isFinite(pages) ? pages * 4096 : undefined;
  } catch {
    return undefined;
  }
}

/** A stream's bytes, up to `max`: past it the rest is dropped and `over` is called once. */
async function readBounded(stream: ReadableStream<Uint8Array>, max: number, over: () => void): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size + chunk.length > max) {
      over();
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks);
}

export function createTypstCompiler(s: TypstSettings): TypstCompiler {
  const slots: Budget = createBudget({ name: "typst compile", capacity: s.concurrency, maxHolders: s.concurrency, maxWaitMs: s.maxWaitMs });
  let runs = 0;

  async function runOnce(op: TypstOp, source: string): Promise<TypstOutcome> {
    const dir = mkdtempSync(join(tmpdir(), "shelf-typst-"));
    runs++;
    let stopped: TypstOutcome | undefined;
    try {
      const proc = await spawnChild(childCommand, {
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
        env: {
          SHELF_TYPST_DIR: dir,
          HOME: dir,
          TMPDIR: dir,
          XDG_DATA_HOME: join(dir, "data"),
          XDG_CACHE_HOME: join(dir, "cache"),
          HTTPS_PROXY: NO_PROXY_TARGET,
          HTTP_PROXY: NO_PROXY_TARGET,
          ALL_PROXY: NO_PROXY_TARGET,
          https_proxy: NO_PROXY_TARGET,
          http_proxy: NO_PROXY_TARGET,
          all_proxy: NO_PROXY_TARGET,
        },
      });
      const stop = (outcome: TypstOutcome) => {
        stopped ??= outcome;
        proc.kill("SIGKILL");
      };
      const timer = setTimeout(() => stop({ status: "timeout", limit: s.timeoutMs }), s.timeoutMs);
      const watch = setInterval(() => {
        const rss = residentBytes(proc.pid);
        if (rss !== undefined && rss > s.memoryBytes) stop({ status: "memory", limit: s.memoryBytes });
      }, MEMORY_POLL_MS);
      try {
        proc.stdin.write(JSON.stringify({ op, source }));
        await proc.stdin.end();
        const outputLimit = s.outputBytes ?? OUTPUT_MAX_BYTES;
        const [out, err, code] = await Promise.all([
          // The outcome's line is small; past the limit plus that line, the compile is stopped.
          readBounded(proc.stdout, outputLimit + 64 * 1024, () => stop({ status: "output", limit: outputLimit })),
          new Response(proc.stderr).text(),
          proc.exited,
        ]);
        if (stopped) return stopped;
        const nl = out.indexOf(10);
        if (code !== 0 || nl < 0) {
          s.log.warn("typst compiler process failed", { code, stderr: err.slice(0, 500) });
          return { status: "unavailable", reason: `the compiler process exited with ${code}` };
        }
        const head = JSON.parse(new TextDecoder().decode(out.subarray(0, nl))) as TypstOutcome & { bytes: number };
        const { bytes, ...outcome } = head;
        if (outcome.status === "ok" && bytes > 0) return { ...outcome, output: out.subarray(nl + 1, nl + 1 + bytes) };
        return outcome;
      } finally {
        clearTimeout(timer);
        clearInterval(watch);
      }
    } catch (e) {
      s.log.warn("typst compiler could not run", { err: e });
      return { status: "unavailable", reason: "the compiler process could not be started" };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  return {
    async compile(op, source) {
      let release: () => void;
      try {
        release = await slots.acquire(1);
      } catch (e) {
        if (e instanceof BudgetBusyError) return { status: "busy", retryAfterS: e.retryAfterS };
        throw e;
      }
      try {
        return await runOnce(op, source);
      } finally {
        release();
      }
    },
    get runs() {
      return runs;
    },
  };
}
