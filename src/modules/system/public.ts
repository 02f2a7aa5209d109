// What the wiring uses of the system module besides its routes: the metrics' own listener.
export { listenMetrics } from "./metrics.ts";
