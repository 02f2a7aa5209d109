// The edge promises a length before it has the bytes (Content-Length, Content-Range) and
// meters that length. A store that ignores a range, or an object that changed under its
// record, could deliver more or fewer bytes than promised: more is cut, fewer ends the
// response with an error (the connection drops, so the client sees a failed transfer,
// never a short 206 it would take for whole).

class ShortBodyError extends Error {
  override name = "ShortBodyError";
}

export interface LengthMismatch {
  expected: number;
  /** Bytes the source had when it ended, or at least this many when it sent too much. */
  got: number;
}

/** `source` as a stream of exactly `length` bytes; `onMismatch` hears of any difference. */
export function exactLength(source: ReadableStream<Uint8Array>, length: number, onMismatch: (m: LengthMismatch) => void): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        let r: Awaited<ReturnType<typeof reader.read>>;
        try {
          r = await reader.read();
        } catch (e) {
          c.error(e);
          return;
        }
        if (r.done) {
          if (sent < length) {
            onMismatch({ expected: length, got: sent });
            c.error(new ShortBodyError(`the store delivered ${sent} of ${length} bytes`));
          } else c.close();
          return;
        }
        const room = length - sent;
        if (r.value.length < room) {
          sent += r.value.length;
          c.enqueue(r.value);
          return;
        }
        if (room > 0) c.enqueue(r.value.subarray(0, room));
        sent = length;
        if (r.value.length > room) onMismatch({ expected: length, got: length + (r.value.length - room) });
        c.close();
        reader.cancel().catch(() => {});
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
