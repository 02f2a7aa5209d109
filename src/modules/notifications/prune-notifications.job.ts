// Deletes settled outbox messages after SETTLED_KEPT_DAYS and the quota marks of past
// months (src/modules/notifications/prune.ts). Idempotent.
import { pruneNotifications, SETTLED_KEPT_DAYS } from "./prune.ts";
import { type Job, result } from "../../infra/job.ts";

export const pruneNotificationsJob: Job = {
  name: "prune-notifications",
  schedule: "29 3 * * *",
  description: `deletes sent, failed and suppressed e-mails queued over ${SETTLED_KEPT_DAYS} days ago and the quota marks of past months`,
  async run({ deps }) {
    const { messages, marks } = await pruneNotifications(deps.db, deps.clock.now());
    return result({ messages, marks }, (c) => `deleted ${c.messages} settled messages and ${c.marks} marks of past months`);
  },
};
