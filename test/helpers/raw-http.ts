// A client that sends a chunked body the way a hostile one does: it goes on sending after
// the answer has come, until it has sent what it meant to or the server closes the
// connection. fetch cannot do this (it stops at the answer, and sends no GET body).
import { connect } from "node:net";

export interface Offered {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes of body the client got onto the connection before it ended. */
  sent: number;
  /** The server closed the connection before the client had sent everything. */
  cutOff: boolean;
}

const CHUNK = 64 * 1024;
const ZERO_CHUNK = new Uint8Array(CHUNK);

/** One chunk of `payload` as chunked transfer coding frames it. */
const frame = (payload: Uint8Array) => Buffer.concat([Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from("\r\n")]);

/**
 * Sends `method path` to `base` with a chunked body of `prefix` and then zeros, `bytes` in
 * all, and the answer once the server has given it (and closed, or the body has ended).
 */
export async function offerBody(
  base: string,
  method: string,
  path: string,
  bytes: number,
  headers: Record<string, string> = {},
  prefix: Uint8Array = new Uint8Array(0),
): Promise<Offered> {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  socket.setNoDelay(true);
  let received = Buffer.alloc(0);
  let closed = false;
  let answered: (() => void) | undefined;
  const whole = new Promise<void>((resolve) => (answered = resolve));
  const complete = () => {
    const end = received.indexOf("\r\n\r\n");
    if (end < 0) return false;
    if (method === "HEAD") return true;
    const head = received.subarray(0, end).toString();
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
    if (length !== undefined) return received.length >= end + 4 + Number(length);
    return /\r\ntransfer-encoding: *chunked/i.test(head) && received.subarray(-5).toString() === "0\r\n\r\n";
  };
  socket.on("data", (d: Buffer) => {
    received = Buffer.concat([received, d]);
    if (complete()) answered?.();
  });
  socket.on("close", () => {
    closed = true;
    answered?.();
  });
  socket.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  const head = Object.entries({ host: url.host, "transfer-encoding": "chunked", ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n`);
  let sent = 0;
  const write = (data: Uint8Array) =>
    socket.write(data)
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          socket.once("drain", () => resolve());
          socket.once("close", () => resolve());
        });
  if (prefix.length) {
    await write(frame(prefix));
    sent += prefix.length;
  }
  const chunk = frame(ZERO_CHUNK);
  while (sent < bytes && !closed) {
    await write(chunk);
    sent += CHUNK;
  }
  const cutOff = closed;
  if (!closed) socket.write("0\r\n\r\n");
  await whole;
  socket.destroy();
  return { ...parse(received), sent, cutOff };
}

function parse(raw: Buffer): Pick<Offered, "status" | "headers" | "body"> {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return { status: 0, headers: {}, body: raw.toString() };
  const [statusLine, ...lines] = raw.subarray(0, end).toString().split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(":");
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, body: raw.subarray(end + 4).toString() };
}

/** The resident memory of a process, in bytes (Linux). */
export async function rssOf(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
}

/**
 * A body of `bytes` zeros (endless for Infinity) that a well-behaved client streams in
 * chunks of `chunkBytes`, stopping when the answer comes; `offered()` is how much the
 * server pulled.
 */
export function zeros(bytes: number, chunkBytes = CHUNK) {
  let offered = 0;
  const chunk = new Uint8Array(chunkBytes);
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (offered >= bytes) return c.close();
      c.enqueue(chunk);
      offered += chunk.length;
    },
  });
  return { stream, offered: () => offered };
}
