// Structured one-line JSON logs on stdout (stderr for warn and error). The format is an
// operator's interface (docs/operators.md, "Logs"): `t`, `level`, `msg`, then the fields.
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

type Level = Exclude<LogLevel, "silent">;

export interface Log {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Log;
  /** False when lines of `level` are dropped, so a caller can skip building them (absent: written). */
  enabled?(level: Level): boolean;
}

/** Where finished lines go: one JSON line (with its newline) and its level. */
export type LogSink = (line: string, level: Level) => void;

const stdio: LogSink = (line, level) => {
  if (rank[level] >= rank.warn) process.stderr.write(line);
  else process.stdout.write(line);
};

function serializeError(e: unknown) {
  if (e instanceof Error) return { name: e.name, message: e.message, stack: e.stack };
  return e;
}

/** `sink`: where the lines go (stdout and stderr unless a test captures them). */
export function createLog(level: LogLevel, base: Record<string, unknown> = {}, sink: LogSink = stdio): Log {
  const min = rank[level];
  const write = (lvl: Level, msg: string, fields?: Record<string, unknown>) => {
    if (rank[lvl] < min) return;
    const rec: Record<string, unknown> = { t: new Date().toISOString(), level: lvl, msg, ...base };
    if (fields) for (const [k, v] of Object.entries(fields)) rec[k] = k === "err" ? serializeError(v) : v;
    sink(`${JSON.stringify(rec)}\n`, lvl);
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    child: (fields) => createLog(level, { ...base, ...fields }, sink),
    enabled: (lvl) => rank[lvl] >= min,
  };
}
