// An app of the shared parts that mails to a test SMTP server: behind a trusted proxy (each
// test names its client address in X-Forwarded-For), on a stopped clock (a window or a
// link's hour ends only when a test moves it), with `config` changes of its own.
import type { Config } from "../../src/config.ts";
import { createMailer } from "../../src/infra/mail.ts";
import { deliverOutbox } from "../../src/modules/notifications/public.ts";
import { createApp } from "../../src/wiring/app.ts";
import { createServices } from "../../src/wiring/services.ts";
import { stoppedClock } from "./clock.ts";
import { testContext } from "./context.ts";

export async function mailingApp(smtpUrl: string, config: Partial<Config> = {}) {
  const shared = await testContext();
  const clock = stoppedClock(shared.deps.clock.nowMs());
  const cfg = { ...shared.deps.config, TRUST_PROXY: true, SMTP_URL: smtpUrl, MAIL_FROM: "shelf <security@shelf.test>", ...config };
  const deps = { ...shared.deps, clock, config: cfg };
  const services = createServices(deps);
  const app = createApp(services);
  /** Sends every mail due now, as the worker's job does, once the mails asked for are written. */
  const deliver = async () => {
    await services.identity.settled();
    const mailer = createMailer(cfg, shared.deps.log);
    try {
      await deliverOutbox(deps, mailer);
    } finally {
      mailer.close();
    }
  };
  return { app, deps, clock, services, deliver, close: () => services.close() };
}

/** A client address of its own, for a test's requests through a trusted proxy. */
export const randomIp = () => `10.${Array.from(crypto.getRandomValues(new Uint8Array(3))).join(".")}`;
