// `shelf admin ...`: operator tasks. With a `shelf serve` running on this DATA_DIR the
// command runs in that server, sent through its admin socket (admin-socket.ts): the embedded
// database is one process's. With none, it opens the configured parts itself, if there is an
// instance to open: an admin command never makes one (instance.ts).
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { dataDirOf, loadConfig } from "../../config.ts";
import { closeDeps, createDeps, type Deps } from "../deps.ts";
import { AppError } from "../../core/errors.ts";
import {
  createApiKey,
  createUser,
  getUserByEmail,
  updateUser,
  isPlanName,
  parsePlanExpiry,
  PLAN_EXPIRY_RULE,
  PLAN_NAMES,
} from "../../modules/identity/public.ts";
import { createJobRunner } from "../../../jobs/runner.ts";
import { allJobs, storedKinds } from "../../../jobs/index.ts";
import { deleteAccount } from "../../modules/admin/public.ts";
import { remindV1Callers } from "../../modules/library/public.ts";
import { verifyUsage } from "../../modules/usage/public.ts";
import { BackupError, backupInstance, restoreInstance } from "./backup.ts";
import { dataFolderHere, describeInstance, embeddedDatabaseIn, selfCommand } from "./instance.ts";

const HELP = `shelf admin commands:
  user create --email E --password P [--plan trial|pro|pro_plus] [--admin] [--nickname N]
                                                     default: DEFAULT_PLAN, or on an instance with no
                                                     accounts an admin on FIRST_USER_PLAN
  user set-plan --email E --plan P [--expires ISO|never]
  user set-admin --email E [--off]                   make the account an administrator; --off takes the
                                                     flag away (refused for the instance's only one)
  user delete --email E --yes                        delete the account and all its rows; its stored
                                                     objects go with the orphan sweep after its cutoff
  apikey create --email E --name N [--scopes a,b]     prints the key once
  jobs                                               every job, its schedule and its last run (also: jobs list)
  job run NAME                                       run a job now and print what it did (also: jobs run NAME)
  sync-v1 remind                                     send the final sync v1 reminder now, whatever the date
                                                     (each account that called v1 gets it once)
  usage verify [--fix] [--email E]                   compare every user's (or one user's) storage and count
                                                     counters with the sum of their rows; --fix sets each
                                                     one that differs to that sum
  backup DEST                                        embedded parts: the database, objects and secret, taken
                                                     at one instant, into the new folder DEST (a running
                                                     server pauses for a moment, which is said)
  restore FROM                                       make the instance of backup FROM in DATA_DIR, which must
                                                     be new or empty (no server runs there)
`;

export type Out = (line: string) => void;
type Command = (deps: Deps, args: string[], out: Out) => Promise<number>;

class UsageError extends Error {}

function flags(args: string[], spec: Record<string, "string" | "boolean">, required: string[] = []) {
  const options = Object.fromEntries(Object.entries(spec).map(([k, type]) => [k, { type }]));
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args, options: options as never, strict: true }).values as typeof values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  for (const r of required) if (values[r] === undefined) throw new UsageError(`--${r} is required`);
  return values;
}

async function userByEmail(deps: Deps, email: string) {
  const user = await getUserByEmail(deps.db, email);
  if (!user) throw new UsageError(`no user with email ${email}`);
  return user;
}

function plan(value: unknown) {
  if (typeof value !== "string" || !isPlanName(value)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(", ")}`);
  return value;
}

const listJobs: Command = async (deps, args, out) => {
  if (args.length) throw new UsageError(`unexpected ${args.join(" ")}`);
  const runner = createJobRunner(deps, allJobs);
  for (const job of runner.jobs) {
    const [last] = await runner.recentRuns(job.name, 1);
    const lastText = last
      ? `${last.outcome} at ${last.startedAt.toISOString()}${last.summary ? `: ${last.summary}` : ""}${last.error ? `: ${last.error}` : ""}`
      : "never run";
    out(`${job.name.padEnd(28)} ${job.schedule.padEnd(14)} ${lastText}`);
  }
  return 0;
};

const runJob: Command = async (deps, [name], out) => {
  if (!name) throw new UsageError("job run NAME");
  const run = await createJobRunner(deps, allJobs).runNow(name);
  out(`${run.name}: ${run.outcome}${run.summary ? ` (${run.summary})` : ""}${run.error ? `: ${run.error}` : ""}`);
  if (run.counts) out(JSON.stringify(run.counts));
  return run.outcome === "ok" ? 0 : 1;
};

/** The kv's tallies of bandwidth served go into the database first, where the backup takes them. */
const DRAIN_JOB = "attribute-image-bandwidth";

const commands: Record<string, Command> = {
  "user create": async (deps, args, out) => {
    const v = flags(args, { email: "string", password: "string", plan: "string", admin: "boolean", nickname: "string" }, ["email", "password"]);
    const user = await createUser(deps, {
      email: String(v.email),
      password: String(v.password),
      nickname: v.nickname as string | undefined,
      plan: v.plan === undefined ? undefined : plan(v.plan),
      isAdmin: v.admin === true ? true : undefined,
    });
    out(`created user ${user.id} ${user.email} plan=${user.plan}${user.isAdmin ? " admin" : ""}${user.firstAccount ? " (the instance's first account)" : ""}`);
    return 0;
  },
  "user set-plan": async (deps, args, out) => {
    const v = flags(args, { email: "string", plan: "string", expires: "string" }, ["email", "plan"]);
    const user = await userByEmail(deps, String(v.email));
    let planExpiresAt: Date | null | undefined;
    if (v.expires === "never") planExpiresAt = null;
    else if (v.expires !== undefined) {
      planExpiresAt = parsePlanExpiry(String(v.expires));
      if (!planExpiresAt) throw new UsageError(`--expires must be 'never' or ${PLAN_EXPIRY_RULE}`);
    }
    const updated = await updateUser(deps.db, user.id, { plan: plan(v.plan), planExpiresAt }, deps.clock.now());
    if (!updated) throw new UsageError(`no user with email ${String(v.email)}`);
    out(`${updated.email}: plan=${updated.plan} expires=${updated.planExpiresAt?.toISOString() ?? "never"}`);
    return 0;
  },
  "user set-admin": async (deps, args, out) => {
    const v = flags(args, { email: "string", off: "boolean" }, ["email"]);
    const user = await userByEmail(deps, String(v.email));
    const updated = await updateUser(deps.db, user.id, { isAdmin: v.off !== true }, deps.clock.now());
    if (!updated) throw new UsageError(`no user with email ${String(v.email)}`);
    out(`${updated.email}: ${updated.isAdmin ? "an administrator" : "not an administrator"}`);
    return 0;
  },
  "user delete": async (deps, args, out) => {
    const v = flags(args, { email: "string", yes: "boolean" }, ["email"]);
    // Permanent: asked for by name, so a command line recalled from history cannot do it by accident.
    if (v.yes !== true) throw new UsageError("user delete is permanent: add --yes");
    const user = await userByEmail(deps, String(v.email));
    const gone = await deleteAccount(deps, user.id);
    out(
      `${user.email}: deleted with its rows (${gone.apiKeys} API keys and ${gone.sessions} sessions revoked; ${gone.videos} videos, their cleanup queued); ` +
        `its stored objects go with the orphan sweep once ${deps.config.ORPHAN_SWEEP_AFTER_H} h old`,
    );
    return 0;
  },
  "apikey create": async (deps, args, out) => {
    const v = flags(args, { email: "string", name: "string", scopes: "string" }, ["email", "name"]);
    const user = await userByEmail(deps, String(v.email));
    const scopes =
      typeof v.scopes === "string"
        ? v.scopes
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined;
    const key = await createApiKey(deps, user.id, deps.plans[user.plan], { name: String(v.name), scopes });
    out(`key ${key.id} (${key.scopes.join(" ")}); store it now, it is not shown again:`);
    out(key.key);
    return 0;
  },
  jobs: listJobs,
  "jobs list": listJobs,
  "job run": runJob,
  "jobs run": runJob,
  "sync-v1 remind": async (deps, args, out) => {
    flags(args, {});
    const run = await remindV1Callers(deps, { force: true });
    out(`${run.reminded} accounts reminded (the outbox sends the e-mails; each account is reminded once)`);
    return 0;
  },
  "usage verify": async (deps, args, out) => {
    const v = flags(args, { fix: "boolean", email: "string" });
    const fix = v.fix === true;
    const only = v.email === undefined ? undefined : [(await userByEmail(deps, String(v.email))).id];
    const { users, differences } = await verifyUsage(deps.db, storedKinds, { fix, userIds: only });
    for (const d of differences) out(`${d.userId} ${d.dimension}: counter ${d.counter}, rows ${d.rows}${fix ? ` -> set to ${d.rows}` : ""}`);
    out(`${users} users, ${differences.length} counters ${fix ? "fixed" : "differ from their rows"}`);
    return differences.length && !fix ? 1 : 0;
  },
  backup: async (deps, args, out) => {
    const [dest, ...rest] = args;
    if (!dest || rest.length) throw new UsageError("backup DEST");
    await backupInstance(deps, dest, out, async () => {
      const drained = await createJobRunner(deps, allJobs).runNow(DRAIN_JOB);
      if (drained.outcome === "failed") out(`${DRAIN_JOB} failed (${drained.error}): the last hour's bandwidth tallies are not in this backup`);
    });
    return 0;
  },
};

/** The command the words name: two words ("job run"), or one ("jobs"). */
function commandOf(args: string[]): { name: string; words: number; run: Command } | undefined {
  for (const words of [2, 1]) {
    const name = args.slice(0, words).join(" ");
    if (args.length >= words && Object.hasOwn(commands, name)) return { name, words, run: commands[name]! };
  }
  return undefined;
}

/** Runs one admin command on given deps; returns the exit code. */
export async function runAdmin(deps: Deps, args: string[], out: Out, err: Out): Promise<number> {
  const command = commandOf(args);
  if (!command) {
    out(HELP);
    return args.length === 0 || args[0] === "--help" ? 0 : 2;
  }
  try {
    return await command.run(deps, args.slice(command.words), out);
  } catch (e) {
    if (e instanceof UsageError || e instanceof AppError || e instanceof BackupError) err(`shelf admin ${command.name}: ${e.message}`);
    else throw e;
    return 2;
  }
}

export async function adminCommand(argv: string[]): Promise<number> {
  const out: Out = (l) => process.stdout.write(`${l}\n`);
  const err: Out = (l) => process.stderr.write(`${l}\n`);
  // Before loadConfig, which would make DATA_DIR and a secret in it: where there is no
  // instance, nothing may be made.
  const dataDir = dataDirOf(process.env);
  if (argv[0] === "restore") return restoreCommand(dataDir, argv.slice(1), out, err);
  if (!commandOf(argv)) return runAdmin(undefined as never, argv, out, err);
  // A path is the caller's: the server runs in another working directory.
  const args = argv[0] === "backup" && argv[1] ? ["backup", resolve(argv[1]), ...argv.slice(2)] : argv;
  const { adminSocketPath, runOverSocket } = await import("./admin-socket.ts");
  const socket = adminSocketPath({ DATA_DIR: dataDir });
  const remote = await runOverSocket(socket, args);
  // Which instance, on stderr: stdout stays the command's own answer (a key, a list) for scripts.
  if (remote) {
    err(`shelf admin: ${remote.instance ?? `the instance in DATA_DIR=${dataDir}`}, through its running server (${socket})`);
    for (const line of remote.lines) (line.stream === "out" ? out : err)(line.text);
    return remote.code;
  }
  if (!process.env.DATABASE_URL && !embeddedDatabaseIn(dataDir)) {
    err(noInstance(dataDir));
    return 1;
  }
  const config = loadConfig();
  err(`shelf admin: ${describeInstance(config)}, opened directly (no server answers on ${socket})`);
  const deps = await createDeps(config);
  try {
    return await runAdmin(deps, args, out, err);
  } finally {
    await closeDeps(deps);
  }
}

/** `restore FROM`: no server and no deps, since it makes the instance they would open. */
async function restoreCommand(dataDir: string, args: string[], out: Out, err: Out): Promise<number> {
  if (args.length !== 1) {
    err("shelf admin restore FROM");
    return 2;
  }
  const { adminSocketPath, socketAnswers } = await import("./admin-socket.ts");
  if (await socketAnswers(adminSocketPath({ DATA_DIR: dataDir }))) {
    err(`shelf admin restore: a server runs on DATA_DIR=${dataDir}: a restore makes a new instance, in a folder no server uses`);
    return 2;
  }
  err(`shelf admin: restoring into DATA_DIR=${dataDir}`);
  try {
    await restoreInstance({ dataDir, databaseUrl: process.env.DATABASE_URL, s3Bucket: process.env.S3_BUCKET }, resolve(args[0]!), out);
    return 0;
  } catch (e) {
    if (!(e instanceof BackupError)) throw e;
    err(`shelf admin restore: ${e.message}`);
    return 2;
  }
}

function noInstance(dataDir: string): string {
  const self = selfCommand();
  const lines = [
    `shelf admin: no instance in DATA_DIR=${dataDir}: it holds no database and no server answers on its admin socket. Nothing was done.`,
    `  Start the server once to make the instance there (${self} serve), or set DATA_DIR to the folder of the instance`,
    "  to act on (or DATABASE_URL to its Postgres).",
  ];
  const here = dataFolderHere(dataDir);
  if (here) lines.push(`  ${here} holds an instance: DATA_DIR=${here} ${self} admin ... acts on it.`);
  return lines.join("\n");
}
