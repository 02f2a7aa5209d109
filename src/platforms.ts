// What each PLATFORM allows: the video providers it may use, and on mainland the
// compliance checks a node must have. Read by config.ts when it checks the environment.
import { Type as T, type Static } from "@sinclair/typebox";

export const Platform = T.Union([T.Literal("overseas"), T.Literal("mainland")]);
export type PlatformName = Static<typeof Platform>;
export type VideoProviderName = "local" | "mux";

/**
 * The video providers each platform may use, its default first. Mux serves from outside
 * the mainland, so a mainland deployment transcodes on its own workers.
 */
export const PLATFORM_VIDEO_PROVIDERS: Record<PlatformName, readonly VideoProviderName[]> = {
  overseas: ["local", "mux"],
  mainland: ["local"],
};

/**
 * A platform's rules: a video provider it allows, and on mainland at least one compliance
 * check (a mainland node with none would pass every upload unchecked).
 */
export function platformProblems(out: Record<string, unknown>): string[] {
  const platform = out.PLATFORM as PlatformName | undefined;
  if (!platform || !(platform in PLATFORM_VIDEO_PROVIDERS)) return [];
  const problems: string[] = [];
  const allowed = PLATFORM_VIDEO_PROVIDERS[platform];
  const provider = out.VIDEO_PROVIDER as VideoProviderName | undefined;
  if (provider !== undefined && !allowed.includes(provider)) {
    problems.push(`VIDEO_PROVIDER=${provider}: not allowed on PLATFORM=${platform} (allowed: ${allowed.join(", ")})`);
  }
  const checks = ["COMPLIANCE_BLOCKLIST_FILE", "COMPLIANCE_BLOCKED_HASHES", "COMPLIANCE_KEYWORDS", "COMPLIANCE_WEBHOOK_URL"];
  if (platform === "mainland" && checks.every((k) => out[k] === undefined)) {
    problems.push(`PLATFORM=mainland: set at least one of ${checks.join(", ")} (every upload is checked there)`);
  }
  return problems;
}
