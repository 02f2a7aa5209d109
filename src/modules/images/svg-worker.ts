// The SVG sanitizer's thread: DOMPurify on a jsdom window (the server DOM DOMPurify's
// authors test against and recommend). It runs here, not on the main thread, so a file
// that is slow to parse can be killed without taking the node's requests with it
// (svg-sanitizer.ts holds the deadline). What goes out draws the same picture but cannot
// run anything or fetch anything: no scripts, no event handlers, no foreignObject, no
// javascript: or other external links, no CSS that imports or loads a URL.
//
// Messages: in { id, text }; out { type: "ready" } once, then { type: "done", id, svg }
// or { type: "failed", id, message } per job.
import createDOMPurify from "dompurify";
import { JSDOM } from "jsdom";

declare const self: Worker;

type Purifier = { sanitize(input: string, config: Record<string, unknown>): string; addHook: (entryPoint: string, hook: (node: Element) => void) => void };

const purify = createDOMPurify(new JSDOM("").window as never) as unknown as Purifier;
purify.addHook("uponSanitizeElement", (node: Element) => {
  if (node.nodeName?.toLowerCase() === "style" && !cssIsSelfContained(node.textContent ?? "")) node.textContent = "";
});
purify.addHook("afterSanitizeAttributes", (node: Element) => {
  for (const attr of [...node.attributes]) {
    const name = attr.name.toLowerCase();
    if (name === "href" || name === "xlink:href") {
      if (!isLocalReference(attr.value, node.nodeName.toLowerCase())) node.removeAttribute(attr.name);
    } else if (!cssIsSelfContained(attr.value)) node.removeAttribute(attr.name);
  }
});

/** Links may only point inside the document; <image> may also embed a raster data: URI. */
function isLocalReference(value: string, element: string): boolean {
  const v = value.trim();
  if (v.startsWith("#")) return true;
  return element === "image" && /^data:image\/(png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/=\s]*$/i.test(v);
}

/** CSS (a <style> or any attribute) that loads nothing: only url(#fragment), no @import, no escapes. */
function cssIsSelfContained(css: string): boolean {
  if (css.includes("\\") || /@import|image-set\s*\(|@font-face/i.test(css)) return false;
  for (const m of css.matchAll(/url\s*\(\s*(['"]?)([^)]*)\)/gi)) if (!m[2]!.trim().startsWith("#")) return false;
  return true;
}

const CONFIG = {
  USE_PROFILES: { svg: true, svgFilters: true },
  // Parsed and written as XML: the result is served as image/svg+xml, so it must stay well-formed.
  PARSER_MEDIA_TYPE: "application/xhtml+xml",
  // <use> is safe once its href can only point inside the document (the hook above).
  ADD_TAGS: ["use"],
  FORBID_TAGS: ["foreignObject", "script", "iframe", "embed", "object", "audio", "video"],
};

const LARGE_JOB_CHARS = 64 * 1024;

self.onmessage = (event: MessageEvent<{ id: number; text: string }>) => {
  const { id, text } = event.data;
  try {
    self.postMessage({ type: "done", id, svg: purify.sanitize(text, CONFIG) });
  } catch (e) {
    self.postMessage({ type: "failed", id, message: String((e as Error)?.message ?? e) });
  }
  // The DOM of a large file lingers in this heap: eight jobs of 20,000 elements grew the
  // worker to ~900 MB, and a full collection after each kept it near 550 MB. Small files
  // are left to the ordinary collector (a full collection costs ~15 ms even then).
  if (text.length > LARGE_JOB_CHARS) Bun.gc(true);
};
self.postMessage({ type: "ready" });
