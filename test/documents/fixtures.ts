// Document fixtures: uploads through the API, and a KB made through the KB module's
// public surface (its routes come with the KB feature).
import { createKb } from "../../src/modules/library/public.ts";
import { newId } from "../../src/infra/ids.ts";
import { callJson, testContext } from "../helpers/context.ts";
import type { TestUser } from "../helpers/factories.ts";

export async function postDoc(token: string, json: Record<string, unknown>) {
  return await callJson("POST", "/v1/docs", { token, json });
}

/** Uploads a document and returns its upload result; fails the test unless it was created. */
export async function uploadedDoc(token: string, json: Record<string, unknown> = {}) {
  const res = await postDoc(token, { filename: "note.md", content: `# Note ${newId()}\n\nSome text.\n`, ...json });
  if (res.status !== 201) throw new Error(`POST /v1/docs answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function makeKb(owner: TestUser): Promise<string> {
  const { deps } = await testContext();
  const slug = `kb-${newId()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "a")}`;
  return (await createKb(deps, { ownerId: owner.id, name: slug, slug })).id;
}

export async function usageOf(token: string) {
  return (await callJson("GET", "/v1/user/me/usage", { token })).body.data;
}

export const dataUri = (type: string, bytes: Uint8Array) => `data:${type};base64,${Buffer.from(bytes).toString("base64")}`;
