// The accessibility scan (axe-core) for the browser tests. The dashboard's CSP allows no
// inline script or eval, so axe is not added as a <script> tag (addScriptTag is refused):
// its source is handed to page.evaluate as a string, which the devtools protocol evaluates
// outside the page's CSP. The page runs under its real policy otherwise.
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";

const source = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export interface Violation {
  id: string;
  impact: string;
  help: string;
  /** The offending elements, as CSS selectors. */
  targets: string[];
}

/** The serious and critical violations axe finds on the page as it is now (WCAG 2.x A and AA, and axe's best practices). */
export async function axeViolations(page: Page): Promise<Violation[]> {
  // Once per page (a navigation drops it).
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(source);
  return page.evaluate(async () => {
    type AxeResult = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] };
    const w = window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeResult[] }> } };
    const { violations } = await w.axe.run(document, { resultTypes: ["violations"] });
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ id: v.id, impact: v.impact!, help: v.help, targets: v.nodes.map((n) => n.target.map(String).join(" ")) }));
  });
}
