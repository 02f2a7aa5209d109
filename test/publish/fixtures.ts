// Published-site fixtures: a site made through POST /v1/published-pages.
import { callJson } from "../helpers/context.ts";

export interface Published {
  id: string;
  kbId: string;
  path: string;
  slug: string;
  url: string;
  createdAt: string;
}

/** A site published through the API; fails the test unless it was made. */
export async function published(token: string, json: Record<string, unknown>): Promise<Published> {
  const res = await callJson("POST", "/v1/published-pages", { token, json });
  if (res.status !== 201) throw new Error(`POST /v1/published-pages answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as Published;
}

/** The path (and query) of a site's URL. */
export const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
