// `shelf admin` against a running `shelf serve`: the command goes through the server's
// owner-only socket in DATA_DIR and runs on the server's own parts (the embedded database
// is one process's); with the server stopped it opens the parts itself. Either way it says
// which instance it acts on. The start banner says where the API and its reference are and
// how to make the first account.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { emptyInstanceEnv } from "../helpers/empty-instance.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const ROOT = join(import.meta.dir, "../..");
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

type Env = Record<string, string | undefined>;

/** `shelf serve --role api` on `env`; resolves with its URL and its ready line once it says it is ready. */
async function startServer(env: Env) {
  const child = Bun.spawn(["bun", "src/main.ts", "serve", "--role", "api"], { cwd: ROOT, env, stdout: "pipe", stderr: "inherit" });
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  const lines: Record<string, any>[] = [];
  while (!lines.some((l) => l.msg === "ready")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the server exited during start:\n${text}`);
    text += decoder.decode(value, { stream: true });
    const complete = text.split("\n");
    text = complete.pop()!;
    for (const line of complete) if (line.startsWith("{")) lines.push(JSON.parse(line));
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  const listening = lines.find((l) => l.msg === "api listening")!;
  const stop = async () => {
    child.kill("SIGTERM");
    return child.exited;
  };
  closers.push(stop);
  return { base: String(listening.url).replace("0.0.0.0", "127.0.0.1").replace(/\/$/, ""), ready: lines.find((l) => l.msg === "ready")!, stop };
}

async function admin(env: Env, ...args: string[]) {
  const child = Bun.spawn(["bun", "src/main.ts", "admin", ...args], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, out, err };
}

/** How an instance is named: its Postgres (without credentials), or its DATA_DIR. */
function instanceWords(env: Env): string {
  if (!env.DATABASE_URL) return `in DATA_DIR=${env.DATA_DIR} (embedded database ${join(env.DATA_DIR!, "pg")})`;
  const url = new URL(env.DATABASE_URL);
  return `on Postgres ${url.hostname}${url.port ? `:${url.port}` : ""}${url.pathname} (DATABASE_URL; DATA_DIR=${env.DATA_DIR})`;
}

async function signup(base: string, email: string) {
  const res = await fetch(`${base}/v1/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "a long passphrase" }),
  });
  return (await res.json()) as { data: { user: { plan: string; isAdmin: boolean }; accessToken: string } };
}

const me = async (base: string, token: string) =>
  ((await (await fetch(`${base}/v1/user/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: { plan: string; isAdmin: boolean } }).data;

describe("shelf admin with the server running", () => {
  test("runs in the server through DATA_DIR/admin.sock (owner-only), then on its own once the server stops", async () => {
    const instance = await emptyInstanceEnv({ PORT: "0", LOG_LEVEL: "info" });
    closers.push(instance.close);
    const { env } = instance;
    const server = await startServer(env);

    // The banner: where things are, and how the first account is made and what it becomes.
    expect(server.ready).toMatchObject({ url: env.PUBLIC_URL, apiReference: `${env.PUBLIC_URL}/swagger` });
    expect(server.ready.firstAccount.signup).toContain(`${env.PUBLIC_URL}/v1/auth/signup`);
    expect(server.ready.firstAccount.cli).toContain("admin user create");
    // This DATA_DIR is not the default, so the command that reaches this server names it.
    expect(server.ready.firstAccount.cli).toStartWith(`DATA_DIR=${env.DATA_DIR} bun src/main.ts admin user create`);
    expect(server.ready.firstAccount.becomes).toContain("administrator on plan pro_plus");

    const socket = join(env.DATA_DIR!, "admin.sock");
    const mode = statSync(socket).mode;
    expect(statSync(socket).isSocket()).toBe(true);
    expect((mode & 0o777).toString(8)).toBe("600");

    const owner = await signup(server.base, "owner@example.com");
    expect(owner.data.user).toMatchObject({ plan: "pro_plus", isAdmin: true });

    const setPlan = await admin(env, "user", "set-plan", "--email", "owner@example.com", "--plan", "pro");
    expect(setPlan).toMatchObject({ code: 0 });
    // Which instance, in the server's words, on stderr: stdout is the command's answer alone.
    expect(setPlan.err).toBe(`shelf admin: the instance ${instanceWords(env)}, through its running server (${join(env.DATA_DIR!, "admin.sock")})\n`);
    expect(setPlan.out).toContain("owner@example.com: plan=pro");
    expect(await me(server.base, owner.data.accessToken)).toMatchObject({ plan: "pro", isAdmin: true });

    // An operator's mistake comes back as the command's own words and exit code.
    const unknown = await admin(env, "user", "set-plan", "--email", "nobody@example.com", "--plan", "pro");
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("no user with email nobody@example.com");

    const created = await admin(env, "user", "create", "--email", "second@example.com", "--password", "a long passphrase");
    expect(created.code).toBe(0);
    expect(created.out).toContain("plan=trial");
    expect(created.out).not.toContain("admin");

    const jobs = await admin(env, "jobs");
    expect(jobs.code).toBe(0);
    expect(jobs.out).toContain("orphan-sweep");

    expect(await server.stop()).toBe(0);
    expect(existsSync(socket)).toBe(false);

    // No server: the command opens the database itself (the embedded one is free again).
    const offline = await admin(env, "user", "set-plan", "--email", "owner@example.com", "--plan", "trial");
    expect(offline).toMatchObject({ code: 0 });
    expect(offline.err).toContain(`shelf admin: the instance ${instanceWords(env)}, opened directly`);
    expect(offline.out).toContain("plan=trial");
  }, 60_000);
});
