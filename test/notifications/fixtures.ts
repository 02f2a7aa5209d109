// A real SMTP server in process (smtp-server) on an ephemeral port, keeping what it
// accepts parsed (mailparser), and deliverers pointed at it with a stopped clock. The
// deliverer's send resolves only once the server accepted the message, so a test reads
// what arrived right after deliverOutbox returns; no waiting on the wall clock.
import { expect } from "bun:test";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { createApp } from "../../src/wiring/app.ts";
import type { Deps } from "../../src/wiring/deps.ts";
import { createMailer } from "../../src/infra/mail.ts";
import { deliverOutbox } from "../../src/modules/notifications/public.ts";
import { buildPlans, getUser, login, type PlanOverrides } from "../../src/modules/identity/public.ts";
import { createServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "../helpers/clock.ts";
import { callJson, testContext } from "../helpers/context.ts";
import { makeUser as makeSharedUser, type TestUser } from "../helpers/factories.ts";

interface Received {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface TestSmtp {
  url: string;
  /** Every message accepted, in order. */
  received: Received[];
  /** The messages accepted for one address. */
  to(address: string): Received[];
  /** Refuses the next `n` messages to `address` with a temporary error (451). */
  refuse(address: string, n: number): void;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const received: Received[] = [];
  const refusals = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const rcpt = session.envelope.rcptTo.map((r) => r.address);
      simpleParser(stream).then(
        (mail) => {
          const left = rcpt.map((a) => refusals.get(a) ?? 0).find((n) => n > 0);
          if (left) {
            for (const a of rcpt) refusals.set(a, left - 1);
            return callback(Object.assign(new Error("mailbox busy, try again later"), { responseCode: 451 }));
          }
          const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address ?? ""));
          received.push({
            from: mail.from?.value[0]?.address ?? "",
            to: to.join(","),
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: typeof mail.html === "string" ? mail.html : "",
          });
          callback();
        },
        (err) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    to: (address) => received.filter((m) => m.to === address),
    refuse(address, n) {
      refusals.set(address, n);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A world of its own on the shared database: a stopped clock, plans with small limits,
 * the app built on them, and deliverers sending to `smtp`.
 */
export async function world(smtp: TestSmtp, overrides: PlanOverrides = {}) {
  const { deps: shared } = await testContext();
  const clock = stoppedClock(shared.clock.nowMs());
  const config = { ...shared.config, SMTP_URL: smtp.url, MAIL_FROM: "shelf <quota@shelf.test>" };
  const deps: Deps = { ...shared, clock, config, plans: buildPlans(overrides) };
  const services = createServices(deps);
  const app = createApp(services);
  /** One deliverer: a mailer of its own, as a worker process has. */
  const deliver = async () => {
    const mailer = createMailer(config, shared.log);
    try {
      return await deliverOutbox(deps, mailer);
    } finally {
      mailer.close();
    }
  };
  return { deps, clock, app, services, deliver, close: () => services.close() };
}

interface InboxItem {
  id: string;
  kind: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  createdAt: string;
  readAt: string | null;
}

/**
 * The in-app list through a world's app (`current`: the world, once beforeAll made it): its
 * users, their list, and API keys made as a person makes them.
 */
export function inbox(current: () => Awaited<ReturnType<typeof world>>) {
  /** A user whose session token was signed on the world's clock (which the tests move). */
  async function makeUser(opts: Parameters<typeof makeSharedUser>[0] = {}): Promise<TestUser> {
    const w = current();
    const u = await makeSharedUser(opts);
    const grant = await login(w.deps, w.services.identity.signer, (await getUser(w.deps.db, u.id))!);
    return { ...u, jwt: grant.accessToken, refreshToken: grant.refreshToken };
  }
  async function list(token: string, query = "") {
    const res = await callJson("GET", `/v1/notifications${query}`, { app: current().app, token });
    expect(res.status).toBe(200);
    return res.body.data as { items: InboxItem[]; nextCursor: string | null; unreadCount: number };
  }
  const kinds = async (token: string) => (await list(token)).items.map((i) => i.kind);
  /** An API key made through POST /v1/api-keys (the event is told there), a moment after the event before. */
  async function createKey(user: TestUser, name = "laptop") {
    const w = current();
    w.clock.advance(1000);
    const res = await callJson("POST", "/v1/api-keys", { app: w.app, token: user.jwt, json: { name } });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; key: string; last4: string };
  }
  return { makeUser, list, kinds, createKey };
}
