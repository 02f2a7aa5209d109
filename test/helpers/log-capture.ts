// A log whose lines a test reads: every JSON line the code writes, parsed, in order, and a
// wait for the one a test expects (lines such as the access line are written after the
// answer is made, so a test awaits them instead of looking at once).
import { createLog, type Log, type LogLevel } from "../../src/infra/log.ts";

export interface LogLine {
  t: string;
  level: "debug" | "info" | "warn" | "error";
  msg: string;
  [field: string]: unknown;
}

export interface CapturedLog {
  log: Log;
  readonly lines: LogLine[];
  /** Each line as written (the exact text, to search for what must never be in it). */
  readonly raw: string[];
  /** Resolves with the first line (already written or still to come) that `match` accepts. */
  next(match: (line: LogLine) => boolean): Promise<LogLine>;
}

export function captureLog(level: LogLevel = "debug"): CapturedLog {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const waiting: { match: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
  const log = createLog(level, {}, (text) => {
    const line = JSON.parse(text) as LogLine;
    raw.push(text);
    lines.push(line);
    for (const w of waiting.splice(0)) {
      if (w.match(line)) w.resolve(line);
      else waiting.push(w);
    }
  });
  return {
    log,
    lines,
    raw,
    next(match) {
      const found = lines.find(match);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiting.push({ match, resolve }));
    },
  };
}
