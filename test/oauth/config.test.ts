import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { type ConfigError, loadConfig } from "../../src/config.ts";
import { tempDir } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const load = (value?: string) => loadConfig({ DATA_DIR: tempDir("shelf-config-"), ...(value === undefined ? {} : { OAUTH_FIRST_PARTY_CLIENTS: value }) });
const problems = (value: string) => {
  try {
    load(value);
  } catch (e) {
    return (e as ConfigError).problems;
  }
  throw new Error("expected a ConfigError");
};

describe("OAUTH_FIRST_PARTY_CLIENTS", () => {
  test("by default: shelf-sync, shelf-media and shelf-agent with their documented scopes, returning to a loopback listener", () => {
    expect(load().oauthClients).toEqual([
      {
        id: "shelf-sync",
        name: "Shelf Sync",
        scopes: ["media.read", "media.write", "kb.read", "kb.write"],
        redirectUris: ["http://127.0.0.1/oauth/callback", "http://[::1]/oauth/callback"],
      },
      {
        id: "shelf-media",
        name: "Shelf Media",
        scopes: ["media.read", "media.write"],
        redirectUris: ["http://127.0.0.1/oauth/callback", "http://[::1]/oauth/callback"],
      },
      {
        id: "shelf-agent",
        name: "Shelf Agent",
        scopes: ["kb.read", "kb.write", "media.read", "media.write", "usage.read"],
        redirectUris: ["http://127.0.0.1/oauth/callback", "http://[::1]/oauth/callback"],
      },
    ]);
  });

  test("overrides an id, a name or the scopes of either client", () => {
    const c = load(
      JSON.stringify({
        sync: { id: "acme-sync", name: "Acme Sync" },
        media: { scopes: ["media.read"], redirectUris: ["http://127.0.0.1/oauth/callback", "http://[::1]/oauth/callback"] },
      }),
    );
    expect(c.oauthClients).toEqual([
      {
        id: "acme-sync",
        name: "Acme Sync",
        scopes: ["media.read", "media.write", "kb.read", "kb.write"],
        redirectUris: ["http://127.0.0.1/oauth/callback", "http://[::1]/oauth/callback"],
      },
      { id: "shelf-media", name: "Shelf Media", scopes: ["media.read"], redirectUris: ["http://127.0.0.1/oauth/callback", "http://[::1]/oauth/callback"] },
      expect.objectContaining({ id: "shelf-agent" }),
    ]);
  });

  test("overrides the redirect URIs: https, or http on the loopback", () => {
    const uris = ["https://app.example/callback", "http://localhost:8123/cb"];
    expect(load(JSON.stringify({ media: { redirectUris: uris } })).oauthClients[1]!.redirectUris).toEqual(uris);
  });

  test("not JSON, an unknown scope, an unknown field, a bad id, one id for both clients or a redirect URI registration would refuse is a named problem", () => {
    for (const bad of [
      "{",
      '{"sync":{"scopes":["everything"]}}',
      '{"sync":{"secret":"x"}}',
      '{"other":{}}',
      '{"sync":{"id":"has space"}}',
      '{"sync":{"id":"same"},"media":{"id":"same"}}',
      '{"sync":{"redirectUris":["http://app.example/cb"]}}',
      '{"sync":{"redirectUris":["https://app.example/cb#frag"]}}',
      '{"sync":{"redirectUris":["javascript:alert(1)"]}}',
    ]) {
      const found = problems(bad);
      expect(found).toHaveLength(1);
      expect(found[0]).toStartWith("OAUTH_FIRST_PARTY_CLIENTS: ");
    }
  });
});
