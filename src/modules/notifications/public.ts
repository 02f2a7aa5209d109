// The notifications module's public surface: events told to users (notify; a crossing of a
// quota mark at most once per period) land in the in-app list and the e-mail outbox, as
// each user chose per kind; the worker delivers the e-mails.
export { type Crossing, notify, tellCrossings } from "./outbox.ts";
export { deliverOutbox } from "./deliver.ts";
export { pruneNotifications } from "./prune.ts";
export { deliverOutboxJob } from "./deliver-outbox.job.ts";
export { pruneNotificationsJob } from "./prune-notifications.job.ts";
