// Reusable large buffers for upload bodies. On a virtual machine the first touch of a
// fresh page is slow (a 50 MB body copied into new memory costs the event loop ~0.5 s
// here, in page faults), while copying into memory already mapped is a plain memcpy. The
// upload-memory budget already reserves up to this many bytes for bodies, so the pool
// keeps at most that much, and gives it all back to the system after a quiet minute.

const STEP = 1024 * 1024;
const IDLE_MS = 60_000;

export interface BufferPool {
  /** A buffer of at least `size` bytes (its first `size` are the caller's); give it back with give(). */
  take(size: number): Buffer;
  /** Returns a buffer from take(); the caller must hold no view of it afterwards that it still reads. */
  give(buffer: Buffer): void;
  /** Bytes kept for reuse (not handed out). */
  kept(): number;
}

export function createBufferPool(maxBytes: number): BufferPool {
  let free: Buffer[] = [];
  let keptBytes = 0;
  let idle: Timer | undefined;

  const trimLater = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      free = [];
      keptBytes = 0;
    }, IDLE_MS);
    idle.unref();
  };

  return {
    take(size) {
      trimLater();
      // The smallest kept buffer that fits: a photo does not pin a 50 MB buffer.
      let best = -1;
      for (let i = 0; i < free.length; i++) if (free[i]!.length >= size && (best < 0 || free[i]!.length < free[best]!.length)) best = i;
      if (best >= 0) {
        const [buffer] = free.splice(best, 1);
        keptBytes -= buffer!.length;
        return buffer!;
      }
      return Buffer.allocUnsafeSlow(Math.max(STEP, Math.ceil(size / STEP) * STEP));
    },
    give(buffer) {
      if (buffer.length > maxBytes) return;
      free.push(buffer);
      keptBytes += buffer.length;
      // Over the limit: the largest go first, they are the fewest reused.
      free.sort((a, b) => a.length - b.length);
      while (keptBytes > maxBytes) keptBytes -= free.pop()!.length;
    },
    kept: () => keptBytes,
  };
}
