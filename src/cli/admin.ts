// `shelf admin ...`: operator tasks run against the configured database. With the
// embedded database they need the server stopped (PGlite is one process's database).
import { loadConfig } from "../config.ts";
import { closeDeps, createDeps, type Deps } from "../deps.ts";
import { allJobs } from "../../jobs/index.ts";
import { createJobRunner } from "../../jobs/runner.ts";

const HELP = `shelf admin commands:
  jobs list                 every job, its schedule and its last runs
  jobs run NAME             run a job now and print its outcome
`;

type Command = (deps: Deps, args: string[]) => Promise<number>;

const commands: Record<string, Command> = {
  "jobs list": async (deps) => {
    const runner = createJobRunner(deps, allJobs);
    for (const job of runner.jobs) {
      const [last] = await runner.recentRuns(job.name, 1);
      const lastText = last ? `${last.outcome} at ${last.startedAt.toISOString()}` : "never run";
      process.stdout.write(`${job.name.padEnd(28)} ${job.schedule.padEnd(14)} ${lastText}  ${job.description}\n`);
    }
    return 0;
  },
  "jobs run": async (deps, [name]) => {
    if (!name) return usage("jobs run NAME");
    const run = await createJobRunner(deps, allJobs).runNow(name);
    process.stdout.write(`${run.name}: ${run.outcome}${run.summary ? ` (${run.summary})` : ""}${run.error ? `: ${run.error}` : ""}\n`);
    return run.outcome === "ok" ? 0 : 1;
  },
};

function usage(form: string): number {
  process.stderr.write(`usage: shelf admin ${form}\n`);
  return 2;
}

export async function adminCommand(args: string[]): Promise<number> {
  const key = args.slice(0, 2).join(" ");
  const command = commands[key];
  if (!command) {
    process.stdout.write(HELP);
    return args.length === 0 || args[0] === "--help" ? 0 : 2;
  }
  const deps = await createDeps(loadConfig(), { log: undefined });
  try {
    return await command(deps, args.slice(2));
  } finally {
    await closeDeps(deps);
  }
}
