// What `shelf mcp` asks the server before it serves stdio: is SHELF_URL a shelf server that
// answers, and does it take SHELF_API_KEY. An MCP client starts the command once and shows
// its stderr when it exits; found at the first tool call instead, a wrong address or key
// reads as "ECONNREFUSED" or "unauthorized" inside an agent's conversation, far from the
// setting to fix.

const TIMEOUT_MS = 10_000;

/** The connection failures a person meets, in words; others are shown as the runtime names them. */
const FAILURES: Record<string, string> = {
  ECONNREFUSED: "connection refused, nothing listens there (ECONNREFUSED)",
  ConnectionRefused: "connection refused, nothing listens there",
  ENOTFOUND: "its host name does not resolve (ENOTFOUND)",
  EHOSTUNREACH: "its host cannot be reached (EHOSTUNREACH)",
  ECONNRESET: "the connection was cut (ECONNRESET)",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
};

interface Envelope {
  success?: unknown;
  error?: unknown;
  code?: unknown;
}

/** Why `base` with `key` will not do, naming the variable to fix; undefined when the server takes the key. */
export async function checkServer(base: string, key: string, urlSet: boolean): Promise<string | undefined> {
  const where = `SHELF_URL=${base}${urlSet ? "" : " (unset: the default)"}`;
  let res: Response;
  try {
    // Any route that needs a credential: the key is judged before the route's scope is, so a
    // key without account.read answers 403 here and is a good key all the same.
    res = await fetch(`${base}/v1/user/me`, { headers: { authorization: `Bearer ${key}` }, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    const err = e as { name?: string; code?: string; message?: string };
    const why = err.name === "TimeoutError" ? `no answer within ${TIMEOUT_MS / 1000} s` : (FAILURES[err.code ?? ""] ?? err.code ?? err.message ?? String(e));
    return `cannot reach the shelf server at ${where}: ${why}. Start the server, or set SHELF_URL to its address.`;
  }
  let body: Envelope | undefined;
  try {
    body = (await res.json()) as Envelope;
  } catch {
    body = undefined;
  }
  if (typeof body?.success !== "boolean") {
    return `${where} does not answer as a shelf server (GET /v1/user/me: ${res.status}, not shelf's JSON envelope). Set SHELF_URL to the server's API address (its PUBLIC_URL).`;
  }
  const words = typeof body.error === "string" ? `${body.error}${typeof body.code === "string" ? ` (${body.code})` : ""}` : `status ${res.status}`;
  if (res.status === 401)
    return `the server at ${where} refused SHELF_API_KEY: ${words}. Set SHELF_API_KEY to a live API key (the dashboard's API keys, or POST /v1/api-keys).`;
  // 403 is a key without the route's scope, 429 a key over its rate: both are keys it took.
  if (res.ok || res.status === 403 || res.status === 429) return undefined;
  return `the server at ${where} answered ${res.status}: ${words}.`;
}
