// Share-link fixtures: items of each kind made through the API (or stored, for a video),
// and links made through POST /v1/shares.
import { png, uploaded } from "../images/fixtures.ts";
import { callJson } from "../helpers/context.ts";

export const CENTER = "http://shelf.test";

export async function privateImage(token: string) {
  return uploaded(token, await png(40, 30), { filename: "secret.png", is_public: "false" });
}

export async function markdownDoc(token: string, content: string, extra: Record<string, unknown> = {}) {
  const res = await callJson("POST", "/v1/docs", { token, json: { filename: "note.md", content, ...extra } });
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST /v1/docs answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string };
}

/** A link made through the API; fails the test unless it was made. */
export async function shared(token: string, json: Record<string, unknown>) {
  const res = await callJson("POST", "/v1/shares", { token, json });
  if (res.status !== 201) throw new Error(`POST /v1/shares answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; url: string; viewCount: number; hasPassword: boolean; active: boolean };
}

/** The path of a link's page, from its URL. */
export const pathOf = (url: string) => new URL(url).pathname;
