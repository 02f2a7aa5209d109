// Account import fixtures: a second instance (its own database and store on embedded
// parts, another MEDIA_URL), imports posted and run to their end by a worker driven step
// by step, and zips written byte by byte for the hostile cases.
import { loadConfig } from "../../src/config.ts";
import { createMigrationWorker } from "../../src/modules/migration/worker.ts";
import { createUser, hashPassword, login, type PlanName } from "../../src/modules/identity/public.ts";
import { newId } from "../../src/infra/ids.ts";
import { createApp } from "../../src/wiring/app.ts";
import { closeDeps, createDeps, type Deps } from "../../src/wiring/deps.ts";
import { createServices, type Services } from "../../src/wiring/services.ts";
import { type CallOptions, callJson, testContext, testEnv } from "../helpers/context.ts";
import { PASSWORD } from "../helpers/factories.ts";

export const ELSEWHERE_MEDIA = "http://media.elsewhere.test";

export interface Instance {
  deps: Deps;
  services: Services;
  app: ReturnType<typeof createApp>;
  /** A user of this instance and a session token that holds every scope. */
  user(plan?: PlanName): Promise<{ id: string; token: string }>;
  worker(): ReturnType<typeof createMigrationWorker>;
  close(): Promise<void>;
}

/**
 * Another instance: on embedded parts its own database, store and kv (a fresh instance);
 * on real parts the same servers (so ids the first instance holds are taken here too).
 */
export async function otherInstance(): Promise<Instance> {
  const config = loadConfig(testEnv({ PUBLIC_URL: "http://elsewhere.test", MEDIA_URL: ELSEWHERE_MEDIA }));
  // The suite's clock, which a test may have moved: the archive's times, made by it, are
  // not in this instance's future (an import keeps no creation time from the future).
  const deps = { ...(await createDeps(config)), clock: (await testContext()).deps.clock };
  const services = createServices(deps);
  const app = createApp(services);
  return {
    deps,
    services,
    app,
    async user(plan = "pro") {
      const user = await createUser(deps, { email: `u-${newId().toLowerCase()}@example.test`, passwordHash: await hashPassword(deps.config, PASSWORD), plan });
      const grant = await login(deps, services.identity.signer, user);
      return { id: user.id, token: grant.accessToken };
    },
    worker: () => createMigrationWorker({ ...deps, compliance: services.compliance, svgSanitizer: services.svgSanitizer }, { heartbeatMs: 60_000 }),
    async close() {
      await services.close();
      await closeDeps(deps);
    },
  };
}

/** POST /v1/migration with the archive as the form's `file`. */
export function postArchive(token: string, zip: Uint8Array, opts: CallOptions = {}) {
  const form = new FormData();
  form.append("file", new Blob([zip as Uint8Array<ArrayBuffer>], { type: "application/zip" }), "export.zip");
  return callJson("POST", "/v1/migration", { token, body: form, ...opts });
}

const ENDED = new Set(["completed", "failed"]);

/** Steps `worker` until import `id` has ended (other imports may be due first); its view. */
export async function runMigration(worker: { step(): Promise<boolean> }, token: string, id: string, opts: CallOptions = {}, steps = 50) {
  for (let i = 0; i < steps; i++) {
    const m = (await callJson("GET", `/v1/migration/${id}`, { token, ...opts })).body.data;
    if (ENDED.has(m.status)) return m;
    if (!(await worker.step())) throw new Error(`no import was due, and ${id} is ${m.status}`);
  }
  throw new Error(`import ${id} did not end in ${steps} steps`);
}

/** A zip member as a hostile archive may hold it: any name, a Unix mode, deflated, sizes that lie. */
export interface RawMember {
  name: string;
  bytes: Uint8Array;
  /** Unix mode in the external attributes (0o100644 when absent; 0o120777 a symlink). */
  mode?: number;
  deflate?: boolean;
  /** The uncompressed size the headers claim, when it is not the truth. */
  claimedSize?: number;
}

/** A zip written field by field (no data descriptors), for archives the export never writes. */
export function rawZip(members: RawMember[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  const enc = new TextEncoder();
  for (const m of members) {
    const name = enc.encode(m.name);
    const data = m.deflate ? Bun.deflateSync(m.bytes as Uint8Array<ArrayBuffer>) : m.bytes;
    const crc = Bun.hash.crc32(m.bytes);
    const size = m.claimedSize ?? m.bytes.length;
    const local = Buffer.alloc(30 + name.length);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(m.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.set(name, 30);
    const cd = Buffer.alloc(46 + name.length);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE((3 << 8) | 20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(0x0800, 8);
    cd.writeUInt16LE(m.deflate ? 8 : 0, 10);
    cd.writeUInt32LE(crc >>> 0, 16);
    cd.writeUInt32LE(data.length, 20);
    cd.writeUInt32LE(size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(((m.mode ?? 0o100644) << 16) >>> 0, 38);
    cd.writeUInt32LE(offset, 42);
    cd.set(name, 46);
    parts.push(local, data);
    central.push(cd);
    offset += local.length + data.length;
  }
  const cdSize = central.reduce((n, c) => n + c.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, ...central, end]));
}

export const sha256 = (b: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

/** A manifest as the export writes it, naming `items` (each with its member's bytes). */
export function manifestOf(items: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  return {
    format: "shelf-export",
    version: 1,
    exportId: newId(),
    account: { id: newId(), email: null, nickname: null },
    requestedAt: new Date().toISOString(),
    exportedAt: new Date().toISOString(),
    instance: { publicUrl: "http://old.test", mediaUrl: "http://media.old.test" },
    selection: { kinds: ["documents"], kbIds: null },
    counts: { items: items.length, kbs: 0, revisions: 0 },
    kbs: [],
    items,
    ...extra,
  };
}

/** A document item of a manifest for `member` holding `text`. */
export function docItem(member: string, text: string, over: Record<string, unknown> = {}) {
  const bytes = new TextEncoder().encode(text);
  return {
    id: newId(),
    kind: "document",
    member,
    name: "Note",
    contentType: "text/markdown; charset=utf-8",
    size: bytes.length,
    sha256: sha256(bytes),
    tags: [],
    isPublic: false,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    url: null,
    fields: { format: "markdown", title: "Note", filename: "note.md" },
    revisions: [],
    ...over,
  };
}

export const jsonBytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
