// The built-in checker: SHA-256 hashes of uploaded bytes, and keywords searched in a
// document's text. Both come from the configuration: comma lists in the environment and a
// file of one entry a line, read once when the node starts (a bad line stops the start,
// naming its line number). Which keyword matched is not told: the answer would turn the
// upload endpoint into a way of reading the list.
import { readFileSync } from "node:fs";
import { type Config, ConfigError } from "../../config.ts";
import { keywordMatcher } from "./keywords.ts";
import { type Checker, PASS } from "./types.ts";

const HASH = /^[0-9a-f]{64}$/;

export interface Blocklist {
  hashes: ReadonlySet<string>;
  keywords: string[];
}

const commaList = (s: string | undefined) =>
  (s ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * Reads a blocklist file: `sha256:<64 hex digits>` or `keyword:<text>` on each line; blank
 * lines and lines starting with `#` are skipped. Returns the problems instead of throwing.
 */
export function parseBlocklist(text: string): { hashes: string[]; keywords: string[]; problems: string[] } {
  const hashes: string[] = [];
  const keywords: string[] = [];
  const problems: string[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const colon = line.indexOf(":");
    const tag = colon < 0 ? "" : line.slice(0, colon).trim().toLowerCase();
    const value = colon < 0 ? "" : line.slice(colon + 1).trim();
    if (tag === "sha256" && HASH.test(value.toLowerCase())) hashes.push(value.toLowerCase());
    else if (tag === "keyword" && value) keywords.push(value);
    else problems.push(`line ${i + 1}: expected sha256:<64 hex digits> or keyword:<text>`);
  }
  return { hashes, keywords, problems };
}

/** The configured blocklist: the file's entries and the comma lists together. */
export function loadBlocklist(config: Pick<Config, "COMPLIANCE_BLOCKLIST_FILE" | "COMPLIANCE_BLOCKED_HASHES" | "COMPLIANCE_KEYWORDS">): Blocklist {
  const hashes = commaList(config.COMPLIANCE_BLOCKED_HASHES).map((h) => h.toLowerCase());
  const keywords = commaList(config.COMPLIANCE_KEYWORDS);
  const file = config.COMPLIANCE_BLOCKLIST_FILE;
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new ConfigError([`COMPLIANCE_BLOCKLIST_FILE=${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? "error"})`]);
    }
    const parsed = parseBlocklist(text);
    if (parsed.problems.length) throw new ConfigError(parsed.problems.map((p) => `COMPLIANCE_BLOCKLIST_FILE=${file}: ${p}`));
    hashes.push(...parsed.hashes);
    keywords.push(...parsed.keywords);
  }
  return { hashes: new Set(hashes), keywords };
}

export function blocklistChecker(list: Blocklist): Checker {
  const matcher = keywordMatcher(list.keywords);
  return {
    name: "blocklist",
    async check(input) {
      const base = { checker: "blocklist" as const, kind: input.kind, sha256: input.sha256 };
      if (list.hashes.has(input.sha256.toLowerCase())) return { ok: false, reasons: [{ ...base, reason: "BLOCKED_HASH" }] };
      if (input.text !== undefined && matcher.test(input.text)) return { ok: false, reasons: [{ ...base, reason: "BLOCKED_KEYWORD" }] };
      return PASS;
    },
  };
}
