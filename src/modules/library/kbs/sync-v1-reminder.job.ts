// The final reminder to accounts that still call sync v1, on the date the sunset schedule
// gives (SYNC_V1_REMINDER_AT) and until the sunset: checked daily, sent once per account.
import { type Job, result } from "../../../core/job.ts";
import { remindV1Callers } from "../sync/v1-callers.ts";

export const syncV1ReminderJob: Job = {
  name: "sync-v1-reminder",
  schedule: "17 9 * * *",
  description: "from SYNC_V1_REMINDER_AT until the v1 sunset: mails each account that called sync v1 (and not reminded yet) the final reminder, once",
  async run({ deps }) {
    const run = await remindV1Callers(deps);
    return result({ reminded: run.reminded }, (c) => (run.skipped ? `nothing to do (${run.skipped.replaceAll("_", " ")})` : `${c.reminded} accounts reminded`));
  },
};
