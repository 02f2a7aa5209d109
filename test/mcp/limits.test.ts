// The agent's calls are the user's: each tool's API calls count against the user's
// per-minute rate tiers, as the same calls made directly would, and past a tier the tool
// answers a tool error saying so.
import { expect, setDefaultTimeout, test } from "bun:test";
import { oauthApp } from "../oauth/flow.ts";
import { ALL_SCOPES, connect, deviceTokens } from "./helpers.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const o = await oauthApp((deps) => ({ config: { ...deps.config, rateLimits: { ...deps.config.rateLimits, read: 3 } } }));

test("tool calls spend the user's read tier; past it the tool says RATE_LIMITED, and the API refuses the user too", async () => {
  const user = await o.makeUser();
  const client = await connect(o, (await deviceTokens(o, user, { scope: ALL_SCOPES })).access_token);
  for (let i = 0; i < 3; i++) {
    const ok = await client.callTool({ name: "list_knowledge_bases", arguments: {} });
    expect(ok.isError).toBeFalsy();
  }
  const limited = (await client.callTool({ name: "list_knowledge_bases", arguments: {} })) as { isError?: boolean; content: { text: string }[] };
  expect(limited.isError).toBe(true);
  expect(limited.content[0]!.text).toContain("RATE_LIMITED");
  const direct = await o.api("GET", "/v1/kbs", user.jwt);
  expect(direct.status).toBe(429);
  await client.close();
});
