// The log's lines for stdout, gathered and written in batches (docs/operators.md, "Logs"):
// a line costs a string append, not a write of its own. What is gathered is written once
// it reaches FLUSH_BYTES (on the event loop's next turn) or FLUSH_MS after its first line,
// whichever comes first, never on the path of the request that wrote it; and at once when
// the process exits (process.exit included: a stopped node's last lines are all there). A
// node killed with SIGKILL loses at most the last FLUSH_MS of lines.
//
// A batch is one write(2) of the file descriptor, not process.stdout.write: Bun's stdout
// stream keeps what a pipe has not taken yet in memory and drops it when the process
// exits (measured on Bun 1.4.5: of 200,000 lines written to a slowly read pipe before
// process.exit, 84,202 arrived). A journal that stops reading holds the node up, as it
// holds nginx's log writes up, rather than the node's memory growing or lines being lost.
import { writeSync } from "node:fs";

const FLUSH_BYTES = 64 * 1024;
const FLUSH_MS = 100;

export interface LineBuffer {
  /** One finished line (with its newline). */
  write(line: string): void;
  /** Writes what is gathered now. */
  flush(): void;
}

/** Lines gathered for `out`, which is handed a batch at a time. */
export function lineBuffer(out: (text: string) => void, bytes = FLUSH_BYTES, ms = FLUSH_MS): LineBuffer {
  let pending = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  let soon = false;
  const flush = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    soon = false;
    if (pending === "") return;
    const text = pending;
    pending = "";
    out(text);
  };
  return {
    write(line) {
      pending += line;
      if (pending.length >= bytes) {
        if (!soon) {
          soon = true;
          setImmediate(flush);
        }
      } else if (timer === undefined) {
        timer = setTimeout(flush, ms);
        // A timer that keeps no process alive: the exit hook writes what is left.
        timer.unref();
      }
    },
    flush,
  };
}

/**
 * All of `text` to file descriptor `fd`, waiting on a full pipe (EAGAIN) rather than
 * dropping any. A descriptor that cannot be written at all (its reader gone: EPIPE) loses
 * the text, as a stream's write would, and never stops the node.
 */
export function writeAll(fd: number, text: string): void {
  let bytes = Buffer.from(text);
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (e) {
      if ((e as { code?: string }).code !== "EAGAIN") return;
      Bun.sleepSync(1);
    }
  }
}

/** The process's stdout, batched, flushed when the process exits. */
export function stdoutBuffer(): LineBuffer {
  const buffer = lineBuffer((text) => writeAll(1, text));
  process.on("exit", () => {
    buffer.flush();
  });
  return buffer;
}
