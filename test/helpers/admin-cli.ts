// `shelf admin ...` run in process against the test app's dependencies, its lines collected.
import { runAdmin } from "../../src/wiring/cli/admin.ts";
import { testContext } from "./context.ts";

export async function adminCli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const { deps } = await testContext();
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
