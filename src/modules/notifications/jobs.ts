// The notifications module's scheduled jobs (run by jobs/runner.ts).
//   - deliver-outbox, every minute: the runner's lease keeps one run at a time, and the
//     deliverer's claims keep two deliverers (a manual run beside a scheduled one, or a
//     run whose lease lapsed) from sending one message twice. A message queued now leaves
//     within a minute; one whose send failed is retried with a backoff (deliver.ts).
//   - prune-notifications, daily: settled outbox messages after SETTLED_KEPT_DAYS and the
//     quota marks of past months (prune.ts). Idempotent.
import { type Job, result } from "../../infra/job.ts";
import { createMailer } from "../../infra/mail.ts";
import { deliverOutbox } from "./deliver.ts";
import { pruneNotifications, SETTLED_KEPT_DAYS } from "./prune.ts";

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

export const pruneNotificationsJob: Job = {
  name: "prune-notifications",
  schedule: "29 3 * * *",
  description: `deletes sent, failed and suppressed e-mails queued over ${SETTLED_KEPT_DAYS} days ago and the quota marks of past months`,
  async run({ deps }) {
    const { messages, marks } = await pruneNotifications(deps.db, deps.clock.now());
    return result({ messages, marks }, (c) => `deleted ${c.messages} settled messages and ${c.marks} marks of past months`);
  },
};
