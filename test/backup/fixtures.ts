// Account export fixtures: a worker driven step by step, exports run to their end, and the
// archive read back with a zip reader (yauzl, strict about the format and every CRC).
import yauzl from "yauzl";
import type { Deps } from "../../src/wiring/deps.ts";
import { createExportWorker, type ExportWorkerOptions } from "../../src/modules/backup/worker.ts";
import { call, type CallOptions, callJson, testContext } from "../helpers/context.ts";

export async function exportWorker(opts: ExportWorkerOptions & { deps?: Deps } = {}) {
  const { deps } = await testContext();
  return createExportWorker(opts.deps ?? deps, { heartbeatMs: 60_000, ...opts });
}

export const startExport = (token: string, json: Record<string, unknown> = {}, opts: CallOptions = {}) =>
  callJson("POST", "/v1/backup", { token, json, ...opts });

export const exportOf = async (token: string, id: string, opts: CallOptions = {}) => (await callJson("GET", `/v1/backup/${id}`, { token, ...opts })).body.data;

const ENDED = new Set(["ready", "failed", "expired"]);

/**
 * Runs the worker until export `id` has ended; other tests' exports may be claimed before
 * it (the queue is shared), so it steps until this one is done, and fails past `steps`.
 */
export async function runExport(worker: { step(): Promise<boolean> }, token: string, id: string, steps = 50) {
  for (let i = 0; i < steps; i++) {
    const e = await exportOf(token, id);
    if (ENDED.has(e.state)) return e;
    if (!(await worker.step())) throw new Error(`no export was due, and ${id} is ${e.state}`);
  }
  throw new Error(`export ${id} did not end in ${steps} steps`);
}

/** The archive by its downloadUrl (through the app). */
export async function download(url: string, headers: Record<string, string> = {}) {
  const u = new URL(url);
  return call("GET", `${u.pathname}${u.search}`, { headers });
}

export interface ZipMember {
  name: string;
  bytes: Uint8Array;
}

/** Every member of a zip, in the order of its central directory, read and checked by yauzl. */
export function readZip(zip: Uint8Array): Promise<ZipMember[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(zip), { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (err, file) => {
      if (err || !file) return reject(err);
      const out: ZipMember[] = [];
      file.on("error", reject);
      file.on("end", () => resolve(out));
      file.on("entry", (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("error", reject);
          stream.on("end", () => {
            out.push({ name: entry.fileName, bytes: new Uint8Array(Buffer.concat(chunks)) });
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}

export const sha256 = (b: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(b).digest("hex");
