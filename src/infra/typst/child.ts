// The Typst compiler's process: one compile, then exit. The parent (index.ts) starts it,
// writes { op, source } to its stdin and reads one JSON line (the outcome) followed by
// the output's bytes from its stdout. It runs in its own process so that a document that
// loops or grows without end is stopped by killing it (the addon's compile is one
// blocking native call that nothing else can interrupt), and so that the addon's memory
// (tens of MB) is held only while a compile runs.
//
// What the document may reach: the workspace is SHELF_TYPST_DIR, an empty folder the
// parent made for this run (the compiler refuses paths outside it: `/etc/passwd` is
// looked up as <dir>/etc/passwd and not found); the source itself is added in memory,
// never written; package downloads go to a proxy address that refuses (HTTPS_PROXY, set
// by the parent) and the package folders are empty ones inside the same folder.
import { join } from "node:path";
import { loadTypstAddon } from "./addon.ts";

interface Request {
  op: "check" | "pdf" | "svg";
  source: string;
}

/** As the compiler reports it (LSP-style: severity 1 error, 2 warning; lines and characters from 0). */
interface RawDiagnostic {
  message?: string;
  severity?: number;
  range?: { start?: { line?: number; character?: number } } | null;
}

const SEVERITY: Record<number, "error" | "warning" | "info"> = { 1: "error", 2: "warning", 3: "info", 4: "info" };

/** `workspace`: the run's folder, taken out of messages ("searched at <dir>/etc/passwd" reads "searched at /etc/passwd"). */
function diagnosticsOf(raw: RawDiagnostic[], workspace: string) {
  return raw.map((d) => {
    const start = d.range?.start;
    return {
      severity: SEVERITY[d.severity ?? 1] ?? "error",
      message: String(d.message ?? "")
        .replaceAll(workspace, "")
        .slice(0, 1000),
      ...(start?.line !== undefined ? { line: start.line + 1, column: (start.character ?? 0) + 1 } : {}),
    };
  });
}

function answer(header: Record<string, unknown>, output?: Uint8Array): void {
  const head = Buffer.from(`${JSON.stringify({ ...header, bytes: output?.length ?? 0 })}\n`);
  process.stdout.write(output ? Buffer.concat([head, output]) : head);
}

export async function runTypstChild(): Promise<void> {
  const req = (await Bun.stdin.json()) as Request;
  const dir = process.env.SHELF_TYPST_DIR;
  if (!dir) throw new Error("SHELF_TYPST_DIR is not set");
  let addon: ReturnType<typeof loadTypstAddon>;
  try {
    addon = loadTypstAddon();
  } catch (e) {
    answer({ status: "unavailable", reason: (e instanceof Error ? e.message : String(e)).split("\n")[0] });
    return;
  }
  const workspace = join(dir, "workspace");
  const compiler = addon.NodeCompiler.create({ workspace });
  const main = join(workspace, "main.typ");
  // In memory only: with mainFilePath (not mainFileContent) the diagnostics carry ranges.
  compiler.addSource(main, req.source);
  const result = compiler.compile({ mainFilePath: main });
  const raw: RawDiagnostic[] = [];
  for (const e of [result.takeError(), result.takeWarnings()]) if (e) raw.push(...compiler.fetchDiagnostics(e));
  const diagnostics = diagnosticsOf(raw, workspace);
  const doc = result.result;
  if (!doc) {
    answer({ status: "failed", diagnostics });
    return;
  }
  if (req.op === "check") {
    answer({ status: "ok", diagnostics });
    return;
  }
  const output = req.op === "pdf" ? compiler.pdf(doc) : Buffer.from(compiler.plainSvg(doc));
  answer({ status: "ok", diagnostics }, output);
}
