// The mail part (docs/operators.md, "Notifications"): SMTP through nodemailer when SMTP_URL is
// set, otherwise a transport that writes each message to the log and counts it as sent,
// so a single machine with nothing configured still drains its outbox.
import type { Transporter } from "nodemailer";
import type { Config } from "../config.ts";
import type { Log } from "./log.ts";

interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  readonly kind: "smtp" | "log";
  /** Resolves once the server accepted the message; rejects with its reason otherwise. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

// Far below the outbox's claim lease: a send that hangs fails before another worker may
// take the message over.
const SOCKET_TIMEOUT_MS = 60_000;

export function createMailer(config: Pick<Config, "SMTP_URL" | "MAIL_FROM">, log: Log): Mailer {
  if (!config.SMTP_URL) {
    return {
      kind: "log",
      async send(m) {
        log.info("mail (no SMTP_URL: logged, not sent)", { to: m.to, subject: m.subject, text: m.text });
      },
      close() {},
    };
  }
  // Pooled: a deliverer's run sends its messages over one connection, not one each.
  // nodemailer loads at the first message, not at start: an api node never sends mail
  // (docs/benchmarks.md, "Idle memory").
  let transport: Promise<Transporter> | undefined;
  const open = () =>
    (transport ??= import("nodemailer").then(({ createTransport }) =>
      createTransport({
        pool: true,
        maxConnections: 1,
        url: config.SMTP_URL,
        connectionTimeout: SOCKET_TIMEOUT_MS,
        greetingTimeout: SOCKET_TIMEOUT_MS,
        socketTimeout: SOCKET_TIMEOUT_MS,
      }),
    ));
  return {
    kind: "smtp",
    async send(m) {
      await (await open()).sendMail({ from: config.MAIL_FROM, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
    close() {
      transport?.then(
        (t) => t.close(),
        () => {},
      );
    },
  };
}
