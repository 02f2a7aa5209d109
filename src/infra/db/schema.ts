// Every table of the one schema. Each feature owns its tables in its module's table.ts.
export * from "../../../jobs/table.ts";
