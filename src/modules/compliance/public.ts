// The compliance module's public surface: the check every upload path calls in one line
// (assertCompliant), and the factory the wiring builds from the configuration.
export { assertCompliant, type Compliance, createCompliance, type WithCompliance } from "./checker.ts";
