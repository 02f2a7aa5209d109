// SVG sanitizing with DOMPurify on a jsdom window (the server DOM DOMPurify's authors test
// against and recommend). What goes out draws the same picture but cannot run anything or
// fetch anything: no scripts, no event handlers, no foreignObject, no javascript: or other
// external links, no CSS that imports or loads a URL, no DOCTYPE or entities.
import { validationError } from "../../http/errors.ts";

export const SVG_MAX_BYTES = 10 * 1024 * 1024;

type Purifier = { sanitize(input: string, config: Record<string, unknown>): string; addHook: Function };
let purifier: Promise<Purifier> | undefined;

/** jsdom takes ~0.5 s to load: only the first SVG upload of a process pays for it. */
function loadPurifier(): Promise<Purifier> {
  return (purifier ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import("jsdom"), import("dompurify")]);
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
    return purify;
  })());
}

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

/**
 * Returns the sanitized SVG. Refuses, before any parsing, a DOCTYPE with an internal
 * subset or any ENTITY declaration (entity expansion: "billion laughs"), and a file
 * that does not survive as an <svg> document.
 */
export async function sanitizeSvg(bytes: Uint8Array): Promise<Uint8Array> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw validationError("file", "the SVG is not UTF-8 text");
  }
  if (/<!ENTITY/i.test(text) || /<!DOCTYPE[^>[]*\[/i.test(text)) {
    throw validationError("file", "SVG with entity declarations or an internal DOCTYPE subset is refused");
  }
  // A plain DOCTYPE names an external DTD and adds nothing to the picture; the XML
  // declaration is written again below (DOMPurify parses the SVG inside a document of its own).
  text = text.replace(/<!DOCTYPE[^>]*>/gi, "").replace(/^\uFEFF?\s*<\?xml[^>]*\?>/i, "");
  const purify = await loadPurifier();
  const clean = purify.sanitize(text, CONFIG).trim();
  if (!/^<svg[\s>]/i.test(clean)) throw validationError("file", "the SVG has no drawable <svg> root element");
  return new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>\n${clean}\n`);
}
