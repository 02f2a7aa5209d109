// Headless Chromium for the browser tests: Debian's `chromium` package (CI installs it,
// .ci/run), driven by playwright-core. A machine without it skips those tests and says
// so; in CI a missing browser is a failure, not a skip.
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];

/** The browser's executable, or undefined (and a line saying why the tests are skipped). */
export function findChromium(): string | undefined {
  const found = CANDIDATES.find((p): p is string => !!p && existsSync(p));
  if (!found) {
    if (process.env.CI === "true") throw new Error("no chromium at /usr/bin/chromium: CI must install it (apt-get install chromium, .ci/run)");
    console.warn("browser tests skipped: no chromium at /usr/bin/chromium (apt-get install chromium, or set CHROMIUM_PATH)");
  }
  return found;
}

/**
 * A headless browser that reaches `host` (the app's PUBLIC_URL host, as the pages and the
 * device codes name it) at the listening server, so the pages are seen at the address the
 * service announces.
 */
export function launchChromium(executablePath: string, host: string, port: number): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", `--host-resolver-rules=MAP ${host}:80 127.0.0.1:${port}`],
  });
}
