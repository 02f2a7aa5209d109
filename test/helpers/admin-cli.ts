// `shelf admin ...` run in process against the test app's dependencies (or an instance's
// of its own: adminCliOn), its lines collected.
import type { Deps } from "../../src/core/deps.ts";
import { runAdmin } from "../../src/wiring/cli/admin.ts";
import { testContext } from "./context.ts";

export async function adminCli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  return adminCliOn((await testContext()).deps, ...args);
}

export async function adminCliOn(deps: Deps, ...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(
    deps,
    args,
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, out, err };
}
