// Headless Chromium for the browser tests: Debian's `chromium` package (CI installs it,
// .ci/run), driven by playwright-core. A machine without it skips those tests and says
// so; in CI a missing browser is a failure, not a skip.
import { existsSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { oauthApp } from "../oauth/flow.ts";

const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];

/** Called when the driver dropped an event (below): a page's request may then never be seen to end. */
const onDroppedEvent = new Set<() => void>();

/** Listens for events the driver dropped (toleratePlaywrightStrayEvents); returns the way to stop. */
export function whenEventDropped(listener: () => void): () => void {
  onDroppedEvent.add(listener);
  return () => onDroppedEvent.delete(listener);
}

/**
 * playwright-core's client throws, from a setImmediate, when an event from its driver names a
 * network object (a request's response) that the client no longer holds: seen on busy CI
 * runs as "Object with guid response@... was not bound in the connection" when a page's
 * requests were cancelled (a screen change, a reload, a context closing) after their answers
 * began. The throw is an uncaught error that fails whichever test is running, though nothing
 * the test asked for went wrong: the event is about an object no test holds. Such events are
 * dropped here with a line saying so; anything else the connection throws is thrown as before.
 */
function toleratePlaywrightStrayEvents(browser: Browser) {
  const connection = (browser as unknown as { _connection?: { dispatch(m: { id?: number }): void; strayTolerant?: true } })._connection;
  if (!connection || connection.strayTolerant) return;
  const dispatch = connection.dispatch.bind(connection);
  connection.strayTolerant = true;
  connection.dispatch = (message) => {
    try {
      dispatch(message);
    } catch (e) {
      const stray = message.id === undefined && e instanceof Error && /was not bound in the connection|Cannot find parent object/.test(e.message);
      if (!stray) throw e;
      console.warn(`browser driver: dropped an event about an object it no longer holds (${e.message})`);
      for (const listener of onDroppedEvent) listener();
    }
  };
}

/** Launching a browser on a busy machine takes seconds: the tests wait on it, not on a clock. */
export const SLOW = 120_000;

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
 * The OAuth test app listening on a free port, and a headless browser that reaches the
 * app's PUBLIC_URL host there, so the pages are seen at the address the service announces
 * (the device codes' verification_uri); `change` as oauthApp's. Pages are opened without JavaScript unless told:
 * the OAuth pages work without it. close() stops both.
 */
export async function browserRig(executablePath: string, change?: Parameters<typeof oauthApp>[0], opts: { args?: string[] } = {}) {
  const o = await oauthApp(change, { closedBy: "caller" });
  const listening = o.app.listen({ port: 0, hostname: "127.0.0.1" });
  const server = listening.server!;
  const host = new URL(o.deps.config.PUBLIC_URL).hostname;
  const browser: Browser = await chromium.launch({
    executablePath,
    args: [
      "--no-sandbox",
      "--disable-dev-shm-usage",
      "--disable-gpu",
      `--host-resolver-rules=MAP ${host}:80 127.0.0.1:${server.port}, MAP shelf.test:80 127.0.0.1:${server.port}`,
      ...(opts.args ?? []),
    ],
  });
  toleratePlaywrightStrayEvents(browser);
  /** What the pages made the browser complain of (a policy refusal, say). */
  const complaints: string[] = [];
  return {
    o,
    complaints,
    /** The listening server by its loopback address (the pages also answer at PUBLIC_URL's host). */
    origin: `http://127.0.0.1:${server.port}`,
    /** A fresh browser profile (its own cookies), phone-sized unless told; scripts run only when told (the API reference). */
    async open(viewport = { width: 390, height: 844 }, { javaScript = false } = {}): Promise<Page> {
      const context = await browser.newContext({ viewport, javaScriptEnabled: javaScript });
      // An upper bound on waiting for the page's own events, for a machine kept busy (CI's
      // busy run), within the tests' own bound.
      context.setDefaultTimeout(SLOW / 2);
      const page = await context.newPage();
      page.on("console", (m) => m.type() === "error" && complaints.push(m.text()));
      return page;
    },
    noHorizontalScroll: (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    async close() {
      await browser.close();
      // Not awaited: stop(true) can wait on a keep-alive socket that a busy machine is slow to close.
      void server.stop(true);
      await o.services.close();
    },
  };
}
