// Structured one-line JSON logs on stdout (stderr for warn and error). The format is an
// operator's interface (docs/operators.md, "Logs"): `t`, `level`, `msg`, then the fields.
// Lines for stdout are gathered and written in batches (log-buffer.ts); a line for stderr
// first writes what stdout holds, so a journal that merges the two keeps their order, and
// is itself written at once.
import { type LineBuffer, stdoutBuffer, writeAll } from "./log-buffer.ts";

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
  /**
   * A line whose fields the caller wrote as JSON text already (`"a":1,"b":"x"`, no braces),
   * placed after `t`, `level`, `msg` and the log's own fields: for a line written on every
   * request (the access line), with no object built and serialized for it. Absent: the
   * caller passes the fields to `debug` or `info`.
   */
  line?(level: Level, msg: string, json: string): void;
}

/** Where finished lines go: one JSON line (with its newline) and its level. */
export type LogSink = (line: string, level: Level) => void;

let stdout: LineBuffer | undefined;
const stdio: LogSink = (line, level) => {
  stdout ??= stdoutBuffer();
  if (rank[level] >= rank.warn) {
    stdout.flush();
    writeAll(2, line);
  } else stdout.write(line);
};

function serializeError(e: unknown) {
  if (e instanceof Error) return { name: e.name, message: e.message, stack: e.stack };
  return e;
}

// `t` of the lines: the ISO text of the current second is made once a second, its
// milliseconds added to it (not a Date and its text per line).
let second = -1;
let secondText = "";
function now(): string {
  const ms = Date.now();
  const s = Math.floor(ms / 1000);
  if (s !== second) {
    second = s;
    secondText = new Date(s * 1000).toISOString().slice(0, 20);
  }
  const frac = ms - s * 1000;
  return `${secondText}${frac < 10 ? "00" : frac < 100 ? "0" : ""}${frac}Z`;
}

/** `sink`: where the lines go (stdout and stderr unless a test captures them). */
export function createLog(level: LogLevel, base: Record<string, unknown> = {}, sink: LogSink = stdio): Log {
  const min = rank[level];
  // The log's own fields as JSON text, once: `,"component":"jobs"`, or nothing.
  const baseJson = Object.keys(base).length ? `,${JSON.stringify(base).slice(1, -1)}` : "";
  const write = (lvl: Level, msg: string, fields?: Record<string, unknown>) => {
    if (rank[lvl] < min) return;
    const rec: Record<string, unknown> = { t: now(), level: lvl, msg, ...base };
    if (fields) for (const [k, v] of Object.entries(fields)) rec[k] = k === "err" ? serializeError(v) : v;
    sink(`${JSON.stringify(rec)}\n`, lvl);
  };
  let lastMsg = "";
  let lastMsgJson = '""';
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    child: (fields) => createLog(level, { ...base, ...fields }, sink),
    enabled: (lvl) => rank[lvl] >= min,
    line(lvl, msg, json) {
      if (rank[lvl] < min) return;
      if (msg !== lastMsg) {
        lastMsg = msg;
        lastMsgJson = JSON.stringify(msg);
      }
      sink(`{"t":"${now()}","level":"${lvl}","msg":${lastMsgJson}${baseJson}${json ? `,${json}` : ""}}\n`, lvl);
    },
  };
}
