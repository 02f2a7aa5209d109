// An upload body gathered into one buffer as it arrives, under a deadline.
//
// Why one buffer: the image pipeline needs the file as one contiguous array. Gathering
// the multipart parser's chunks into one at the end is a single 50 MB copy on the event
// loop (~100 ms on a busy 2-core machine, longer with several uploads ending together),
// and /health waits behind it. Copying each chunk into place as it arrives spreads that
// cost thinly, and the parser, fed views of the buffer, hands back a file that is a view
// too: no copy at the end, and the body is held in memory once, not twice.
//
// Why a deadline: Bun's idle timeout restarts on every byte, so a client sending one byte
// a second would otherwise hold the upload (and its memory) for as long as it likes.

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
}

/** Reads `raw` into a buffer of `capacity` bytes (more is BodyOverflowError), failing after `deadlineMs`. */
export function bufferBody(raw: ReadableStream<Uint8Array>, capacity: number, deadlineMs: number): BufferedBody {
  const reader = raw.getReader();
  // Uninitialized: only the part written so far is ever exposed, and pages untouched by a
  // short body never become resident.
  const buffer = Buffer.allocUnsafeSlow(capacity);
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
          buffer.set(r.value, filled);
          c.enqueue(buffer.subarray(filled, filled + r.value.length));
          filled += r.value.length;
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

  return {
    stream,
    stop,
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
