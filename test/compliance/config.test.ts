// The platform's configuration: the video provider follows the platform (one allowed set
// per platform, refused otherwise), mainland needs a check, and the blocklist file's form.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { createCompliance } from "../../src/modules/compliance/public.ts";
import { parseBlocklist } from "../../src/modules/compliance/blocklist.ts";
import { createLog } from "../../src/infra/log.ts";
import { tempDir } from "../helpers/context.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const HASH = "ab".repeat(32);
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: tempDir("shelf-config-"), ...env });
const problemsOf = (env: Record<string, string>) => {
  try {
    load(env);
    return [];
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return e.problems;
  }
};
const log = createLog("silent");
const check = (config: ReturnType<typeof load>, input: { text?: string; sha256?: string }) =>
  createCompliance(config, { log }).check({
    kind: "document",
    sha256: "0".repeat(64),
    size: 1,
    ownerId: "u",
    filename: "f.md",
    mimeType: "text/markdown",
    ...input,
  });

describe("platform configuration", () => {
  test("the video provider follows the platform: local by default on both; mux allowed overseas, refused on mainland", () => {
    expect(load({}).VIDEO_PROVIDER).toBe("local");
    expect(load({ PLATFORM: "mainland", COMPLIANCE_KEYWORDS: "x" }).VIDEO_PROVIDER).toBe("local");
    expect(load({ VIDEO_PROVIDER: "mux" }).VIDEO_PROVIDER).toBe("mux");
    expect(problemsOf({ PLATFORM: "mainland", COMPLIANCE_KEYWORDS: "x", VIDEO_PROVIDER: "mux" })).toEqual([
      "VIDEO_PROVIDER=mux: not allowed on PLATFORM=mainland (allowed: local)",
    ]);
  });

  test("mainland without any check is refused (it would pass every upload); overseas needs none", () => {
    expect(problemsOf({ PLATFORM: "mainland" })).toEqual([expect.stringContaining("PLATFORM=mainland: set at least one of COMPLIANCE_BLOCKLIST_FILE")]);
    expect(problemsOf({ PLATFORM: "overseas" })).toEqual([]);
  });

  test("COMPLIANCE_BLOCKED_HASHES takes only SHA-256 hex hashes", () => {
    expect(problemsOf({ COMPLIANCE_BLOCKED_HASHES: `${HASH}, ${HASH.toUpperCase()},` })).toEqual([]);
    expect(problemsOf({ COMPLIANCE_BLOCKED_HASHES: `${HASH},nothex` })).toEqual([expect.stringContaining("COMPLIANCE_BLOCKED_HASHES")]);
  });

  test("overseas builds no check at all, whatever COMPLIANCE_* says", async () => {
    const c = createCompliance(load({ COMPLIANCE_KEYWORDS: "bad" }), { log });
    expect(c.enabled).toBe(false);
  });
});

describe("blocklist file", () => {
  test("one sha256: or keyword: entry a line; comments and blank lines skipped; other lines named by number", () => {
    const parsed = parseBlocklist(`# list\n\nsha256:${HASH.toUpperCase()}\nkeyword: Bad Words \n${HASH}\nkeyword:\n`);
    expect(parsed.hashes).toEqual([HASH]);
    expect(parsed.keywords).toEqual(["Bad Words"]);
    expect(parsed.problems).toEqual(["line 5: expected sha256:<64 hex digits> or keyword:<text>", "line 6: expected sha256:<64 hex digits> or keyword:<text>"]);
  });

  test("the file's entries and the comma lists all count; a file that cannot be read or has a bad line stops the start", async () => {
    const dir = tempDir("shelf-blocklist-");
    const file = join(dir, "blocklist.txt");
    writeFileSync(file, `sha256:${HASH}\nkeyword:from the file\n`);
    const config = load({ PLATFORM: "mainland", COMPLIANCE_BLOCKLIST_FILE: file, COMPLIANCE_KEYWORDS: "from env" });
    expect(await check(config, { sha256: HASH })).toMatchObject({ ok: false, reasons: [{ reason: "BLOCKED_HASH" }] });
    expect(await check(config, { text: "words FROM THE FILE here" })).toMatchObject({ ok: false, reasons: [{ reason: "BLOCKED_KEYWORD" }] });
    expect(await check(config, { text: "and from\u200b env" })).toMatchObject({ ok: false, reasons: [{ reason: "BLOCKED_KEYWORD" }] });
    expect(await check(config, { text: "nothing of it" })).toEqual({ ok: true });

    const missing = load({ PLATFORM: "mainland", COMPLIANCE_BLOCKLIST_FILE: join(dir, "absent.txt") });
    expect(() => createCompliance(missing, { log })).toThrow(/COMPLIANCE_BLOCKLIST_FILE=.*absent\.txt: cannot be read/);
    writeFileSync(file, "keyword:ok\nnot an entry\n");
    expect(() => createCompliance(config, { log })).toThrow(/line 2/);
  });
});
