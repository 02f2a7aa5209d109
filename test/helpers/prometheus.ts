// Debian's `prometheus` package for the metrics tests: promtool checks the text every node
// answers and the alert rules, and a real Prometheus scrapes a fleet. CI installs it
// (.ci/run) and its absence fails there; elsewhere those tests are skipped with a line.
import { existsSync } from "node:fs";

/** The tool's path, or undefined (and a line saying why the tests that need it are skipped). */
export function findPrometheusTool(name: "promtool" | "prometheus"): string | undefined {
  const path = `/usr/bin/${name}`;
  if (existsSync(path)) return path;
  if (process.env.CI === "true") throw new Error(`no ${path}: CI must install it (apt-get install prometheus, .ci/run)`);
  console.warn(`tests skipped: no ${path} (apt-get install prometheus)`);
  return undefined;
}

/** Runs promtool with `args`, the text on its stdin; its exit code and what it said. */
export async function promtool(path: string, args: string[], stdin?: string): Promise<{ code: number; output: string }> {
  const child = Bun.spawn([path, ...args], { stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin), stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, output: `${out}${err}` };
}
