// Postgres stopped under traffic (`make test-hostile`): an api process on a throwaway
// cluster of its own takes sign-ups, KB creates, document uploads, sync pushes, logins and
// reads from several clients at once while the server is killed (`pg_ctl stop -m
// immediate`) and started again. Every answer is a success or 503 DEPENDENCY_UNAVAILABLE
// with Retry-After, never a 500; /ready says 503 meanwhile and 200 once it is back; each
// 503 is one warn line of the process's log, nothing at error; and every write that was
// acknowledged is there afterwards. Every step waits on an event (answers counted, /ready's
// answer), never on the clock. Skipped without SHELF_HOSTILE, or without Postgres' server
// binaries (PG_BIN, or Debian's postgresql package).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sharp } from "../../src/infra/sharp.ts";
import { type ApiProcess, startApiProcess } from "../helpers/api-process.ts";
import { findPgBin, type PgCluster, startPgCluster } from "../helpers/pg-cluster.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const pgBin = findPgBin();
const run = !!process.env.SHELF_HOSTILE && !!pgBin;
if (process.env.SHELF_HOSTILE && !pgBin) console.warn("postgres-outage: skipped, no Postgres server binaries (set PG_BIN)");

/** Concurrent clients: enough that requests are in flight when the server dies. */
const CLIENTS = 6;
const PASSWORD = "outage password 1";
const V2 = { "service-sync-version": "2" };

type Phase = "before" | "outage" | "after";
interface Answer {
  op: string;
  phase: Phase;
  status: number;
  code?: string;
  retryAfter: string | null;
  ms: number;
}
/** What an acknowledged write left, to look for once the database is back. */
type Written = { kind: "signup" | "login"; token: string } | { kind: "kb" | "doc" | "push"; token: string; id: string };

let cluster: PgCluster | undefined;
let node: ApiProcess | undefined;
let base = "";
let stderr = "";

beforeAll(async () => {
  if (!run) return;
  cluster = await startPgCluster(pgBin!);
  node = await startApiProcess(
    {
      DATABASE_URL: cluster.url,
      MIGRATE_ON_START: "true",
      // Each sign-up comes from an address of its own (the per-address limit is not under test).
      TRUST_PROXY: "true",
      RATE_LIMITS: JSON.stringify({ read: 1_000_000, mutation: 1_000_000, upload: 1_000_000 }),
      PLAN_OVERRIDES: JSON.stringify({ trial: { docCount: 1_000_000, kbCount: 1_000_000, uploadsPerDay: 1_000_000, uploadsPerMonth: 1_000_000 } }),
    },
    { onStderr: (text) => (stderr += text) },
  );
  base = node.base;
}, 120_000);

afterAll(async () => {
  await node?.stop();
  await cluster?.dispose();
});

const address = () => `10.${Array.from(crypto.getRandomValues(new Uint8Array(3))).join(".")}`;
const unique = () => crypto.randomUUID().replaceAll("-", "");
const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");

async function send(path: string, init: { method?: string; token?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  const res = await fetch(`${base}${path}`, { method: init.method ?? "GET", headers, body });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** Answers counted as they arrive; `until` resolves once a condition on them holds. */
function tally() {
  const answers: Answer[] = [];
  const written: Written[] = [];
  const waiting: { ready: () => boolean; resolve: () => void }[] = [];
  const check = () => {
    for (const w of waiting.splice(0)) {
      if (w.ready()) w.resolve();
      else waiting.push(w);
    }
  };
  return {
    answers,
    written,
    add(a: Answer, w?: Written) {
      answers.push(a);
      if (w) written.push(w);
      check();
    },
    until: (ready: () => boolean) => (ready() ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ ready, resolve }))),
    acked: (kind: Written["kind"], phase: Phase) => answers.filter((a) => a.op === kind && a.phase === phase && a.status < 300).length,
  };
}

const expected = (a: Answer) =>
  a.status < 300 || (a.status === 503 && a.code === "DEPENDENCY_UNAVAILABLE" && a.retryAfter === "5") || (a.op === "edge miss" && a.status === 404);

/** Asks /ready until it answers `status`: its checks are shared and reused for a second, so this costs the node little. */
async function readyBecomes(status: number): Promise<void> {
  for (;;) if ((await fetch(`${base}/ready`).then((r) => r.status)) === status) return;
}

describe.skipIf(!run)("Postgres stopped under traffic", () => {
  test("every answer is 2xx or 503 DEPENDENCY_UNAVAILABLE with Retry-After; nothing acknowledged is lost", async () => {
    // Accounts, each with a KB and a document, and a public image for the media edge.
    const accounts: { email: string; token: string; kbId: string; docId: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const email = `outage-${unique()}@example.test`;
      const signup = await send("/v1/auth/signup", { method: "POST", json: { email, password: PASSWORD }, headers: { "x-forwarded-for": address() } });
      expect(signup.status).toBe(201);
      const token = signup.json.data.accessToken as string;
      const kb = await send("/v1/kbs", { method: "POST", token, json: { name: `kb ${unique()}` } });
      const doc = await send("/v1/docs", { method: "POST", token, json: { filename: "setup.md", content: `# ${unique()}\n` } });
      expect([kb.status, doc.status]).toEqual([201, 201]);
      accounts.push({ email, token, kbId: kb.json.data.id, docId: doc.json.data.id });
    }
    const form = new FormData();
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "teal" } })
      .png()
      .toBuffer();
    form.append("file", new Blob([new Uint8Array(png)]), "edge.png");
    form.append("is_public", "true");
    const image = await send("/v1/images", { method: "POST", token: accounts[0]!.token, body: form });
    expect(image.status).toBe(201);
    const edgePath = new URL(image.json.data.url).pathname;

    const t = tally();
    let phase: Phase = "before";
    let stopping = false;
    const anyone = () => accounts[Math.floor(Math.random() * accounts.length)]!;

    // One request of each kind; a write's answer says what to look for afterwards.
    const ops: [string, () => Promise<{ res: Awaited<ReturnType<typeof send>>; written?: (json: any) => Written }>][] = [
      [
        "signup",
        async () => ({
          res: await send("/v1/auth/signup", {
            method: "POST",
            json: { email: `outage-${unique()}@example.test`, password: PASSWORD },
            headers: { "x-forwarded-for": address() },
          }),
          written: (j) => ({ kind: "signup", token: j.data.accessToken }),
        }),
      ],
      [
        "kb",
        async () => {
          const { token } = anyone();
          return {
            res: await send("/v1/kbs", { method: "POST", token, json: { name: `kb ${unique()}` } }),
            written: (j) => ({ kind: "kb", token, id: j.data.id }),
          };
        },
      ],
      [
        "doc",
        async () => {
          const { token } = anyone();
          const res = await send("/v1/docs", { method: "POST", token, json: { filename: `${unique()}.md`, content: `# ${unique()}\n\ntext\n` } });
          return { res, written: (j) => ({ kind: "doc", token, id: j.data.id }) };
        },
      ],
      [
        "push",
        async () => {
          const { token, kbId } = anyone();
          const content = `# ${unique()}\n`;
          const op = { op: "upsert", relativePath: `notes/${unique()}.md`, content, sourceHash: sha256(content) };
          const res = await send(`/v1/kbs/${kbId}/sync`, { method: "POST", token, json: { ops: [op] }, headers: V2 });
          return { res, written: (j) => ({ kind: "push", token, id: j.data.results[0].docId }) };
        },
      ],
      [
        "login",
        async () => ({
          res: await send("/v1/auth/login", { method: "POST", json: { email: anyone().email, password: PASSWORD }, headers: { "x-forwarded-for": address() } }),
          written: (j) => ({ kind: "login", token: j.data.accessToken }),
        }),
      ],
      ["read me", async () => ({ res: await send("/v1/user/me", { token: anyone().token }) })],
      ["read kbs", async () => ({ res: await send("/v1/kbs", { token: anyone().token }) })],
      [
        "read manifest",
        async () => {
          const { token, kbId } = anyone();
          return { res: await send(`/v1/kbs/${kbId}/manifest`, { token, headers: V2 }) };
        },
      ],
      [
        "read doc",
        async () => {
          const { token, docId } = anyone();
          return { res: await send(`/v1/docs/${docId}`, { token }) };
        },
      ],
      ["edge", async () => ({ res: await send(edgePath) })],
      // An id no cache holds: the edge asks the database every time (404 while it answers).
      ["edge miss", async () => ({ res: await send(`/media/${unique().slice(0, 11)}.webp`) })],
    ];

    const client = async (first: number) => {
      for (let n = first; !stopping; n++) {
        const [op, go] = ops[n % ops.length]!;
        const sentIn = phase;
        const sentAt = performance.now();
        const { res, written } = await go();
        const ms = performance.now() - sentAt;
        const a: Answer = { op, phase: sentIn, status: res.status, code: res.json?.code, retryAfter: res.headers.get("retry-after"), ms };
        if (!expected(a)) a.code = `${a.code ?? ""} ${res.text.slice(0, 300)}`; // kept for the failure message
        t.add(a, res.status < 300 && written ? written(res.json) : undefined);
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(i * 3));

    // Every answer: a success, or the outage said as such. The first other answer ends the
    // traffic and the test with it, rather than leaving a wait below to time out.
    const wrong = () => t.answers.filter((a) => !expected(a));
    const reach = async (ready: () => boolean) => {
      await t.until(() => ready() || wrong().length > 0);
      if (wrong().length === 0) return;
      stopping = true;
      await Promise.all(clients);
      expect(wrong()).toEqual([]);
    };

    const writes = ["signup", "kb", "doc", "push", "login"] as const;
    await reach(() => writes.every((w) => t.acked(w, "before") >= 3));
    phase = "outage";
    await cluster!.stopImmediately();
    await readyBecomes(503);
    await reach(() => t.answers.filter((a) => a.phase === "outage" && a.status === 503).length >= 30);

    await cluster!.start();
    await readyBecomes(200);
    phase = "after";
    await reach(() => writes.every((w) => t.acked(w, "after") >= 3));
    stopping = true;
    await Promise.all(clients);
    expect(wrong()).toEqual([]);
    const outage503 = t.answers.filter((a) => a.status === 503).length;
    expect(outage503).toBeGreaterThanOrEqual(30);

    // Every acknowledged write is there, read through the recovered node.
    const lost: string[] = [];
    for (const w of t.written) {
      // A sign-up's or login's token reads its account through its session.
      const path = !("id" in w) ? "/v1/user/me" : w.kind === "kb" ? `/v1/kbs/${w.id}` : `/v1/docs/${w.id}`;
      const res = await send(path, { token: w.token });
      if (res.status !== 200) lost.push(`${w.kind} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(lost).toEqual([]);
    expect(t.written.length).toBeGreaterThanOrEqual(writes.length * 6);

    // One warn line per 503 of the outage, and nothing logged as an error.
    await node!.stop();
    const lines = stderr
      .split("\n")
      .filter(Boolean)
      .map((l): { level: string; msg: string; stack?: string; err?: unknown } => {
        try {
          return JSON.parse(l);
        } catch {
          return { level: "not a log line", msg: l }; // a stack trace printed by something
        }
      });
    expect(lines.filter((l) => l.level === "error" || l.level === "not a log line")).toEqual([]);
    const warned = lines.filter((l) => l.msg === "database unavailable");
    expect(warned.length).toBe(outage503);
    for (const l of warned) expect([l.level, l.err, l.stack]).toEqual(["warn", undefined, undefined]);
    // Not asserted (a busy machine decides it): how long a request waited for its 503.
    const slowest = Math.max(...t.answers.filter((a) => a.status === 503).map((a) => a.ms));
    console.log(
      `  ${t.answers.length} answers (${outage503} of them 503 while Postgres was away, the slowest in ${slowest.toFixed(0)} ms), ${t.written.length} acknowledged writes, all found afterwards`,
    );
  }, 180_000);
});
