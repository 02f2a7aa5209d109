import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { tempDir } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const dir = () => tempDir("shelf-config-");

describe("config", () => {
  test("defaults give an embedded setup with derived URLs", () => {
    const c = loadConfig({ DATA_DIR: dir() });
    expect(c.PORT).toBe(8080);
    expect(c.PUBLIC_URL).toBe("http://localhost:8080");
    expect(c.MEDIA_URL).toBe("http://localhost:8080/media");
    expect(c.CENTER_URL).toBe("http://localhost:8080");
    expect(c.PLATFORM).toBe("overseas");
    expect(c.embedded).toEqual({ db: true, kv: true, storage: true });
    expect(Object.isFrozen(c)).toBe(true);
  });

  test("the embedded JWT secret is generated once and kept in DATA_DIR", () => {
    const d = dir();
    const a = loadConfig({ DATA_DIR: d });
    const b = loadConfig({ DATA_DIR: d });
    expect(a.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(b.JWT_SECRET).toBe(a.JWT_SECRET);
    expect(Bun.file(join(d, "jwt-secret")).size).toBeGreaterThan(0);
  });

  test("every bad variable is named in one error", () => {
    let err: unknown;
    try {
      loadConfig({ DATA_DIR: dir(), PORT: "eighty", PLATFORM: "mars", LOG_LEVEL: "loud", PUBLIC_URL: "not a url" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const text = (err as ConfigError).message;
    for (const name of ["PORT", "PLATFORM", "LOG_LEVEL", "PUBLIC_URL"]) expect(text).toContain(name);
    expect((err as ConfigError).problems).toHaveLength(4);
  });

  test("production database requires a shared JWT secret", () => {
    expect(() => loadConfig({ DATA_DIR: dir(), DATABASE_URL: "postgres://x@localhost/db" })).toThrow(/JWT_SECRET/);
  });

  test("S3 settings go together", () => {
    expect(() => loadConfig({ DATA_DIR: dir(), S3_BUCKET: "b" })).toThrow(/S3_BUCKET/);
  });

  test("plan overrides are validated and applied", () => {
    const c = loadConfig({ DATA_DIR: dir(), PLAN_OVERRIDES: '{"trial":{"uploadsPerDay":7}}' });
    expect(c.planOverrides.trial?.uploadsPerDay).toBe(7);
    expect(() => loadConfig({ DATA_DIR: dir(), PLAN_OVERRIDES: '{"trial":{"nope":1}}' })).toThrow(/PLAN_OVERRIDES/);
    expect(() => loadConfig({ DATA_DIR: dir(), PLAN_OVERRIDES: "{" })).toThrow(/PLAN_OVERRIDES/);
  });

  test("MEDIA_URL and trailing slashes", () => {
    const c = loadConfig({ DATA_DIR: dir(), PUBLIC_URL: "https://api.example.com/", MEDIA_URL: "https://cdn.example.com/" });
    expect(c.PUBLIC_URL).toBe("https://api.example.com");
    expect(c.MEDIA_URL).toBe("https://cdn.example.com");
  });
});
