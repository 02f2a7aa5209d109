// The platform's compliance check, as configured: on overseas nothing (and callers skip
// even the hashing), on mainland the blocklist, then the moderation service when one is
// configured. The first checker that refuses decides: a hash the operator blocked is not
// sent out for a second opinion.
import type { Config } from "../../config.ts";
import { AppError } from "../../core/errors.ts";
import type { Log } from "../../infra/log.ts";
import { blocklistChecker, loadBlocklist } from "./blocklist.ts";
import { type CheckInput, type Checker, PASS, type Verdict } from "./types.ts";
import { webhookChecker } from "./webhook.ts";

export interface Compliance {
  /** false on overseas: there is nothing to check. */
  readonly enabled: boolean;
  check(input: CheckInput): Promise<Verdict>;
}

/** What a path that checks uploads is handed besides the parts (built once per process by the wiring). */
export interface WithCompliance {
  readonly compliance: Compliance;
}

/** The settings that make a check (config.ts refuses mainland without one). */
const CHECKS = ["COMPLIANCE_BLOCKLIST_FILE", "COMPLIANCE_BLOCKED_HASHES", "COMPLIANCE_KEYWORDS", "COMPLIANCE_WEBHOOK_URL"] as const;

/** Reads the blocklist file (a ConfigError when it is missing or has a bad line). */
export function createCompliance(config: Config, opts: { log: Log }): Compliance {
  if (config.PLATFORM !== "mainland") {
    // An operator who set a list or a webhook expects it to act: say that it does not.
    const ignored = CHECKS.filter((k) => config[k] !== undefined);
    if (ignored.length) opts.log.warn("compliance settings are ignored on this platform", { platform: config.PLATFORM, ignored });
    return { enabled: false, check: async () => PASS };
  }
  const checkers: Checker[] = [blocklistChecker(loadBlocklist(config))];
  if (config.COMPLIANCE_WEBHOOK_URL) {
    checkers.push(
      webhookChecker({
        url: config.COMPLIANCE_WEBHOOK_URL,
        secret: config.COMPLIANCE_WEBHOOK_SECRET,
        timeoutMs: config.COMPLIANCE_WEBHOOK_TIMEOUT_MS,
        inlineBytes: config.COMPLIANCE_WEBHOOK_INLINE_BYTES,
        log: opts.log,
      }),
    );
  }
  return {
    enabled: true,
    async check(input) {
      for (const c of checkers) {
        const verdict = await c.check(input);
        if (!verdict.ok) return verdict;
      }
      return PASS;
    },
  };
}

/** An upload as its path knows it: the hash and size are worked out here when not given. */
export type UploadFacts = Omit<CheckInput, "sha256" | "size"> & { sha256?: string; size?: number };

/**
 * The one call every upload path makes before it commits anything: 451 COMPLIANCE_BLOCKED
 * with meta.reasons when a checker refuses, 502 DEPENDENCY_UNAVAILABLE when one cannot
 * decide. Nothing at all on overseas.
 */
export async function assertCompliant(deps: WithCompliance, upload: UploadFacts): Promise<void> {
  if (!deps.compliance.enabled) return;
  const content = upload.bytes ?? (upload.text !== undefined ? Buffer.from(upload.text, "utf8") : undefined);
  const sha256 = upload.sha256 ?? (content && new Bun.CryptoHasher("sha256").update(content).digest("hex"));
  if (sha256 === undefined) throw new Error("a compliance check needs the upload's hash, bytes or text");
  const size = upload.size ?? content?.length ?? 0;
  const verdict = await deps.compliance.check({ ...upload, sha256, size });
  if (!verdict.ok) {
    throw new AppError("COMPLIANCE_BLOCKED", "the upload was refused by the content compliance check", { reasons: verdict.reasons });
  }
}
