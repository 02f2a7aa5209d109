// The external moderation service: one POST per upload, answered with
// { allowed: boolean, reasons?: string[] }. An answer that does not come in time, a
// status other than 2xx, a failed connection or a body of another shape fails the upload
// with 502 DEPENDENCY_UNAVAILABLE: an upload is never let through unchecked.
//
// What is sent (docs/operators.md, "Platforms and compliance"): kind, sha256, size, ownerId, filename,
// mimeType; a document's text; an image's bytes in base64 up to COMPLIANCE_WEBHOOK_INLINE_BYTES.
// Larger images and streamed media (videos, audio) go as hash and size only: their bytes
// are not in memory and no URL serves them before they are accepted.
import { createHmac } from "node:crypto";
import { AppError } from "../../core/errors.ts";
import type { Log } from "../../infra/log.ts";
import { type BlockReason, type Checker, PASS } from "./types.ts";

export interface WebhookOptions {
  url: string;
  secret?: string;
  timeoutMs: number;
  inlineBytes: number;
  log: Log;
}

/** Answers longer than this are not a verdict. */
const MAX_ANSWER_CHARS = 64 * 1024;
const MAX_REASONS = 20;
const MAX_REASON_CHARS = 200;

type Problem = "timeout" | "unreachable" | "status" | "malformed";

function unavailable(o: WebhookOptions, problem: Problem, detail: Record<string, unknown> = {}): AppError {
  o.log.warn("moderation service failed", { problem, ...detail });
  return new AppError("DEPENDENCY_UNAVAILABLE", "the content moderation service gave no verdict; try again", {
    dependency: "moderation",
    problem,
    ...("status" in detail && { status: detail.status }),
  });
}

/** The service's reasons, kept short and printable; at least one when it refuses. */
function readReasons(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw.filter((r): r is string => typeof r === "string") : [];
  const clean = list
    .map((r) =>
      r
        .replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")
        .trim()
        .slice(0, MAX_REASON_CHARS),
    )
    .filter(Boolean)
    .slice(0, MAX_REASONS);
  return clean.length ? clean : ["FLAGGED"];
}

export function webhookChecker(o: WebhookOptions): Checker {
  return {
    name: "webhook",
    async check(input) {
      const body = JSON.stringify({
        kind: input.kind,
        sha256: input.sha256,
        size: input.size,
        ownerId: input.ownerId,
        filename: input.filename,
        mimeType: input.mimeType,
        ...(input.text !== undefined && { text: input.text }),
        ...(input.bytes && input.bytes.length <= o.inlineBytes && { contentBase64: Buffer.from(input.bytes).toString("base64") }),
      });
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (o.secret) headers["x-shelf-signature"] = `sha256=${createHmac("sha256", o.secret).update(body).digest("hex")}`;

      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), o.timeoutMs);
      let status: number;
      let text: string;
      try {
        // A redirect is not followed: the configured address is the one trusted with content.
        const res = await fetch(o.url, { method: "POST", headers, body, signal: abort.signal, redirect: "manual" });
        status = res.status;
        text = await res.text();
      } catch (err) {
        throw abort.signal.aborted ? unavailable(o, "timeout", { timeoutMs: o.timeoutMs }) : unavailable(o, "unreachable", { err });
      } finally {
        clearTimeout(timer);
      }
      if (status < 200 || status > 299) throw unavailable(o, "status", { status });
      let answer: { allowed?: unknown; reasons?: unknown };
      try {
        if (text.length > MAX_ANSWER_CHARS) throw new Error("too long");
        answer = JSON.parse(text);
      } catch {
        throw unavailable(o, "malformed");
      }
      if (!answer || typeof answer !== "object" || typeof answer.allowed !== "boolean") throw unavailable(o, "malformed");
      if (answer.reasons !== undefined && !Array.isArray(answer.reasons)) throw unavailable(o, "malformed");
      if (answer.allowed) return PASS;
      const base = { checker: "webhook" as const, kind: input.kind, sha256: input.sha256 };
      return { ok: false, reasons: readReasons(answer.reasons).map((reason): BlockReason => ({ ...base, reason })) };
    },
  };
}
