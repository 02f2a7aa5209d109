// Delivers the outbox every minute (notifications): the runner's lease keeps one
// run at a time, and the deliverer's claims keep two deliverers (a manual run beside a
// scheduled one, or a run whose lease lapsed) from sending one message twice. A message
// queued now leaves within a minute; one whose send failed is retried with a backoff.
import { createMailer } from "../../infra/mail.ts";
import { deliverOutbox } from "./deliver.ts";
import { type Job, result } from "../../core/job.ts";

export const deliverOutboxJob: Job = {
  name: "deliver-outbox",
  schedule: "* * * * *",
  description: "sends the queued e-mails (quota warnings, video bandwidth, expiring conflict branches); SMTP_URL, or the log",
  async run({ deps, log, signal }) {
    const mailer = createMailer(deps.config, log);
    try {
      const d = await deliverOutbox(deps, mailer, signal);
      const counts = { sent: d.sent, retrying: d.retried, failed: d.failed, suppressed: d.suppressed };
      const any = Object.values(counts).some((n) => n > 0);
      return result(counts, (c) =>
        any ? `sent ${c.sent} (${mailer.kind}), retrying ${c.retrying}, failed ${c.failed}, suppressed ${c.suppressed}` : "nothing to send",
      );
    } finally {
      mailer.close();
    }
  },
};
