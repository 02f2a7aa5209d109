// The notifications module's public surface: messages to users are queued in the outbox
// (a crossing of a quota mark at most once per period) and delivered by the worker.
export { type Crossing, enqueue, tellCrossings } from "./outbox.ts";
export { deliverOutbox } from "./deliver.ts";
export { pruneNotifications } from "./prune.ts";
export { deliverOutboxJob } from "./deliver-outbox.job.ts";
export { pruneNotificationsJob } from "./prune-notifications.job.ts";
