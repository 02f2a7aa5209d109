// An uploaded SVG becomes one that draws the same picture but cannot run or fetch
// anything. Three steps, cheapest first: the byte limit (pipeline.ts), a streaming pass
// over the text that refuses hostile shapes before any DOM exists (svg-precheck.ts), then
// DOMPurify in a worker under a deadline (svg-sanitizer.ts, svg-worker.ts).
import { validationError } from "../../http/errors.ts";
import { precheckSvg, type SvgShapeLimits } from "./svg-precheck.ts";
import type { SvgSanitizer } from "./svg-sanitizer.ts";

export const SVG_MAX_BYTES = 10 * 1024 * 1024;

export interface SvgLimits extends SvgShapeLimits {
  sanitizer: SvgSanitizer;
}

/**
 * Returns the sanitized SVG. Refuses, before any parsing, a DOCTYPE with an internal
 * subset or any ENTITY declaration (entity expansion: "billion laughs"), then anything
 * precheckSvg refuses, and a file that does not survive as an <svg> document.
 */
export async function sanitizeSvg(bytes: Uint8Array, limits: SvgLimits): Promise<Uint8Array> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw validationError("file", "the SVG is not UTF-8 text");
  }
  if (/<!ENTITY/i.test(text) || /<!DOCTYPE[^>[]*\[/i.test(text)) {
    throw validationError("file", "SVG with entity declarations or an internal DOCTYPE subset is refused");
  }
  await precheckSvg(text, limits);
  // A plain DOCTYPE names an external DTD and adds nothing to the picture; the XML
  // declaration is written again below (DOMPurify parses the SVG inside a document of its own).
  text = text.replace(/<!DOCTYPE[^>]*>/gi, "").replace(/^\uFEFF?\s*<\?xml[^>]*\?>/i, "");
  const clean = (await limits.sanitizer.sanitize(text)).trim();
  if (!/^<svg[\s>]/i.test(clean)) throw validationError("file", "the SVG has no drawable <svg> root element");
  return new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>\n${clean}\n`);
}
