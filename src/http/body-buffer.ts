// An upload body gathered into one buffer as it arrives, under a deadline.
//
// Why one buffer: the image pipeline needs the file as one contiguous array. Gathering
// the multipart parser's chunks into one at the end is a single 50 MB copy on the event
// loop (~100 ms on a busy 2-core machine, longer with several uploads ending together),
// and /health waits behind it. Copying each chunk into place as it arrives spreads that
// cost thinly, and the parser, fed views of the buffer, hands back a file that is a view
// too: no copy at the end, and the body is held in memory once, not twice.
//
// The buffer comes from a pool (src/infra/buffer-pool.ts): memory already mapped copies at
// memcpy speed, where fresh pages cost a page fault each.
//
// Why a deadline: Bun's idle timeout restarts on every byte, so a client sending one byte
// a second would otherwise hold the upload (and its memory) for as long as it likes.

import type { BufferPool } from "../infra/buffer-pool.ts";

/** The most copied (and handed to the parser) in one step of the event loop. */
const SLICE = 1024 * 1024;
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

export class BodyDeadlineError extends Error {
  override name = "BodyDeadlineError";
}

export class BodyOverflowError extends Error {
  override name = "BodyOverflowError";
}

export interface BufferedBody {
  /** The body as views of `buffer`, each chunk copied into place before it is passed on. */
  stream: ReadableStream<Uint8Array>;
  /** The part of `bytes` a chunk list covers when it is one contiguous run of it, else null. */
  viewOf(chunks: readonly Uint8Array[], size: number): Uint8Array | null;
  /** Ends the deadline and cancels whatever the client is still sending. */
  stop(): void;
  /** Gives the buffer back to the pool: call once nothing reads the body's bytes any more. */
  release(): void;
}

/**
 * Reads `raw` into a buffer of `capacity` bytes taken from `pool` (more is
 * BodyOverflowError), failing after `deadlineMs`.
 */
export function bufferBody(raw: ReadableStream<Uint8Array>, capacity: number, deadlineMs: number, pool: BufferPool): BufferedBody {
  const reader = raw.getReader();
  // Uninitialized or used before: only the part written by this body is ever exposed.
  const whole = pool.take(capacity);
  const buffer = whole.subarray(0, capacity);
  let filled = 0;
  let timer: Timer | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyDeadlineError()), deadlineMs);
  });
  expired.catch(() => {});
  const stop = () => {
    clearTimeout(timer);
    reader.cancel().catch(() => {});
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        try {
          const r = await Promise.race([reader.read(), expired]);
          if (r.done) {
            clearTimeout(timer);
            c.close();
            return;
          }
          if (filled + r.value.length > capacity) throw new BodyOverflowError(`the body is larger than ${capacity} bytes`);
          // A client faster than the parser gets its bytes handed over in one chunk of many
          // MB; copying that into fresh pages at once holds the event loop for ~100 ms.
          // Slices, with a turn of the loop between them, keep every step short.
          for (let at = 0; at < r.value.length; at += SLICE) {
            if (at > 0) await nextTurn();
            const slice = r.value.subarray(at, at + SLICE);
            buffer.set(slice, filled);
            c.enqueue(buffer.subarray(filled, filled + slice.length));
            filled += slice.length;
          }
        } catch (e) {
          stop();
          c.error(e);
        }
      },
      cancel: stop,
    },
    // Pulled only when the parser asks: nothing is read ahead past a size limit.
    { highWaterMark: 0 },
  );

  let released = false;
  return {
    stream,
    stop,
    release() {
      if (released) return;
      released = true;
      stop();
      pool.give(whole);
    },
    viewOf(chunks, size) {
      if (!chunks.length) return new Uint8Array(0);
      const start = chunks[0]!.byteOffset - buffer.byteOffset;
      let at = start;
      for (const ch of chunks) {
        if (ch.buffer !== buffer.buffer || ch.byteOffset - buffer.byteOffset !== at) return null;
        at += ch.length;
      }
      return at - start === size ? buffer.subarray(start, at) : null;
    },
  };
}
