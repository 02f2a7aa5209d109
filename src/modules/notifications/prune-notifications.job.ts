// Deletes settled outbox messages after SETTLED_KEPT_DAYS, the quota marks of past months
// and old in-app notifications (src/modules/notifications/prune.ts). Idempotent.
import { pruneNotifications, READ_KEPT_DAYS, SETTLED_KEPT_DAYS, UNREAD_KEPT_DAYS } from "./prune.ts";
import { type Job, result } from "../../core/job.ts";

export const pruneNotificationsJob: Job = {
  name: "prune-notifications",
  schedule: "29 3 * * *",
  description: `deletes sent, failed and suppressed e-mails queued over ${SETTLED_KEPT_DAYS} days ago, the quota marks of past months, and in-app notifications read and over ${READ_KEPT_DAYS} days old or over ${UNREAD_KEPT_DAYS} days old`,
  async run({ deps }) {
    const { messages, marks, inApp } = await pruneNotifications(deps.db, deps.clock.now());
    return result(
      { messages, marks, inApp },
      (c) => `deleted ${c.messages} settled messages, ${c.marks} marks of past months and ${c.inApp} in-app notifications`,
    );
  },
};
