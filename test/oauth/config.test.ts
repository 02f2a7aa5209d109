import { describe, expect, test } from "bun:test";
import { type ConfigError, loadConfig } from "../../src/config.ts";
import { tempDir } from "../helpers/context.ts";

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
  test("by default: shelf-sync and shelf-media with the scopes of SPEC 5.7", () => {
    expect(load().oauthClients).toEqual([
      { id: "shelf-sync", name: "Shelf Sync", scopes: ["media.read", "media.write", "kb.read", "kb.write"] },
      { id: "shelf-media", name: "Shelf Media", scopes: ["media.read", "media.write"] },
    ]);
  });

  test("overrides an id, a name or the scopes of either client", () => {
    const c = load(JSON.stringify({ sync: { id: "acme-sync", name: "Acme Sync" }, media: { scopes: ["media.read"] } }));
    expect(c.oauthClients).toEqual([
      { id: "acme-sync", name: "Acme Sync", scopes: ["media.read", "media.write", "kb.read", "kb.write"] },
      { id: "shelf-media", name: "Shelf Media", scopes: ["media.read"] },
    ]);
  });

  test("not JSON, an unknown scope, an unknown field, a bad id or one id for both clients is a named problem", () => {
    for (const bad of [
      "{",
      '{"sync":{"scopes":["everything"]}}',
      '{"sync":{"secret":"x"}}',
      '{"other":{}}',
      '{"sync":{"id":"has space"}}',
      '{"sync":{"id":"same"},"media":{"id":"same"}}',
    ]) {
      const found = problems(bad);
      expect(found).toHaveLength(1);
      expect(found[0]).toStartWith("OAUTH_FIRST_PARTY_CLIENTS: ");
    }
  });
});
