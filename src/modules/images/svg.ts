// An uploaded SVG becomes one that draws the same picture but cannot run or fetch
// anything. Three steps, cheapest first: the byte limit (pipeline.ts), a streaming pass
// over the text that refuses hostile shapes before any DOM exists (svg-precheck.ts), then
// DOMPurify in a worker under a deadline (svg-sanitizer.ts, svg-worker.ts).
import { validationError } from "../../core/errors.ts";
import { overSvgLimit, precheckSvg, RENDERER_MAX_DEPTH, RENDERER_MAX_ELEMENTS, type SvgShapeLimits } from "./svg-precheck.ts";
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

/**
 * The 422 for a sanitized SVG the renderer would not read. Its own limits are named (the
 * pre-check keeps files within them unless the settings were bypassed, or the renderer
 * counts differently); any other reason is given as the renderer said it, without the
 * library's prefixes.
 */
export function svgUnreadable(e: unknown): Error {
  const said = String((e as Error)?.message ?? e);
  if (/Excessive depth in document/i.test(said)) {
    return overSvgLimit(`the SVG nests elements deeper than the renderer reads (${RENDERER_MAX_DEPTH} levels)`, "renderer_max_depth", RENDERER_MAX_DEPTH);
  }
  if (/cannot load more than \d+ XML elements/i.test(said)) {
    return overSvgLimit(`the SVG has more elements than the renderer reads (${RENDERER_MAX_ELEMENTS})`, "renderer_max_elements", RENDERER_MAX_ELEMENTS);
  }
  const reason = said.replace(/^.*?(of data|glib):\s*/s, "").slice(0, 200);
  return validationError("file", `the SVG could not be read by the renderer (${reason})`);
}
