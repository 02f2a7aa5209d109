// The webhooks module's public surface: the modules where events happen queue them for
// their owner's endpoints (emitEvent, in the transaction of the change); the wiring starts
// the deliverer on worker nodes.
export { emitEvent, emitEvents } from "./events.ts";
export { createWebhookWorker } from "./worker.ts";
