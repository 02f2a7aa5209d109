// KB files for tests: bytes PUT by their hash, sync v2 ops of kind file, and what the store holds.
import { call, type CallOptions, callJson, testContext } from "../helpers/context.ts";
import { sha256 } from "./fixtures.ts";

/** The smallest PNG there is: a 1x1 image. */
export const PNG = Uint8Array.from(
  Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex"),
);

export const hashOf = (bytes: Uint8Array | string) => sha256(bytes as string);

/** PUT bytes under their hash (or `as`), with a Content-Length. */
export async function putFile(token: string, kbId: string, bytes: Uint8Array, opts: CallOptions & { as?: string; name?: string } = {}) {
  const { as, name, ...rest } = opts;
  const q = name === undefined ? "" : `?name=${encodeURIComponent(name)}`;
  return callJson("PUT", `/v1/kbs/${kbId}/files/${as ?? hashOf(bytes)}${q}`, {
    token,
    body: bytes as Uint8Array<ArrayBuffer>,
    ...rest,
    headers: { "content-length": String(bytes.length), ...rest.headers },
  });
}

/** A PUT that must store new bytes (201); their hash. */
export async function storedFile(token: string, kbId: string, bytes: Uint8Array, name?: string): Promise<string> {
  const res = await putFile(token, kbId, bytes, { name });
  if (res.status !== 201) throw new Error(`PUT answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.sha256;
}

type Base = { baseUpdatedAt?: string; baseHash?: string; overwrite?: true };

export const upsertFile = (relativePath: string, bytes: Uint8Array, base: Base = {}) => ({
  op: "upsert",
  kind: "file",
  relativePath,
  sourceHash: hashOf(bytes),
  ...base,
});
export const updateFile = (docId: string, bytes: Uint8Array, base: Base = {}) => ({ op: "update", kind: "file", docId, sourceHash: hashOf(bytes), ...base });

/** The keys the store holds under the owner's KB files. */
export async function fileObjects(userId: string): Promise<string[]> {
  const { deps } = await testContext();
  const keys: string[] = [];
  for await (const o of deps.storage.list(`kb-files/${userId}/`)) keys.push(o.key);
  return keys.sort();
}

/** The owner's img_storage as the usage resource reports it. */
export async function imageStorage(token: string): Promise<number> {
  const res = await callJson("GET", "/v1/user/me/usage", { token });
  if (res.status !== 200) throw new Error(`usage answered ${res.status}`);
  return res.body.data.image.storage.used;
}

export const rawFile = (token: string, kbId: string, path: string, headers: Record<string, string> = {}) =>
  call("GET", `/v1/kbs/${kbId}/raw?path=${encodeURIComponent(path)}`, { token, headers });
