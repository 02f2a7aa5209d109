// The pass an uploaded SVG makes before any DOM is built: one streaming walk of the text
// (saxes keeps an explicit tag stack, nothing recursive) that refuses what would make the
// sanitizer's DOM deep, huge or self-expanding. A DOM of 15,000 nested elements overflows
// the sanitizer's stack; a few MB of flat elements take tens of seconds and gigabytes.
import { SaxesParser } from "saxes";
import { AppError } from "../../core/errors.ts";

export interface SvgShapeLimits {
  /** Deepest element nesting. */
  maxDepth: number;
  /** Elements in the whole document. */
  maxElements: number;
}

/** Far above what drawing tools write (a few dozen at most), far below what hurts. */
export const SVG_MAX_ATTRIBUTES = 256;

/**
 * What the renderer (librsvg, through sharp) reads at most, whatever the settings say: its
 * XML parser refuses a document nested deeper than 256 elements, and it loads at most
 * 1,000,000 elements. SVG_MAX_DEPTH and SVG_MAX_ELEMENTS may not be set above these
 * (config.ts), so a file the pre-check lets through is never refused later unnamed.
 */
export const RENDERER_MAX_DEPTH = 256;
export const RENDERER_MAX_ELEMENTS = 1_000_000;

/** Which limit an SVG refusal is about: meta.limitName, with meta.limit its value. */
export type SvgLimitName = "SVG_MAX_DEPTH" | "SVG_MAX_ELEMENTS" | "SVG_MAX_ATTRIBUTES" | "renderer_max_depth" | "renderer_max_elements";

/** 422 naming the limit the SVG is over. */
export const overSvgLimit = (message: string, limitName: SvgLimitName, limit: number) =>
  new AppError("VALIDATION_ERROR", message, { path: "file", issues: [{ path: "file", message }], limitName, limit });

/** 422 for an SVG that is not one (no limit involved). */
const notSvg = (message: string) => new AppError("VALIDATION_ERROR", message, { path: "file", issues: [{ path: "file", message }] });

/**
 * The text is fed in slices with a turn of the event loop between them, so a 10 MB file
 * does not hold other requests for the whole walk. The turn is a 0 ms timer: with
 * setImmediate, two walks (or any other setImmediate loop) running at once were seen to
 * stall between slices until the next unrelated timer fired, up to a second each.
 */
const SLICE_CHARS = 256 * 1024;

class Refused extends Error {
  constructor(
    message: string,
    readonly limit?: { name: SvgLimitName; value: number },
  ) {
    super(message);
  }
}

export async function precheckSvg(text: string, limits: SvgShapeLimits): Promise<void> {
  let depth = 0;
  let elements = 0;
  let attributes = 0;
  let rootSeen = false;
  const refuse = (message: string, limit?: { name: SvgLimitName; value: number }): never => {
    throw new Refused(message, limit);
  };
  // Namespaces on, as the sanitizer's own XML parser has them: what it would reject
  // (an undeclared prefix) is refused here with a message instead of a blank result.
  const parser = new SaxesParser({ xmlns: true, position: true });
  parser.on("doctype", (doctype) => {
    if (doctype.includes("[")) refuse("SVG with entity declarations or an internal DOCTYPE subset is refused");
  });
  parser.on("opentagstart", (tag) => {
    if (!rootSeen) {
      rootSeen = true;
      if (tag.name !== "svg") refuse(`the root element is <${tag.name}>, not <svg>`);
    }
    if (++depth > limits.maxDepth) refuse(`the SVG nests elements deeper than ${limits.maxDepth} levels`, { name: "SVG_MAX_DEPTH", value: limits.maxDepth });
    if (++elements > limits.maxElements)
      refuse(`the SVG has more than ${limits.maxElements} elements`, { name: "SVG_MAX_ELEMENTS", value: limits.maxElements });
    attributes = 0;
  });
  parser.on("attribute", () => {
    if (++attributes > SVG_MAX_ATTRIBUTES) {
      refuse(`an element of the SVG has more than ${SVG_MAX_ATTRIBUTES} attributes`, { name: "SVG_MAX_ATTRIBUTES", value: SVG_MAX_ATTRIBUTES });
    }
  });
  parser.on("closetag", () => {
    depth--;
  });
  try {
    for (let at = 0; at < text.length; at += SLICE_CHARS) {
      if (at > 0) await new Promise((resolve) => setTimeout(resolve, 0));
      parser.write(text.slice(at, at + SLICE_CHARS));
    }
    parser.close();
  } catch (e) {
    if (e instanceof Refused) throw e.limit ? overSvgLimit(e.message, e.limit.name, e.limit.value) : notSvg(e.message);
    throw notSvg(`the SVG is not well-formed XML (${(e as Error).message})`);
  }
  if (!rootSeen) throw notSvg("the SVG has no root element");
}
