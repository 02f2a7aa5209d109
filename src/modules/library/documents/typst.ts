// What shelf does with a Typst document beyond storing it byte for byte: a compile check
// whose diagnostics an upload reports as warnings (never a refusal: the spec stores what
// it is given), and GET /v1/docs/:id/render, a PDF or SVG of it, cached by its sourceHash.
// The compiling itself is src/infra/typst/ (a bounded process per compile).
import type { Deps } from "../../../core/deps.ts";
import { AppError } from "../../../core/errors.ts";
import type { TypstDiagnostic } from "../../../infra/typst/index.ts";

export type RenderFormat = "pdf" | "svg";

export const RENDER_TYPES: Record<RenderFormat, string> = { pdf: "application/pdf", svg: "image/svg+xml" };
/** A render is kept for an hour in the kv, when it is at most 4 MiB (larger ones are made again). */
const CACHE_TTL_MS = 60 * 60 * 1000;
const CACHE_MAX_BYTES = 4 * 1024 * 1024;

export interface TypstWarning extends TypstDiagnostic {
  reason: "TYPST_DIAGNOSTIC" | "TYPST_CHECK_STOPPED" | "TYPST_CHECK_SKIPPED" | "TYPST_UNAVAILABLE";
}

/** The compile check of an uploaded Typst text, as warnings of the upload's answer. */
export async function typstWarnings(deps: Pick<Deps, "typst">, source: string): Promise<TypstWarning[]> {
  const out = await deps.typst.compile("check", source);
  switch (out.status) {
    case "ok":
    case "failed":
      return out.diagnostics.map((d) => ({ reason: "TYPST_DIAGNOSTIC", ...d }));
    case "timeout":
    case "memory":
    case "output":
      return [
        {
          reason: "TYPST_CHECK_STOPPED",
          severity: "warning",
          message:
            out.status === "timeout"
              ? `the compile check was stopped after ${out.limit} ms: the document may not render`
              : `the compile check was stopped at ${Math.round(out.limit / 1048576)} MiB of memory: the document may not render`,
        },
      ];
    case "busy":
      return [{ reason: "TYPST_CHECK_SKIPPED", severity: "info", message: "the compile check was skipped: this node's compiler is busy" }];
    case "unavailable":
      return [{ reason: "TYPST_UNAVAILABLE", severity: "warning", message: "typst compiler unavailable" }];
  }
}

/** The render of a Typst text: from the kv when this sourceHash was rendered lately, else compiled. */
export async function renderTypst(deps: Pick<Deps, "typst" | "kv" | "log">, sourceHash: string, source: string, format: RenderFormat): Promise<Uint8Array> {
  const key = `typst:render:${format}:${sourceHash}`;
  const cached = await deps.kv.get(key).catch(() => null);
  if (cached !== null) return Buffer.from(cached, "base64");
  const out = await deps.typst.compile(format, source);
  switch (out.status) {
    case "ok": {
      const bytes = out.output ?? new Uint8Array();
      if (bytes.length <= CACHE_MAX_BYTES) {
        await deps.kv.set(key, Buffer.from(bytes).toString("base64"), CACHE_TTL_MS).catch((err) => deps.log.warn("typst render cache write failed", { err }));
      }
      return bytes;
    }
    case "failed":
      throw new AppError("VALIDATION_ERROR", "the document does not compile", { reason: "TYPST_COMPILE_FAILED", diagnostics: out.diagnostics });
    case "timeout":
      throw new AppError("VALIDATION_ERROR", `the document did not compile within ${out.limit} ms`, { reason: "TYPST_TIMEOUT", limitMs: out.limit });
    case "memory":
      throw new AppError("VALIDATION_ERROR", `the document needed more than ${Math.round(out.limit / 1048576)} MiB to compile`, {
        reason: "TYPST_MEMORY",
        limitBytes: out.limit,
      });
    case "output":
      throw new AppError("VALIDATION_ERROR", `the document renders to more than ${Math.round(out.limit / 1048576)} MiB`, {
        reason: "TYPST_OUTPUT_TOO_LARGE",
        limitBytes: out.limit,
      });
    case "busy":
      throw new AppError("SERVICE_UNAVAILABLE", "this node's Typst compiler is busy; try again", {}, { "retry-after": String(out.retryAfterS) });
    case "unavailable":
      throw new AppError("SERVICE_UNAVAILABLE", "typst compiler unavailable on this server", { reason: "TYPST_UNAVAILABLE" });
  }
}
