// KB fixtures: KBs made through the API, sync pushes, manifests and their hashes.
import { newId } from "../../src/infra/ids.ts";
import { callJson, type CallOptions } from "../helpers/context.ts";

export const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");

/** Creates a KB through the API; fails the test unless it was created. */
export async function newKb(token: string, json: Record<string, unknown> = {}) {
  const res = await callJson("POST", "/v1/kbs", {
    token,
    json: {
      name: `KB ${newId()
        .toLowerCase()
        .replace(/[^a-z0-9]/g, "x")}`,
      ...json,
    },
  });
  if (res.status !== 201) throw new Error(`POST /v1/kbs answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; slug: string; name: string; docCount: number; sizeBytes: number; updatedAt: string; isDefault: boolean };
}

export const upsert = (relativePath: string, content: string, baseUpdatedAt?: string | null, sourceHash: string | undefined = sha256(content)) => ({
  op: "upsert",
  relativePath,
  content,
  sourceHash,
  ...(baseUpdatedAt !== undefined && { baseUpdatedAt }),
});

export const del = (relativePath: string, baseUpdatedAt?: string | null) => ({
  op: "delete",
  relativePath,
  ...(baseUpdatedAt !== undefined && { baseUpdatedAt }),
});

export async function sync(token: string, kbId: string, ops: unknown[], opts: CallOptions = {}) {
  return await callJson("POST", `/v1/kbs/${kbId}/sync`, { token, json: { ops }, ...opts });
}

/** A push that must answer 200; its data. */
export async function pushed(token: string, kbId: string, ops: unknown[]) {
  const res = await sync(token, kbId, ops);
  if (res.status !== 200) throw new Error(`sync answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as {
    applied: { opIndex: number; op: string; relativePath: string; id: string; updatedAt: string; sourceHash: string | null }[];
    conflicts: { opIndex: number; op: string; relativePath: string; reason: string; remote: Record<string, unknown> }[];
    skipped: { opIndex: number; op: string; relativePath: string; reason: string; message: string; meta?: Record<string, unknown> }[];
    serverTime: string;
  };
}

export async function manifest(token: string, kbId: string, query = "") {
  return await callJson("GET", `/v1/kbs/${kbId}/manifest${query ? `?${query}` : ""}`, { token });
}

/** Every entry of a manifest, page after page; and the last page's serverTime. */
export async function fullManifest(token: string, kbId: string, params: Record<string, string> = {}) {
  const items: { relativePath: string; sourceHash: string | null; sizeBytes: number | null; updatedAt: string | null; deletedAt: string | null }[] = [];
  let cursor: string | null = null;
  let serverTime = "";
  do {
    const q = new URLSearchParams({ ...params, ...(cursor && { cursor }) });
    const res = await manifest(token, kbId, q.toString());
    if (res.status !== 200) throw new Error(`manifest answered ${res.status}: ${JSON.stringify(res.body)}`);
    items.push(...res.body.data.items);
    cursor = res.body.data.nextCursor;
    serverTime = res.body.data.serverTime;
  } while (cursor);
  return { items, serverTime };
}
