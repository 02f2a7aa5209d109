// The notifications module's public surface: messages to users are queued in the outbox
// (a deliverer sends them later).
export { enqueue } from "./outbox.ts";
